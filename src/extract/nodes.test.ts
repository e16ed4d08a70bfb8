import { expect, test } from "bun:test";
import { Text } from "domhandler";
import { loadHtml } from "./dom.ts";
import { type Element, isCollapsed, nameWords, textLength } from "./nodes.ts";

test("isCollapsed: single spaces between words only, as collapsing whitespace would leave the text", () => {
  const collapsed = (data: string) => isCollapsed(new Text(data));
  expect(collapsed("tides and storms")).toBe(true);
  expect(collapsed("word")).toBe(true);
  expect(collapsed("")).toBe(false);
  expect(collapsed(" tides")).toBe(false);
  expect(collapsed("tides ")).toBe(false);
  expect(collapsed("tides  and")).toBe(false);
  expect(collapsed("tides\nand")).toBe(false);
  expect(collapsed("tides\tand")).toBe(false);
  expect(collapsed("tides\u00a0and")).toBe(false);
  // JavaScript's \s above U+00A0: an em space, an ideographic space, a byte order mark.
  expect(collapsed("tides\u2003and")).toBe(false);
  expect(collapsed("潮\u3000汐")).toBe(false);
  expect(collapsed("\ufefftides")).toBe(false);
  expect(collapsed("潮汐と嵐")).toBe(true);
});

test("textLength and isCollapsed follow a text node's data when it changes", () => {
  const node = new Text("tides and storms");
  expect(textLength(node)).toBe(14);
  expect(isCollapsed(node)).toBe(true);
  node.data = "  tides\n";
  expect(textLength(node)).toBe(5);
  expect(isCollapsed(node)).toBe(false);
});

test("nameWords reads class and id lower-cased, and follows changes to them", () => {
  const $ = loadHtml('<div class="Post-Body Main" id="Story">x</div>');
  const div = $("div")[0] as Element;
  expect(nameWords(div)).toBe("post-body main story");
  expect(nameWords(div)).toBe("post-body main story");
  div.attribs.class = "Sidebar";
  expect(nameWords(div)).toBe("sidebar story");
  delete div.attribs.id;
  expect(nameWords(div)).toBe("sidebar ");
});

import { expect, test } from "bun:test";
import { Text } from "domhandler";
import { loadHtml } from "./dom.ts";
import { type Element, isCollapsed, nameWords, smallTextOf, textLength } from "./nodes.ts";

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

test("textLength and isCollapsed agree with counting every character, whatever whitespace the text holds", () => {
  const WS = "\\x00-\\x20\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
  const collapsedRef = new RegExp(`^[^${WS}]+(?: [^${WS}]+)*$`);
  const visibleRef = (text: string) =>
    [...text].reduce((n, ch) => n + (ch.length === 2 ? 2 : ch > " " && ch !== "\u00a0" ? 1 : 0), 0);
  const pieces = [
    "word",
    "é",
    "😀",
    " ",
    "  ",
    "\n",
    "\t",
    "\u00a0",
    "\u2003",
    "\u3000",
    "\x01",
    "\ufeff",
    "—",
    "x y",
  ];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 3000; i++) {
    let text = "";
    const parts = Math.floor(random() * 6);
    for (let p = 0; p < parts; p++) text += pieces[Math.floor(random() * pieces.length)];
    const node = new Text(text);
    expect([text, textLength(node), isCollapsed(node)]).toEqual([
      text,
      visibleRef(text),
      collapsedRef.test(text),
    ]);
  }
});

test("smallTextOf reads a small subtree's text and stops, unread, past its node budget", () => {
  const $ = loadHtml(
    `<div id="icon"><span> → </span></div><div id="big"><span>a</span><span>b</span><span>c</span></div>`,
  );
  expect(smallTextOf($("#icon")[0] as Element, 3)).toBe("→");
  const big = $("#big")[0] as Element;
  // The last span's text is never read: the budget runs out before it.
  let reads = 0;
  const last = (big.children[2] as Element).children[0] as Text;
  const data = last.data;
  Object.defineProperty(last, "data", {
    get: () => {
      reads++;
      return data;
    },
  });
  expect(smallTextOf(big, 4)).toBeNull();
  expect(reads).toBe(0);
  expect(smallTextOf(big, 7)).toBe("abc");
  expect(reads).toBe(1);
});

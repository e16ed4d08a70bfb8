import { expect, test } from "bun:test";
import TurndownService from "turndown";
import { loadHtml } from "./dom.ts";
import { toMarkdown as rootsToMarkdown } from "./markdown.ts";
import { indexRules } from "./turndown-rules.ts";

/** A service with rules of every filter kind, with and without the index. */
function services(): [TurndownService, TurndownService] {
  const make = () => {
    const td = new TurndownService({ headingStyle: "atx" });
    td.addRule("shout", { filter: "strong", replacement: (c) => c.toUpperCase() });
    td.addRule("quiet", { filter: ["em", "i"], replacement: (c) => c.toLowerCase() });
    // A function filter on something other than the name: it must still be asked of every node.
    td.addRule("tagged", {
      filter: (node) => (node as HTMLElement).getAttribute?.("data-x") === "1",
      replacement: (c) => `<<${c}>>`,
    });
    td.keep(["kbd"]);
    td.remove("aside");
    return td;
  };
  const plain = make();
  const indexed = make();
  indexRules(indexed);
  return [plain, indexed];
}

const PAGE =
  '<h2>Title <strong>Bold</strong></h2><p>Some <em>Em</em> <i>I</i> and <span data-x="1">tagged</span> ' +
  '<strong data-x="1">tagged strong</strong> <kbd>Ctrl</kbd> <x-widget>custom</x-widget></p>' +
  "<aside>gone</aside><div><p> </p><a href='/a'></a></div><ul><li>one</li><li><STRONG>two</STRONG></li></ul>";

test("the indexed rules give every node the rule turndown's own search gives it", () => {
  const [plain, indexed] = services();
  const expected = plain.turndown(PAGE);
  expect(indexed.turndown(PAGE)).toBe(expected);
  // The function filter wins over the name rule added before it, as turndown orders them.
  expect(expected).toContain("<<tagged strong>>");
  expect(expected).toContain("<kbd>Ctrl</kbd>");
  expect(expected).not.toContain("gone");
});

test("a rule added after indexing takes effect", () => {
  const [plain, indexed] = services();
  indexed.turndown(PAGE);
  for (const td of [plain, indexed])
    td.addRule("custom", { filter: (node) => node.nodeName === "X-WIDGET", replacement: () => "[widget]" });
  expect(indexed.turndown(PAGE)).toBe(plain.turndown(PAGE));
  expect(indexed.turndown(PAGE)).toContain("[widget]");
});

test("text that needs escaping is still escaped; other text is left alone", () => {
  const md = (html: string) => rootsToMarkdown(loadHtml(html).root().contents().get());
  const cases: [string, string][] = [
    ["1. not a list", "1\\. not a list"],
    ["# not a heading", "\\# not a heading"],
    ["- not an item", "\\- not an item"],
    ["+ not an item", "\\+ not an item"],
    ["> not a quote", "\\> not a quote"],
    ["=== not a rule", "\\=== not a rule"],
    ["~~~ not a fence", "\\~~~ not a fence"],
    // CommonMark reads no emphasis in an underscore inside a word: it stays as it is.
    ["snake_case and Director_Oh_2", "snake_case and Director_Oh_2"],
    ["_lead and trail_", "\\_lead and trail\\_"],
    ["a _word_ here", "a \\_word\\_ here"],
    ["literal a\\_b", "literal a\\\\\\_b"],
    ["a *star*", "a \\*star\\*"],
    ["a `tick`", "a \\`tick\\`"],
    ["a [bracket](x)", "a \\[bracket\\](x)"],
    ["a [bracket][ref]", "a \\[bracket\\][ref]"],
    ["a back\\slash", "a back\\\\slash"],
    ["plain words, 2 numbers: 3.5 - done", "plain words, 2 numbers: 3.5 - done"],
  ];
  for (const [text, escaped] of cases) expect(md(`<p>${text}</p>`)).toBe(escaped);
});

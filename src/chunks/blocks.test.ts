import { describe, expect, test } from "bun:test";
import { parseBlocks } from "./blocks.ts";

const kinds = (markdown: string) => parseBlocks(markdown).map((b) => [b.kind, b.lines.join("\n")]);

describe("parseBlocks", () => {
  test("a fenced block keeps its blank lines, # comments and | lines as code", () => {
    const code = "```sh\n# install\n\napt-get install tide | tee log\n```";
    expect(kinds(`Intro.\n\n${code}\n\nAfter.`)).toEqual([
      ["paragraph", "Intro."],
      ["code", code],
      ["paragraph", "After."],
    ]);
  });

  test("a ~~~ fence is closed only by ~~~, not by ``` inside it", () => {
    const code = "~~~md\n```js\nx\n```\n\n~~~";
    expect(kinds(code)).toEqual([["code", code]]);
  });

  test("a list item keeps its continuation lines, nested items and nested code with blank lines", () => {
    const item =
      "1. Install:\n\n   ```sh\n   bun add tide\n\n   bun run tide\n   ```\n   - then check\n   lazy line";
    expect(kinds(`${item}\n2. Next\n\nAfter.`)).toEqual([
      ["list", item],
      ["list", "2. Next"],
      ["paragraph", "After."],
    ]);
    expect(parseBlocks(`${item}\n2. Next`)[1]!.tight).toBe(true);
  });

  test("code fenced inside a list item stays in it even when its lines are not indented", () => {
    const item = "- Config:\n  ```ini\n[tide]\n\n# units\nlevel = m\n  ```";
    expect(kinds(`${item}\n\nAfter.`)).toEqual([
      ["list", item],
      ["paragraph", "After."],
    ]);
  });

  test("a table is the run of lines starting with |", () => {
    expect(kinds("Caption\n| a | b |\n|---|---|\n| 1 | 2 |\nNot a row")).toEqual([
      ["paragraph", "Caption"],
      ["table", "| a | b |\n|---|---|\n| 1 | 2 |"],
      ["paragraph", "Not a row"],
    ]);
  });

  test("setext underlines make headings; * * * is a break, not a list item", () => {
    const blocks = parseBlocks("Title\n=====\n\nSub\n---\n\n* * *\n\n    indented code\n\n    more code");
    expect(blocks.map((b) => [b.kind, b.level, b.title])).toEqual([
      ["heading", 1, "Title"],
      ["heading", 2, "Sub"],
      ["paragraph", undefined, undefined],
      ["code", undefined, undefined],
    ]);
    expect(blocks[3]!.lines).toEqual(["    indented code", "", "    more code"]);
  });

  test("inside a paragraph only a bullet or 1. starts a list", () => {
    expect(kinds("Founded in\n2019. Then it grew.\n- a bullet\n\nText\n1. first")).toEqual([
      ["paragraph", "Founded in\n2019. Then it grew."],
      ["list", "- a bullet"],
      ["paragraph", "Text"],
      ["list", "1. first"],
    ]);
  });

  test("markers count after up to 3 spaces only, and a fence after any white space", () => {
    expect(kinds("\t```js\nx\n```")).toEqual([["code", "\t```js\nx\n```"]]);
    expect(kinds("\u00a0```\nx\n```")).toEqual([["code", "\u00a0```\nx\n```"]]);
    expect(kinds("   | a |\n   | b |\n\n    | c |")).toEqual([
      ["table", "   | a |\n   | b |"],
      ["code", "    | c |"],
    ]);
    expect(kinds("Title\n   ---\n\n   ***\n\n   - item")).toEqual([
      ["heading", "Title\n   ---"],
      ["paragraph", "   ***"],
      ["list", "   - item"],
    ]);
  });

  test("# without a space is text, not a heading", () => {
    expect(kinds("#hashtag\n\n####### seven")).toEqual([
      ["paragraph", "#hashtag"],
      ["paragraph", "####### seven"],
    ]);
  });
});

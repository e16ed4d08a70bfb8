import { expect, test } from "bun:test";
import { parseBlocks } from "./blocks.ts";
import { packSection } from "./pack.ts";
import { groupSections } from "./sections.ts";
import { Counts } from "./tally.ts";
import { tokenCounter } from "./tokenizer.ts";

const sentence = (n: number) => `Sentence number ${n} tells the reader about the tide at station ${n * 7}.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => sentence(from + k)).join(" ");

/** The chunks of `markdown` and how many characters were counted to make them. */
function packed(markdown: string, maxTokens: number) {
  const count = tokenCounter("o200k_base");
  let counted = 0;
  const counts = new Counts((text) => {
    counted += text.length;
    return count(text);
  }, true);
  const settings = { maxTokens, overlap: 0, counts, separator: count("\n\n"), seen: { chars: 0, tokens: 0 } };
  const pieces = groupSections(parseBlocks(markdown)).flatMap((section) => packSection(section, settings));
  return { pieces, counted: counted / markdown.length };
}

test("a page of paragraphs is counted about once, not once per block and again per chunk", () => {
  const page = ["# Tides", ...Array.from({ length: 20 }, (_, k) => paragraph(k * 10, 5)), "## Related"].join(
    "\n\n",
  );
  const { pieces, counted } = packed(page, 512);
  expect(pieces.length).toBeGreaterThan(3);
  for (const piece of pieces) expect(piece.tokens).toBe(tokenCounter("o200k_base")(piece.text));
  expect(counted).toBeLessThan(1.05);
});

test("a code block long enough to be split is counted by its lines once, not whole and then by lines", () => {
  const code = Array.from(
    { length: 300 },
    (_, k) => `    const level${k} = await gauge.read(${k}); // station ${k}`,
  );
  const page = `## Gauges\n\n${paragraph(0, 3)}\n\n\`\`\`ts\n${code.join("\n")}\n\`\`\`\n\n${paragraph(3, 3)}`;
  const { pieces, counted } = packed(page, 256);
  expect(pieces.length).toBeGreaterThan(10);
  for (const piece of pieces) {
    expect(piece.tokens).toBe(tokenCounter("o200k_base")(piece.text));
    expect(piece.tokens).toBeLessThanOrEqual(256);
  }
  expect(counted).toBeLessThan(1.05);
});

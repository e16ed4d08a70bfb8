import { describe, expect, test } from "bun:test";
import { Counts, firstCut, lastCut } from "./tally.ts";
import { INDENTS_START_PIECES, TOKENIZERS, tokenCounter } from "./tokenizer.ts";

/** A seeded generator, so a failing text can be made again. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return Math.floor((state / 0x7fffffff) * n);
  };
}

/** Bits of text around the places where counts add up or do not: ends of words, line breaks, indentation, "/". */
const BITS = [
  "a",
  "Tide",
  "42",
  " ",
  "  ",
  "\t",
  "\n",
  "\n\n",
  "\n    ",
  ".",
  ";",
  "}",
  "'s",
  "'",
  "/",
  "//",
  "|",
  "`",
  "```",
  "-",
  "é",
  "\u0301",
  "東京",
  "😀",
  "\u00a0",
  "<|endoftext|>",
];

const textOf = (next: (n: number) => number) =>
  Array.from({ length: 1 + next(8) }, () => BITS[next(BITS.length)]).join("");

describe("Counts", () => {
  test("texts joined count exactly what their joined text counts, in every encoding", () => {
    const problems: string[] = [];
    for (const name of TOKENIZERS) {
      const count = tokenCounter(name);
      const counts = new Counts(count, INDENTS_START_PIECES.has(name));
      const next = random(TOKENIZERS.indexOf(name) + 1);
      for (let n = 0; n < 300; n++) {
        const texts = Array.from({ length: 2 + next(4) }, () => textOf(next));
        const separators = texts.map(() => ["", "\n", "\n\n"][next(3)]!);
        let tally = counts.start({ text: texts[0]!, tokens: count(texts[0]!) });
        let joined = texts[0]!;
        for (let k = 1; k < texts.length; k++) {
          tally = counts.add(tally, separators[k]!, { text: texts[k]!, tokens: count(texts[k]!) });
          joined += separators[k]! + texts[k]!;
          if (tally.tokens !== count(joined)) problems.push(`${name}: ${JSON.stringify(joined)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("a text counts the sum of its parts when cut at any of its cuts", () => {
    const next = random(7);
    for (const name of TOKENIZERS) {
      const count = tokenCounter(name);
      for (let n = 0; n < 200; n++) {
        const text = textOf(next) + textOf(next);
        const cuts = [firstCut(text), lastCut(text)].filter((cut) => cut > 0 && cut < text.length);
        for (const cut of cuts) {
          expect(count(text.slice(0, cut)) + count(text.slice(cut))).toBe(count(text));
        }
      }
    }
  });

  test("the join of a fence and a line starting with / is counted, not taken for a line start", () => {
    const count = tokenCounter("o200k_base");
    const counts = new Counts(count, true);
    const fence = { text: "```", tokens: count("```") };
    const path = { text: "/x", tokens: count("/x") };
    // "```\n\n/" is one piece: the line break does not end it.
    expect(count("```\n\n/x")).toBeGreaterThan(fence.tokens + count("\n\n") + path.tokens);
    expect(counts.add(counts.start(fence), "\n\n", path).tokens).toBe(count("```\n\n/x"));
  });

  test("parts counted one by one add up to the whole", () => {
    const count = tokenCounter("cl100k_base");
    const counts = new Counts(count, true);
    const lines = ["if (tide) {", "\n    rise();", "\n}", "\n", "\n// done"].map((text) => ({
      text,
      tokens: count(text),
    }));
    expect(counts.joined(lines)).toBe(count(lines.map((line) => line.text).join("")));
    expect(counts.joined([])).toBe(0);
  });
});

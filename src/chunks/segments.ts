/**
 * Ways to cut a text into consecutive units whose concatenation is the text: sentences, lines,
 * words, and as a last resort runs of characters. Whitespace between two units starts the second
 * (" world", "\nnext line"), which is also how BPE tokenizers attach it, so a unit's token count
 * is close to its share of the whole text's.
 */

/** Cuts `text` into units; `budget` (in tokens) matters only to the character cut. */
export type Segmenter = (text: string, budget: number) => string[];

/** After a sentence's end mark (and closing quotes or brackets) before a space; after a CJK full stop; before a line break. */
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s)|[。！？]+["'”’」』)\]）]*|(?=\n)/g;

/** Cuts at the given boundaries, never leaving a unit of whitespace only (it joins the next unit). */
function cutAt(text: string, boundaries: Iterable<number>): string[] {
  const units: string[] = [];
  let start = 0;
  for (const end of boundaries) {
    if (end > start && text.slice(start, end).trim()) {
      units.push(text.slice(start, end));
      start = end;
    }
  }
  if (start < text.length) {
    const rest = text.slice(start);
    if (rest.trim() || !units.length) units.push(rest);
    else units[units.length - 1] += rest;
  }
  return units;
}

/** Sentences (Latin and CJK end marks) and lines. */
export const sentenceUnits: Segmenter = (text) =>
  cutAt(
    text,
    Array.from(text.matchAll(SENTENCE_END), (m) => m.index + m[0].length),
  );

/** Lines, each after the first starting with its "\n". */
export const lineUnits: Segmenter = (text) => text.split("\n").map((line, i) => (i ? `\n${line}` : line));

let words: Intl.Segmenter | undefined;

/**
 * Words as ICU finds them: at spaces, and by dictionary in scripts written without (Japanese,
 * Chinese, Thai). The locale is fixed so the same text cuts the same way on every machine.
 */
export const wordUnits: Segmenter = (text) => {
  words ??= new Intl.Segmenter("en", { granularity: "word" });
  const boundaries: number[] = [];
  let spaceStart = -1;
  for (const { segment, index, isWordLike } of words.segment(text)) {
    if (isWordLike) {
      boundaries.push(spaceStart >= 0 ? spaceStart : index);
      spaceStart = -1;
    } else if (!segment.trim()) {
      if (spaceStart < 0) spaceStart = index;
    } else spaceStart = -1;
  }
  return cutAt(text, boundaries);
};

/**
 * Runs of budget/4 characters (code points): a code point is at most 4 UTF-8 bytes and a token
 * at least one, so each run fits the budget whatever the script.
 */
export const characterUnits: Segmenter = (text, budget) => {
  const chars = Array.from(text);
  const size = Math.max(1, Math.floor(budget / 4));
  const units: string[] = [];
  for (let i = 0; i < chars.length; i += size) units.push(chars.slice(i, i + size).join(""));
  return units;
};

/**
 * The overlap a chunk carries from the one before it in the same section: the longest end of the
 * previous chunk's content within the overlap budget, made of whole blocks and then, from a
 * paragraph, whole sentences (whole lines for hard-wrapped text). Words are taken only when not
 * even the last sentence fits. Code, tables and list items are carried whole or not at all.
 */

import { joinBlocks, type PackedBlock } from "./joined.ts";
import { sentenceUnits, wordUnits } from "./segments.ts";
import type { Piece } from "./split.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** The longest end of `units` (concatenated, trimmed) counting at most `room` tokens, "" when none fits. */
function suffixWithin(units: string[], room: number, count: TokenCounter): string {
  let start = units.length;
  let used = 0;
  while (start > 0) {
    const tokens = count(units[start - 1]!);
    if (used + tokens > room) break;
    used += tokens;
    start--;
  }
  while (start < units.length) {
    const text = units.slice(start).join("").trim();
    if (count(text) <= room) return text;
    start++;
  }
  return "";
}

/** The end of a paragraph within `room` tokens: whole sentences, or words of the last when `words` allows. */
function paragraphTail(text: string, room: number, words: boolean, count: TokenCounter): string {
  const sentences = sentenceUnits(text, room);
  const tail = suffixWithin(sentences, room, count);
  if (tail || !words) return tail;
  return suffixWithin(wordUnits(sentences[sentences.length - 1] ?? "", room), room, count);
}

/**
 * The text to start the next chunk with: the end of `blocks` (the previous chunk's content) in at
 * most `budget` tokens, or undefined when nothing fits. `separator` is the token count of the
 * blank line between two blocks.
 */
export function overlapTail(
  blocks: PackedBlock[],
  budget: number,
  separator: number,
  count: TokenCounter,
): Piece | undefined {
  const parts: Pick<PackedBlock, "text" | "tight">[] = [];
  let used = 0;
  for (let k = blocks.length - 1; k >= 0; k--) {
    const block = blocks[k]!;
    const joint = parts.length ? separator : 0;
    if (used + joint + block.tokens <= budget) {
      parts.unshift(block);
      used += joint + block.tokens;
      continue;
    }
    if (block.kind === "paragraph") {
      const tail = paragraphTail(block.text, budget - used - joint, !parts.length, count);
      if (tail) parts.unshift({ text: tail });
    }
    break;
  }
  while (parts.length) {
    const text = joinBlocks(parts);
    const tokens = count(text);
    if (tokens <= budget) return { text, tokens };
    parts.shift();
  }
  return undefined;
}

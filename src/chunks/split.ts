/**
 * A block too long for one chunk cut into pieces that each fit: code at line boundaries, every
 * piece inside the block's own fence lines; a table between rows, every piece under the table's
 * header and separator rows; a list item between its lines (code fenced inside it cut only like
 * code); a paragraph or heading between
 * sentences. A unit still too long (one line, row or sentence) is cut between words, and a word
 * too long (a data URI, a hash) between characters, the only cut inside a word.
 */

import { type Block, closesFence, endOfFence, fenceOpening } from "./blocks.ts";
import { characterUnits, lineUnits, type Segmenter, sentenceUnits, wordUnits } from "./segments.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** A text and its token count. */
export interface Piece {
  text: string;
  tokens: number;
}

/** Lines repeated around every piece: a code fence's opening and closing lines, a table's header rows. */
interface Frame {
  head: string;
  tail: string;
  tokens: number;
}

const NO_FRAME: Frame = { head: "", tail: "", tokens: 0 };
const SENTENCE_CUTS = [sentenceUnits, wordUnits, characterUnits];
const LINE_CUTS = [lineUnits, wordUnits, characterUnits];
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** Tokens kept spare in a piece: a count of joined units can exceed the sum of their counts by a little. */
const MARGIN = 2;

/**
 * Cuts `text` into units of at most `budget` tokens each, going to the next finer cut for a unit
 * too long. `tokens` is the text's count when already known (a unit that is the whole text is not
 * counted again).
 */
function fitUnits(
  text: string,
  budget: number,
  cuts: Segmenter[],
  count: TokenCounter,
  tokens?: number,
): Piece[] {
  const [cut, ...finer] = cuts;
  if (!cut) return [{ text, tokens: tokens ?? count(text) }];
  const out: Piece[] = [];
  for (const unit of cut(text, budget)) {
    const unitTokens = unit === text && tokens !== undefined ? tokens : count(unit);
    if (unitTokens <= budget || !finer.length) out.push({ text: unit, tokens: unitTokens });
    else out.push(...fitUnits(unit, budget, finer, count, unitTokens));
  }
  return out;
}

/**
 * Packs consecutive units into as few framed pieces of at most `budget` tokens as it can: filled
 * by the units' own counts, then each piece counted as a whole and shortened if the whole is over.
 */
function packUnits(
  units: Piece[],
  budget: number,
  frame: Frame,
  tidy: (text: string) => string,
  count: TokenCounter,
): Piece[] {
  const pieces: Piece[] = [];
  const render = (from: number, to: number) => {
    let body = "";
    for (let k = from; k < to; k++) body += units[k]!.text;
    return frame.head + tidy(body) + frame.tail;
  };
  let i = 0;
  while (i < units.length) {
    let j = i + 1;
    let estimate = frame.tokens + units[i]!.tokens;
    while (j < units.length && estimate + units[j]!.tokens <= budget) estimate += units[j++]!.tokens;
    let text = render(i, j);
    const alone = j === i + 1 && frame === NO_FRAME && text === units[i]!.text;
    let tokens = alone ? units[i]!.tokens : count(text);
    while (tokens > budget && j - i > 1) {
      text = render(i, --j);
      tokens = count(text);
    }
    if (tidy(text.slice(frame.head.length, text.length - frame.tail.length))) pieces.push({ text, tokens });
    i = j;
  }
  return pieces;
}

/** The fence lines of a fenced code block, or the header rows of a table, if small enough to repeat. */
function frameOf(block: Block, budget: number, count: TokenCounter): { frame: Frame; body: string[] } {
  const { lines } = block;
  let head: string | undefined;
  let tail = "";
  let body = lines;
  const opening = fenceOpening(lines[0]!);
  if (block.kind === "code" && opening) {
    const closed = lines.length > 1 && closesFence(lines[lines.length - 1]!, opening);
    head = `${lines[0]}\n`;
    tail = `\n${closed ? lines[lines.length - 1] : opening}`;
    body = lines.slice(1, closed ? -1 : undefined);
  } else if (block.kind === "table" && lines.length > 2 && DELIMITER_ROW.test(lines[1]!)) {
    head = `${lines[0]}\n${lines[1]}\n`;
    body = lines.slice(2);
  }
  if (head === undefined) return { frame: NO_FRAME, body };
  const tokens = count(head + tail);
  if (tokens > budget / 2) return { frame: NO_FRAME, body: lines };
  return { frame: { head, tail, tokens }, body };
}

/**
 * A list item's lines as units of at most `budget` tokens, a code block fenced inside the item
 * kept as one unit, or split like any code block (inside its own fences) when it is too long.
 */
function listItemUnits(lines: string[], budget: number, count: TokenCounter): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  while (i < lines.length) {
    const marker = i ? fenceOpening(lines[i]!) : undefined;
    const end = marker ? endOfFence(lines, i, marker) : i + 1;
    const group = lines.slice(i, end);
    const lead = i ? "\n" : "";
    const text = lead + group.join("\n");
    const tokens = count(text);
    if (tokens <= budget) out.push({ text, tokens });
    else if (marker) {
      for (const piece of splitBlock({ kind: "code", lines: group }, budget, count)) {
        out.push({ text: lead + piece.text, tokens: piece.tokens });
      }
    } else out.push(...fitUnits(text, budget, LINE_CUTS.slice(1), count));
    i = end;
  }
  return out;
}

const tidyLines = (text: string) => text.replace(/^\n/, "").trimEnd();

/** Cuts a block longer than `budget` tokens into pieces of at most `budget` tokens (see the module comment). */
export function splitBlock(block: Block, budget: number, count: TokenCounter): Piece[] {
  if (block.kind === "paragraph" || block.kind === "heading") {
    const units = fitUnits(block.lines.join("\n"), budget - MARGIN, SENTENCE_CUTS, count);
    return packUnits(units, budget, NO_FRAME, (text) => text.trim(), count);
  }
  if (block.kind === "list") {
    return packUnits(listItemUnits(block.lines, budget - MARGIN, count), budget, NO_FRAME, tidyLines, count);
  }
  const { frame, body } = frameOf(block, budget, count);
  const units = fitUnits(body.join("\n"), budget - frame.tokens - MARGIN, LINE_CUTS, count);
  return packUnits(units, budget, frame, tidyLines, count);
}

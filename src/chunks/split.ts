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
import type { Counts, Tally } from "./tally.ts";
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
/** The cuts inside a sentence or line too long: between words, then between characters. */
const WORD_CUTS = [wordUnits, characterUnits];
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** Tokens kept spare in a piece: a count of joined units can exceed the sum of their counts by a little. */
const MARGIN = 2;

/** `text` cut by `cut`, each unit counted. */
function countedUnits(text: string, cut: Segmenter, budget: number, count: TokenCounter): Piece[] {
  return cut(text, budget).map((unit) => ({ text: unit, tokens: count(unit) }));
}

/** `units` kept where at most `budget` tokens, the others cut by the next finer cut in `finer` until they are. */
function fitUnits(units: Piece[], budget: number, finer: Segmenter[], count: TokenCounter): Piece[] {
  const [cut, ...finest] = finer;
  const out: Piece[] = [];
  for (const unit of units) {
    if (unit.tokens <= budget || !cut) {
      out.push(unit);
      continue;
    }
    const parts = cut(unit.text, budget).map((text) => ({
      text,
      tokens: text === unit.text ? unit.tokens : count(text),
    }));
    out.push(...fitUnits(parts, budget, finest, count));
  }
  return out;
}

/** How a piece's body is cleaned: as a whole, and the same at its start and at its end. */
interface Tidy {
  whole: (text: string) => string;
  start: (text: string) => string;
  end: (text: string) => string;
}

const TRIM: Tidy = {
  whole: (text) => text.trim(),
  start: (text) => text.trimStart(),
  end: (text) => text.trimEnd(),
};
const TRIM_LINES: Tidy = {
  whole: (text) => text.replace(/^\n/, "").trimEnd(),
  start: (text) => text.replace(/^\n/, ""),
  end: (text) => text.trimEnd(),
};

/**
 * Packs consecutive units into as few framed pieces of at most `budget` tokens as it can: filled
 * by the units' own counts, then each piece's exact count taken from its units' (see tally.ts),
 * and the piece shortened if that is over.
 */
function packUnits(units: Piece[], budget: number, frame: Frame, tidy: Tidy, counts: Counts): Piece[] {
  const pieces: Piece[] = [];
  const counted = (text: string) => ({ text, tokens: counts.count(text) });
  const head = frame.head ? counts.start(counted(frame.head)) : undefined;
  const tail = frame.tail ? counted(frame.tail) : undefined;
  const join = (tally: Tally | undefined, part: Piece) =>
    tally ? counts.add(tally, "", part) : counts.start(part);
  const render = (from: number, to: number) => {
    let body = "";
    for (let k = from; k < to; k++) body += units[k]!.text;
    return frame.head + tidy.whole(body) + frame.tail;
  };
  let i = 0;
  while (i < units.length) {
    let j = i + 1;
    let estimate = frame.tokens + units[i]!.tokens;
    while (j < units.length && estimate + units[j]!.tokens <= budget) estimate += units[j++]!.tokens;
    // The first unit tidied at its start: a line without the line break before it, a sentence without the space.
    const unit = units[i]!;
    const start = tidy.start(unit.text);
    const first = start === unit.text ? unit : tidy === TRIM_LINES ? counts.unbroken(unit) : counted(start);
    // open[k] counts the head, then units i to i + k.
    const open: Tally[] = [];
    for (let k = i; k < j - 1; k++) {
      open.push(join(k === i ? head : open[k - i - 1], k === i ? first : units[k]!));
    }
    /** Tokens of the piece of units i to end - 1: from the units' counts when tidying touches only its first and last. */
    const tokensTo = (end: number) => {
      const last = end - 1 === i ? first : units[end - 1]!;
      const tidied = tidy.end(last.text);
      if (!tidied || (!start && tidy === TRIM)) return counts.count(render(i, end));
      const body = join(
        end - 1 === i ? head : open[end - i - 2],
        tidied === last.text ? last : counted(tidied),
      );
      return (tail ? counts.add(body, "", tail) : body).tokens;
    };
    let tokens = tokensTo(j);
    while (tokens > budget && j - i > 1) tokens = tokensTo(--j);
    const text = render(i, j);
    if (tidy.whole(text.slice(frame.head.length, text.length - frame.tail.length)))
      pieces.push({ text, tokens });
    i = j;
  }
  return pieces;
}

/**
 * The fence lines of a fenced code block, or the header rows of a table, if small enough to
 * repeat, and the lines between them (from `from` to before `to`).
 */
function frameOf(
  block: Block,
  budget: number,
  count: TokenCounter,
): { frame: Frame; from: number; to: number } {
  const { lines } = block;
  let head: string | undefined;
  let tail = "";
  let from = 0;
  let to = lines.length;
  const opening = fenceOpening(lines[0]!);
  if (block.kind === "code" && opening) {
    const closed = lines.length > 1 && closesFence(lines[lines.length - 1]!, opening);
    head = `${lines[0]}\n`;
    tail = `\n${closed ? lines[lines.length - 1] : opening}`;
    from = 1;
    if (closed) to--;
  } else if (block.kind === "table" && lines.length > 2 && DELIMITER_ROW.test(lines[1]!)) {
    head = `${lines[0]}\n${lines[1]}\n`;
    from = 2;
  }
  if (head === undefined) return { frame: NO_FRAME, from, to };
  const tokens = count(head + tail);
  if (tokens > budget / 2) return { frame: NO_FRAME, from: 0, to: lines.length };
  return { frame: { head, tail, tokens }, from, to };
}

/** Line units that followed a first line as those of a text of their own: the first without its line break. */
function unbroken(lines: Piece[], counts: Counts): Piece[] {
  return lines.length ? [counts.unbroken(lines[0]!), ...lines.slice(1)] : lines;
}

/**
 * A list item's line units (`lines`, one per line of `block`) as units of at most `budget`
 * tokens, a code block fenced inside the item kept as one unit, or split like any code block
 * (inside its own fences) when it is too long.
 */
function listItemUnits(block: Block, lines: Piece[], budget: number, counts: Counts): Piece[] {
  const out: Piece[] = [];
  const lineBreak = { text: "\n", tokens: counts.count("\n") };
  let i = 0;
  while (i < lines.length) {
    const marker = i ? fenceOpening(block.lines[i]!) : undefined;
    if (!marker) {
      out.push(...fitUnits([lines[i]!], budget, WORD_CUTS, counts.count));
      i++;
      continue;
    }
    const end = endOfFence(block.lines, i, marker);
    const group = lines.slice(i, end);
    const tokens = counts.joined(group);
    if (tokens <= budget) out.push({ text: group.map((line) => line.text).join(""), tokens });
    else {
      const code = { kind: "code" as const, lines: block.lines.slice(i, end) };
      for (const piece of splitBlock(code, budget, counts, unbroken(group, counts))) {
        out.push({ text: `\n${piece.text}`, tokens: counts.add(counts.start(lineBreak), "", piece).tokens });
      }
    }
    i = end;
  }
  return out;
}

/**
 * Cuts a block longer than `budget` tokens into pieces of at most `budget` tokens (see the module
 * comment). `units` are its sentences (a paragraph's or heading's) or lines, counted, when known.
 */
export function splitBlock(block: Block, budget: number, counts: Counts, units?: Piece[]): Piece[] {
  const { count } = counts;
  const text = block.lines.join("\n");
  if (block.kind === "paragraph" || block.kind === "heading") {
    const sentences = units ?? countedUnits(text, sentenceUnits, budget, count);
    return packUnits(fitUnits(sentences, budget - MARGIN, WORD_CUTS, count), budget, NO_FRAME, TRIM, counts);
  }
  const lines = units ?? countedUnits(text, lineUnits, budget, count);
  if (block.kind === "list") {
    return packUnits(
      listItemUnits(block, lines, budget - MARGIN, counts),
      budget,
      NO_FRAME,
      TRIM_LINES,
      counts,
    );
  }
  const { frame, from, to } = frameOf(block, budget, count);
  const body = from ? unbroken(lines.slice(from, to), counts) : lines.slice(from, to);
  return packUnits(
    fitUnits(body, budget - frame.tokens - MARGIN, WORD_CUTS, count),
    budget,
    frame,
    TRIM_LINES,
    counts,
  );
}

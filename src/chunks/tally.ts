/**
 * Exact token counts of joined texts from their parts' counts, so a chunk made of counted blocks
 * is not counted again. Every encoding here splits text into pieces with a regular expression
 * (reading at most one character past a piece), then counts each piece alone; a count therefore
 * adds up over the pieces, and two kinds of places in a text are where it can be cut:
 * - after an ASCII letter followed by an ASCII character that is neither a letter nor an
 *   apostrophe (which may start "'s"): a piece ends there whatever follows or precedes, so
 *   count(text) = count(before) + count(after);
 * - after a line break followed by a character that is neither white space nor "/": a piece
 *   ends there too, and the pieces before it are those of the text up to it followed by any
 *   such character (say "a"), whatever follows.
 * So two counted texts joined by a separator count the first's tokens, less those of its tail
 * (after its last cut of the first kind), plus those of that tail and the separator (followed
 * by "a", whose token is taken off), plus the second's tokens. Tails and separators repeat ("."
 * then a blank line), so their short counts are kept. A second text that starts with white space
 * or "/" is joined at its first cut instead (its head and the first's tail counted together).
 */

import type { Piece } from "./split.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** Whether a UTF-16 code is an ASCII letter. */
const isLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** Whether `text` can be cut before index `i` (after an ASCII letter, see the module comment). */
function isCut(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code < 0x80 && code !== 0x27 && !isLetter(code) && isLetter(text.charCodeAt(i - 1));
}

/** The first and last index `text` can be cut before, or undefined when it has none. */
export function cutsOf(text: string): { first: number; last: number } | undefined {
  let first = 1;
  while (first < text.length && !isCut(text, first)) first++;
  if (first >= text.length) return undefined;
  let last = text.length - 1;
  while (!isCut(text, last)) last--;
  return { first, last };
}

/** Whether a text starting with this UTF-16 code starts a piece after a line break: printable ASCII but "/". */
const startsAfterBreak = (code: number) => code > 0x20 && code < 0x7f && code !== 0x2f;

/**
 * Where a count of joined parts stands: `closed` tokens up to the last cut, then the `open` text
 * after it, whose count (`openTokens`) is taken when needed.
 */
export interface Tally {
  readonly closed: number;
  readonly open: string;
  openTokens?: number;
}

/** The count of a part's text up to its last cut, and the text after it. */
interface Ends {
  /** Text before the first cut. */
  head: string;
  /** Text after the last cut. */
  tail: string;
  tailTokens: number;
}

/** Texts up to this long have their counts kept. */
const SHORT = 24;
/** The most short counts kept; all are dropped when it is reached. */
const KEPT = 4096;

/** Joins of counted texts counted from their parts, for one encoding. */
export class JoinCounter {
  readonly #count: TokenCounter;
  readonly #short = new Map<string, number>();
  readonly #ends = new WeakMap<Piece, Ends | null>();
  /** Tokens of "a", the character that follows a line break in a join's count. */
  readonly #after: number;

  constructor(count: TokenCounter) {
    this.#count = count;
    this.#after = count("a");
  }

  /** The count of `text`, kept when the text is short. */
  #counted(text: string): number {
    if (text.length > SHORT) return this.#count(text);
    let tokens = this.#short.get(text);
    if (tokens === undefined) {
      if (this.#short.size >= KEPT) this.#short.clear();
      tokens = this.#count(text);
      this.#short.set(text, tokens);
    }
    return tokens;
  }

  #endsOf(part: Piece): Ends | null {
    let ends = this.#ends.get(part);
    if (ends !== undefined) return ends;
    const cuts = cutsOf(part.text);
    if (cuts) {
      const tail = part.text.slice(cuts.last);
      ends = { head: part.text.slice(0, cuts.first), tail, tailTokens: this.#counted(tail) };
    } else ends = null;
    this.#ends.set(part, ends);
    return ends;
  }

  /** The tally of `part` alone. */
  start(part: Piece): Tally {
    const ends = this.#endsOf(part);
    if (!ends) return { closed: 0, open: part.text, openTokens: part.tokens };
    return { closed: part.tokens - ends.tailTokens, open: ends.tail, openTokens: ends.tailTokens };
  }

  /** The tally of what `tally` counts, then `separator` (line breaks), then `part`. */
  add(tally: Tally, separator: string, part: Piece): Tally {
    const ends = this.#endsOf(part);
    if (startsAfterBreak(part.text.charCodeAt(0))) {
      const closed = tally.closed + this.#counted(`${tally.open}${separator}a`) - this.#after;
      if (!ends) return { closed, open: part.text, openTokens: part.tokens };
      return { closed: closed + part.tokens - ends.tailTokens, open: ends.tail, openTokens: ends.tailTokens };
    }
    if (!ends) return { closed: tally.closed, open: tally.open + separator + part.text };
    const join = this.#counted(tally.open + separator + ends.head) - this.#counted(ends.head);
    return {
      closed: tally.closed + join + part.tokens - ends.tailTokens,
      open: ends.tail,
      openTokens: ends.tailTokens,
    };
  }

  /** The exact token count of what `tally` counts. */
  tokens(tally: Tally): number {
    tally.openTokens ??= this.#count(tally.open);
    return tally.closed + tally.openTokens;
  }
}

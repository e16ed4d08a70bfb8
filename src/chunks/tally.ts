/**
 * Exact token counts of joined texts from their parts' counts, so a chunk made of counted blocks
 * (or a piece of a split block made of counted sentences or lines) is not counted again.
 *
 * Every encoding here cuts text into pieces with a regular expression that reads at most one
 * character past a piece, then counts each piece alone, so a count is the sum of its pieces'.
 * Two kinds of places in a text end a piece whatever comes before or after them, and there
 * count(text) = count(before) + count(after):
 * - between an ASCII letter or digit and an ASCII character that is none of those nor an
 *   apostrophe (which may start "'s"): letter and digit pieces stop there;
 * - between a printable ASCII character and a space: no piece takes a space after a non-space.
 * And after a line break followed by a printable ASCII character but "/" a piece ends too; the
 * pieces before it are then those of the text up to there followed by "a" (less the "a").
 *
 * So texts join by counting only the few characters around the join: the first text's tail
 * (after its last cut), the separator, and the second text's head (up to its first cut) unless
 * the join itself is such a place. Tails and joins repeat ("." then a blank line), so the counts
 * of short texts are kept.
 */

import type { Piece } from "./split.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** Whether a UTF-16 code is an ASCII letter or digit. */
const isAlphanumeric = (code: number) =>
  ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) || (code >= 0x30 && code <= 0x39);

/** Whether a text's count adds up across a place between these two UTF-16 codes (see the module comment). */
function isCut(before: number, after: number): boolean {
  if (after === 0x20) return before > 0x20 && before < 0x7f;
  return after < 0x80 && after !== 0x27 && !isAlphanumeric(after) && isAlphanumeric(before);
}

/** Whether a text starting with this UTF-16 code starts a piece after a line break: printable ASCII but "/". */
const startsAfterBreak = (code: number) => code > 0x20 && code < 0x7f && code !== 0x2f;

/** The first and last index `text` can be cut before, or undefined when it has none. */
export function cutsOf(text: string): { first: number; last: number } | undefined {
  let first = 1;
  while (first < text.length && !isCut(text.charCodeAt(first - 1), text.charCodeAt(first))) first++;
  if (first >= text.length) return undefined;
  let last = text.length - 1;
  while (!isCut(text.charCodeAt(last - 1), text.charCodeAt(last))) last--;
  return { first, last };
}

/** Where a count of joined parts stands. */
export interface Tally {
  /** Tokens of the text so far. */
  readonly tokens: number;
  /** The end of the text from a cut on (the whole text when it has none). */
  readonly tail: string;
  /** Tokens of `tail`, counted when first needed. */
  tailTokens?: number;
  /** The text's last UTF-16 code. */
  readonly last: number;
}

/** A part's text before its first cut and after its last, or only the whole text when it has no cut. */
interface Ends {
  head?: string;
  tail: string;
}

/** Texts up to this long have their counts kept. */
const SHORT = 24;
/** The most short counts kept; all are dropped when it is reached. */
const KEPT = 4096;

/** Joins of counted texts counted from their parts, for one encoding. */
export class JoinCounter {
  readonly #count: TokenCounter;
  readonly #short = new Map<string, number>();
  readonly #ends = new WeakMap<Piece, Ends>();
  /** Tokens of "a", put after a line break to count what precedes it. */
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

  #endsOf(part: Piece): Ends {
    let ends = this.#ends.get(part);
    if (!ends) {
      const cuts = cutsOf(part.text);
      ends = cuts
        ? { head: part.text.slice(0, cuts.first), tail: part.text.slice(cuts.last) }
        : { tail: part.text };
      this.#ends.set(part, ends);
    }
    return ends;
  }

  /** Tokens of `open` (which starts at a cut), `separator` and `part` joined. */
  #joined(open: string, separator: string, part: Piece, ends: Ends): number {
    const text = open + separator;
    if (!text) return part.tokens;
    const before = text.charCodeAt(text.length - 1);
    const after = part.text.charCodeAt(0);
    if (isCut(before, after)) return this.#counted(text) + part.tokens;
    if (before === 0x0a && startsAfterBreak(after)) return this.#counted(`${text}a`) - this.#after + part.tokens;
    if (ends.head !== undefined) return this.#counted(text + ends.head) - this.#counted(ends.head) + part.tokens;
    return this.#count(text + part.text);
  }

  /** The tally of `part` alone. */
  start(part: Piece): Tally {
    const ends = this.#endsOf(part);
    return {
      tokens: part.tokens,
      tail: ends.tail,
      tailTokens: ends.head === undefined ? part.tokens : undefined,
      last: part.text.charCodeAt(part.text.length - 1),
    };
  }

  /** The tally of what `tally` counts, then `separator`, then `part` (not empty). */
  add(tally: Tally, separator: string, part: Piece): Tally {
    const ends = this.#endsOf(part);
    const last = part.text.charCodeAt(part.text.length - 1);
    let tokens: number;
    if (isCut(tally.last, separator ? separator.charCodeAt(0) : part.text.charCodeAt(0))) {
      const rest = this.#joined("", separator, part, ends);
      tokens = tally.tokens + rest;
      if (ends.head === undefined) return { tokens, tail: separator + part.text, tailTokens: rest, last };
    } else {
      tally.tailTokens ??= this.#counted(tally.tail);
      const rest = this.#joined(tally.tail, separator, part, ends);
      tokens = tally.tokens - tally.tailTokens + rest;
      if (ends.head === undefined) {
        return { tokens, tail: tally.tail + separator + part.text, tailTokens: rest, last };
      }
    }
    return { tokens, tail: ends.tail, last };
  }
}

/**
 * Exact token counts of joined texts from their parts' counts, so a chunk built from counted
 * blocks is not counted again. It rests on where a text can be cut: every encoding here first
 * splits text with a regular expression, then counts each piece alone, and a letter run ends a
 * piece wherever the next character is not a letter (nor an apostrophe, which may start "'s").
 * So at a cut, an ASCII letter followed by an ASCII character that is neither, the pieces before
 * the cut are the same whatever follows it and those after are the same whatever precedes it:
 * count(text) = count(before) + count(after). Two counted texts joined by a separator then count
 * their own tokens, less those of the ends beside the join (the first's text after its last cut,
 * the second's before its first), plus those of the join itself (those ends around the
 * separator), which are a few characters counted once. A part without a cut (no ASCII letter
 * followed by such a character) joins the ends around it.
 */

import type { Piece } from "./split.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** Whether a UTF-16 code is an ASCII letter. */
const isLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** Whether `text` can be cut before index `i` (see the module comment). */
function isCut(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code < 0x80 && code !== 0x27 && !isLetter(code) && isLetter(text.charCodeAt(i - 1));
}

/** The first and last index `text` can be cut before, or undefined when it has no cut. */
export function cutsOf(text: string): { first: number; last: number } | undefined {
  let first = 1;
  while (first < text.length && !isCut(text, first)) first++;
  if (first >= text.length) return undefined;
  let last = text.length - 1;
  while (!isCut(text, last)) last--;
  return { first, last };
}

/** A counted text's ends: before its first cut and after its last, each with its count. */
interface Ends {
  head: string;
  headTokens: number;
  tail: string;
  tailTokens: number;
}

/**
 * Where a count of joined parts stands: `closed` tokens up to the last cut, then the `open` text
 * after it, whose count (`openTokens`) is taken when needed.
 */
export interface Tally {
  readonly closed: number;
  readonly open: string;
  openTokens?: number;
}

/** Joins of counted texts counted from their parts; one per encoding, since it keeps each part's ends. */
export class JoinCounter {
  readonly #count: TokenCounter;
  readonly #ends = new WeakMap<Piece, Ends | null>();

  constructor(count: TokenCounter) {
    this.#count = count;
  }

  #endsOf(part: Piece): Ends | null {
    let ends = this.#ends.get(part);
    if (ends !== undefined) return ends;
    const cuts = cutsOf(part.text);
    if (cuts) {
      const head = part.text.slice(0, cuts.first);
      const tail = part.text.slice(cuts.last);
      ends = { head, headTokens: this.#count(head), tail, tailTokens: this.#count(tail) };
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

  /** The tally of what `tally` counts, then `separator`, then `part`. */
  add(tally: Tally, separator: string, part: Piece): Tally {
    const ends = this.#endsOf(part);
    if (!ends) return { closed: tally.closed, open: tally.open + separator + part.text };
    const join = this.#count(tally.open + separator + ends.head);
    return {
      closed: tally.closed + join + part.tokens - ends.headTokens - ends.tailTokens,
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

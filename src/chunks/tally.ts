/**
 * Exact token counts of joined texts from their parts' counts, so a chunk made of counted blocks
 * (or a piece of a split block made of counted sentences or lines) is not counted again.
 *
 * Every encoding here cuts text into pieces with a regular expression that reads at most one
 * character past a piece, then counts each piece alone, so a count is the sum of its pieces'.
 * Some places in a text end a piece whatever comes before or after them, and there
 * count(text) = count(before) + count(after) ("cuts"):
 * - between an ASCII letter or digit and an ASCII character that is none of those nor an
 *   apostrophe (which may start "'s"): letter and digit pieces stop there;
 * - between a printable ASCII character and a space: no piece takes a space after a non-space.
 * Others end a piece whatever follows, but what precedes them counts as if followed by "a"
 * ("line starts"): after a line break, before a printable ASCII character but "/"; and, in the
 * encodings whose pieces take line breaks only with white space before them (o200k, cl100k:
 * `INDENTS_START_PIECES`), also before spaces or tabs followed by a printable ASCII character.
 * tally.test.ts checks these rules against every encoding.
 *
 * So texts join by counting only the few characters around the join, unless the join itself is a
 * cut: the first text's tail (after its last cut) and the separator, followed by "a" when the
 * second text starts a line, or else by the second text's head (up to its first cut).
 */

import type { Piece } from "./split.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** Whether a UTF-16 code is an ASCII letter or digit. */
const isAlphanumeric = (code: number) =>
  ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) || (code >= 0x30 && code <= 0x39);

/** Whether a UTF-16 code is printable ASCII. */
const isPrintable = (code: number) => code > 0x20 && code < 0x7f;

/** Whether a text's count adds up across a place between these two UTF-16 codes (see the module comment). */
function isCut(before: number, after: number): boolean {
  if (after === 0x20) return isPrintable(before);
  return after < 0x80 && after !== 0x27 && !isAlphanumeric(after) && isAlphanumeric(before);
}

/** The first index `text` can be cut before, or its length when it has none. */
export function firstCut(text: string): number {
  let i = 1;
  while (i < text.length && !isCut(text.charCodeAt(i - 1), text.charCodeAt(i))) i++;
  return Math.min(i, text.length);
}

/** The last index `text` can be cut before, or 0 when it has none. */
export function lastCut(text: string): number {
  let i = text.length - 1;
  while (i > 0 && !isCut(text.charCodeAt(i - 1), text.charCodeAt(i))) i--;
  return Math.max(i, 0);
}

/** Tails up to this long have what they add before a line start kept. */
const SHORT = 24;

/** Where a count of joined parts stands. */
export interface Tally {
  /** Tokens of the text so far. */
  readonly tokens: number;
  /** The end of the text, from a cut on or the whole text: `before`, then the last part's `text`. */
  readonly before: string;
  readonly text: string;
  /** Tokens of that end, when known. */
  readonly endTokens?: number;
}

/**
 * Token counts of joined texts from their parts', for one page: what the separators and the
 * ends around them add is kept.
 */
export class Counts {
  /** Counts a text. */
  readonly count: TokenCounter;
  /** Whether spaces or tabs after a line break start a line (see the module comment). */
  readonly #indentsStartLines: boolean;
  /** Tokens of "a", put after a line break to count what precedes it. */
  readonly #a: number;
  /** Tokens a line break adds before a line start, at the start of a text. */
  readonly #lineBreak: number;
  /** By separator, then by tail: the tokens the separator adds after the tail, before a line start. */
  readonly #gains = new Map<string, Map<string, number>>();

  /** `indentsStartLines`: the encoding is one of those named in the module comment (o200k, cl100k). */
  constructor(count: TokenCounter, indentsStartLines: boolean) {
    this.count = count;
    this.#indentsStartLines = indentsStartLines;
    this.#a = count("a");
    this.#lineBreak = count("\na") - this.#a;
  }

  /** The token count of `parts` put together, from their counts. */
  joined(parts: readonly Piece[]): number {
    let tally: Tally | undefined;
    for (const part of parts) tally = tally ? this.add(tally, "", part) : this.start(part);
    return tally?.tokens ?? 0;
  }

  /** `part` (which starts with a line break) without it, counted from the part's count when what follows starts a line. */
  unbroken(part: Piece): Piece {
    const text = part.text.slice(1);
    return {
      text,
      tokens: this.#startsLine(part.text, 1) ? part.tokens - this.#lineBreak : this.count(text),
    };
  }

  /** Whether `text` starts a line at `from`, just after a line break. */
  #startsLine(text: string, from: number): boolean {
    let at = from;
    if (this.#indentsStartLines) {
      while (at < text.length && (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09)) at++;
    }
    const code = text.charCodeAt(at);
    return isPrintable(code) && (at > from || code !== 0x2f);
  }

  /**
   * The tokens `separator` adds after `tail` (which starts at a cut) before a line start: less
   * the tail's own, `tailTokens` when known.
   */
  #gain(tail: string, separator: string, tailTokens?: number): number {
    if (tail.length > SHORT)
      return this.count(`${tail}${separator}a`) - this.#a - (tailTokens ?? this.count(tail));
    let byTail = this.#gains.get(separator);
    if (!byTail) {
      byTail = new Map();
      this.#gains.set(separator, byTail);
    }
    let gain = byTail.get(tail);
    if (gain === undefined) {
      gain = this.count(`${tail}${separator}a`) - this.#a - (tailTokens ?? this.count(tail));
      byTail.set(tail, gain);
    }
    return gain;
  }

  /**
   * When `separator` then `part` put a line start after a line break: that break (the separator,
   * or the line break `part` starts with) and the tokens after it.
   */
  #lineStart(separator: string, part: Piece): { separator: string; tokens: number } | undefined {
    if (separator) {
      if (separator.charCodeAt(separator.length - 1) === 0x0a && this.#startsLine(part.text, 0)) {
        return { separator, tokens: part.tokens };
      }
    } else if (part.text.charCodeAt(0) === 0x0a && this.#startsLine(part.text, 1)) {
      return { separator: "\n", tokens: part.tokens - this.#lineBreak };
    }
    return undefined;
  }

  /** Tokens of `tail` (which starts at a cut, `tailTokens` of them when known), `separator` and `part` joined. */
  #joined(tail: string, separator: string, part: Piece, tailTokens?: number): number {
    const line = this.#lineStart(separator, part);
    if (line)
      return (tailTokens ?? this.count(tail)) + this.#gain(tail, line.separator, tailTokens) + line.tokens;
    const text = tail + separator;
    if (!text) return part.tokens;
    if (isCut(text.charCodeAt(text.length - 1), part.text.charCodeAt(0)))
      return this.count(text) + part.tokens;
    const cut = firstCut(part.text);
    if (cut === part.text.length) return this.count(text + part.text);
    const head = part.text.slice(0, cut);
    return this.count(text + head) - this.count(head) + part.tokens;
  }

  /** The tally of `part` alone. */
  start(part: Piece): Tally {
    return { tokens: part.tokens, before: "", text: part.text, endTokens: part.tokens };
  }

  /** The tally of what `tally` counts, then `separator`, then `part`. */
  add(tally: Tally, separator: string, part: Piece): Tally {
    if (!part.text && !separator) return tally;
    const end = tally.text || tally.before;
    if (isCut(end.charCodeAt(end.length - 1), (separator || part.text).charCodeAt(0))) {
      const rest = this.#joined("", separator, part, 0);
      return { tokens: tally.tokens + rest, before: separator, text: part.text, endTokens: rest };
    }
    const cut = lastCut(tally.text);
    const tail = cut ? tally.text.slice(cut) : tally.before + tally.text;
    const tailTokens = cut ? undefined : tally.endTokens;
    const line = this.#lineStart(separator, part);
    if (line) {
      const tokens = tally.tokens + this.#gain(tail, line.separator, tailTokens) + line.tokens;
      return { tokens, before: tail + separator, text: part.text };
    }
    const known = tailTokens ?? this.count(tail);
    const rest = this.#joined(tail, separator, part, known);
    return {
      tokens: tally.tokens - known + rest,
      before: tail + separator,
      text: part.text,
      endTokens: rest,
    };
  }
}

/**
 * Citation markers in a model's answer. The model is told to cite with [n]; what it writes is
 * checked against the n sources it was given: [2] stays, [9] of 5 sources goes, "[1, 3]" and
 * "[2-3]" become "[1][3]" and "[2][3]" (the form SPEC shows), keeping only the numbers in range.
 * A removed marker takes the space before it along, so "mills [9]." reads "mills.".
 */

/** A marker: [1], [1, 2], [1][2] is two, [2-4] (hyphen or en dash). */
const MARKER = / ?\[(\d{1,3}(?:\s*(?:,|-|–)\s*\d{1,3})*)\]/g;
/** The longest marker body worth waiting for in a stream ("[10, 11, 12-14]"). */
const MAX_PENDING = 24;

/** The numbers a marker's inside names, in order, without repeats. */
function numbersOf(inside: string): number[] {
  const out: number[] = [];
  for (const part of inside.split(",")) {
    const [from, to] = part.split(/-|–/).map((s) => Number(s.trim()));
    if (from === undefined || Number.isNaN(from)) continue;
    const last = to === undefined || Number.isNaN(to) || to < from || to - from > 20 ? from : to;
    for (let n = from; n <= last; n++) if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** Rewrites every marker of `text` to in-range [n] markers, dropping the rest. */
export function cleanMarkers(text: string, sources: number): string {
  return text.replace(MARKER, (whole, inside: string) => {
    const kept = numbersOf(inside).filter((n) => n >= 1 && n <= sources);
    if (kept.length === 0) return "";
    return `${whole.startsWith(" ") ? " " : ""}${kept.map((n) => `[${n}]`).join("")}`;
  });
}

/** The numbers of in-range markers a text uses, in first-use order. */
export function citedNumbers(text: string, sources: number): number[] {
  const out: number[] = [];
  for (const match of cleanMarkers(text, sources).matchAll(/\[(\d+)\]/g)) {
    const n = Number(match[1]);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/**
 * The same cleaning over a stream: `push` returns the text that is safe to send now, holding
 * back a tail that may be the start of a marker ("[", "[1", " [1,") until the rest arrives;
 * `end` returns what is left. The concatenated output equals `cleanMarkers` of the whole text.
 */
export class MarkerFilter {
  #pending = "";

  constructor(private readonly sources: number) {}

  push(piece: string): string {
    const text = this.#pending + piece;
    const open = this.#openTail(text);
    this.#pending = text.slice(open);
    return cleanMarkers(text.slice(0, open), this.sources);
  }

  end(): string {
    const rest = this.#pending;
    this.#pending = "";
    return cleanMarkers(rest, this.sources);
  }

  /** Where an unfinished marker starts at the end of `text` (text.length when none). */
  #openTail(text: string): number {
    const bracket = text.lastIndexOf("[");
    if (bracket === -1 || text.length - bracket > MAX_PENDING) {
      // A trailing space may be the one a marker in the next piece takes along.
      return text.endsWith(" ") ? text.length - 1 : text.length;
    }
    const tail = text.slice(bracket);
    if (!/^\[[\d\s,\-–]*$/.test(tail)) return text.endsWith(" ") ? text.length - 1 : text.length;
    return text[bracket - 1] === " " ? bracket - 1 : bracket;
  }
}

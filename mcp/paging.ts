/**
 * Pagination of long answers. A model's context is finite, so nothing is cut
 * silently: every answer says which part it holds and where the next one
 * starts, and the same call with that startIndex returns it.
 *
 * - Text (siphon_fetch): `startIndex` and `maxLength` are characters of the
 *   content; the window ends on a line break or a space when one is near.
 * - Lists (crawl and batch pages, map links): `startIndex` is the index of the
 *   first item; `maxLength` is the characters the items' text may use, and at
 *   least one item is always returned (cut to maxLength when it alone is longer).
 */
import { Type as T } from "@sinclair/typebox";

export const DEFAULT_MAX_LENGTH = 20_000;
export const MAX_MAX_LENGTH = 1_000_000;
export const MIN_MAX_LENGTH = 100;

/** The paging arguments of a tool whose answer is one text. */
export const textPaging = () => ({
  startIndex: T.Integer({
    minimum: 0,
    default: 0,
    description:
      "Character offset to start from. A long page comes in parts: each answer gives nextStartIndex; call again with it (and the same other arguments) for the next part",
  }),
  maxLength: T.Integer({
    minimum: MIN_MAX_LENGTH,
    maximum: MAX_MAX_LENGTH,
    default: DEFAULT_MAX_LENGTH,
    description: `Most characters of content returned in one answer (default ${DEFAULT_MAX_LENGTH})`,
  }),
});

/** The paging arguments of a tool whose answer is a list of `what`. */
export const itemPaging = (what: string, defaultLength = DEFAULT_MAX_LENGTH) => ({
  startIndex: T.Integer({
    minimum: 0,
    default: 0,
    description: `Index of the first ${what} to return. Each answer gives nextStartIndex while more remain; call again with it for the rest`,
  }),
  maxLength: T.Integer({
    minimum: MIN_MAX_LENGTH,
    maximum: MAX_MAX_LENGTH,
    default: defaultLength,
    description: `Most characters the ${what} may use in one answer (default ${defaultLength}); at least one is always returned`,
  }),
});

/** Where a text answer's window lies. */
export const TextPage = T.Object(
  {
    startIndex: T.Integer({ description: "First character returned" }),
    endIndex: T.Integer({ description: "One past the last character returned" }),
    totalLength: T.Integer({ description: "Characters in the whole text" }),
    nextStartIndex: T.Union([T.Integer(), T.Null()], {
      description: "startIndex of the next part; null when this is the last",
    }),
  },
  { description: "Which part of the text this answer holds" },
);
export interface TextPage {
  startIndex: number;
  endIndex: number;
  totalLength: number;
  nextStartIndex: number | null;
}

/** Where a list answer's window lies. */
export const ItemPage = T.Object(
  {
    startIndex: T.Integer({ description: "Index of the first item returned" }),
    endIndex: T.Integer({ description: "One past the index of the last item returned" }),
    total: T.Integer({ description: "Items available so far" }),
    nextStartIndex: T.Union([T.Integer(), T.Null()], {
      description: "startIndex of the next part; null when every item available has been returned",
    }),
  },
  { description: "Which items this answer holds" },
);
export interface ItemPage {
  startIndex: number;
  endIndex: number;
  total: number;
  nextStartIndex: number | null;
}

/** A window end moved back to a line break (or else a space) in its last fifth, so words stay whole. */
function softEnd(text: string, start: number, end: number): number {
  if (end >= text.length) return text.length;
  const floor = start + Math.floor((end - start) * 0.8);
  const newline = text.lastIndexOf("\n", end - 1);
  if (newline >= floor) return newline + 1;
  const space = text.lastIndexOf(" ", end - 1);
  if (space >= floor) return space + 1;
  return end;
}

/**
 * The window [startIndex, startIndex + maxLength) of the longest of `texts`, applied to each;
 * consecutive windows concatenate back to the whole texts.
 */
export function textWindow(
  texts: string[],
  startIndex: number,
  maxLength: number,
): { parts: string[]; page: TextPage } {
  const longest = texts.reduce((a, b) => (b.length > a.length ? b : a), "");
  const totalLength = longest.length;
  const start = Math.min(startIndex, totalLength);
  const end = softEnd(longest, start, Math.min(totalLength, start + maxLength));
  return {
    parts: texts.map((text) => text.slice(start, end)),
    page: { startIndex: start, endIndex: end, totalLength, nextStartIndex: end < totalLength ? end : null },
  };
}

/**
 * The first of `items` (the list from `startIndex` on) whose `size` fits in `maxLength` together
 * (at least one), and the window they make. `total` is how many items exist so far (a running job grows).
 */
export function itemWindow<T>(
  items: T[],
  startIndex: number,
  maxLength: number,
  size: (item: T) => number,
  total = startIndex + items.length,
): { items: T[]; page: ItemPage } {
  const taken: T[] = [];
  let used = 0;
  for (const item of items) {
    const length = size(item);
    if (taken.length && used + length > maxLength) break;
    taken.push(item);
    used += length;
  }
  const endIndex = startIndex + taken.length;
  return {
    items: taken,
    page: {
      startIndex,
      endIndex,
      total,
      nextStartIndex: endIndex < total ? endIndex : null,
    },
  };
}

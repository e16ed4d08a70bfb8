/** Where a piece of structured data came from, most reliable first in `SIGNAL_ORDER`. */
export type Signal =
  | "json-ld"
  | "microdata"
  | "rdfa"
  | "opengraph"
  | "twitter"
  | "meta"
  | "table"
  | "definition-list"
  | "pattern";

/**
 * One thing found on a page: a schema.org type (Product, Article, ...) with its properties as
 * schema.org names them, or one of siphon's own: "Page" (meta tags, OpenGraph, Twitter cards),
 * "Table", "PropertyTable", "DefinitionList", "Lists", "Labels", "Price", "Date", "Email", "Phone".
 */
export interface Found {
  type: string;
  data: Record<string, unknown>;
  signal: Signal;
}

/** Signals from the most reliable to the least: authored structured data before guesses from layout or text. */
export const SIGNAL_ORDER: readonly Signal[] = [
  "json-ld",
  "microdata",
  "rdfa",
  "opengraph",
  "twitter",
  "meta",
  "table",
  "definition-list",
  "pattern",
];

export type Data = Record<string, unknown>;

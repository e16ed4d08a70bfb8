import { type ParentNode, parseDocument } from "./dom.ts";
import { findJsonLd } from "./jsonld.ts";
import { findContactLinks } from "./links.ts";
import { findMeta } from "./meta.ts";
import { findMicrodata } from "./microdata.ts";
import { findPatterns } from "./patterns.ts";
import { findRdfa } from "./rdfa.ts";
import { findDefinitionLists, findTables } from "./tables.ts";
import type { Found, Signal } from "./types.ts";

/**
 * The no-LLM path of structured extraction: everything a page says about itself in structured
 * form (JSON-LD, microdata, RDFa Lite, OpenGraph, Twitter cards, meta tags), its data tables and
 * key/value markup, and patterns in its text; and a JSON Schema filled from them.
 */

export { fillSchema } from "./map.ts";
export { findPatterns } from "./patterns.ts";
export { allowNulls } from "./schema.ts";
export type { Found, Signal } from "./types.ts";
export { SIGNAL_ORDER } from "./types.ts";

/** The finders, in the order their Founds are listed (most reliable signal first). */
const FINDERS = [findJsonLd, findMicrodata, findRdfa, findMeta, findTables, findDefinitionLists] as const;

/**
 * Everything structured on a page (html as served or rendered; url for resolving relative URLs),
 * most reliable signal first. With `text` (the page's main content as text or markdown) the
 * prices, dates, emails, phone numbers and "Label: value" lines in it are added as pattern
 * Founds. Never throws on malformed markup or JSON.
 */
export function findStructured(html: string, url: string, text?: string): Found[] {
  return findStructuredIn(parseDocument(html), url, text);
}

/**
 * `findStructured` over a document already parsed (the root of `loadHtml(html)`), to save a
 * second parse; read it before any step removes scripts or chrome from it.
 */
export function findStructuredIn(root: ParentNode, url: string, text?: string): Found[] {
  const found: Found[] = [];
  for (const finder of FINDERS) found.push(...finder(root, url));
  found.push(...findContactLinks(root));
  if (text) found.push(...findPatterns(text));
  return found;
}

/** /v1/extract/auto without a schema: everything found, grouped by type: { Product: [...], Article: [...], Table: [...], ... } */
export function groupByType(found: Found[]): Record<string, Record<string, unknown>[]> {
  const groups: Record<string, Record<string, unknown>[]> = {};
  for (const f of found) {
    const group = groups[f.type];
    if (group) group.push(f.data);
    else groups[f.type] = [f.data];
  }
  return groups;
}

/** Which signal produced each entry of `groupByType`'s result, by path: { "Product[0]": "json-ld", ... }. */
export function groupSources(found: Found[]): Record<string, Signal> {
  const counts: Record<string, number> = {};
  const sources: Record<string, Signal> = {};
  for (const f of found) {
    const i = counts[f.type] ?? 0;
    counts[f.type] = i + 1;
    sources[`${f.type}[${i}]`] = f.signal;
  }
  return sources;
}

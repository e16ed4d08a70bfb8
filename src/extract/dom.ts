import { type CheerioAPI, load } from "cheerio/slim";
import { parseBounded } from "./depth.ts";
import { type PageMarks, parseMarked } from "./marks.ts";

/**
 * cheerio's switch to htmlparser2 (and to dom-serializer for `.html()`), in HTML mode. The html
 * format is written in UTF-8 as a browser's innerHTML is, only `&`, `<`, `>` and no-break spaces
 * (and quotes in attributes) escaped: dom-serializer's default wrote every character outside ASCII
 * as a reference (`&#x4eca;&#x65e5;` for 今日, `caf&#xe9;`), six times the bytes of a Japanese page.
 */
const HTMLPARSER2 = { xml: { xmlMode: false, decodeEntities: true, encodeEntities: "utf8" as const } };

/**
 * Parses HTML with htmlparser2 (several times faster than parse5, and
 * forgiving of the broken markup found on real pages) into a tree no deeper
 * than a browser's (see depth.ts). Every extraction step works on the tree
 * this returns.
 */
export function loadHtml(html: string): CheerioAPI {
  return load(parseBounded(html, { decodeEntities: true }), HTMLPARSER2, true);
}

/** loadHtml's tree with what the parser noted of the page on the way (see marks.ts). */
export function loadMarkedHtml(html: string): { $: CheerioAPI; marks: PageMarks } {
  const { document, marks } = parseMarked(html);
  return { $: load(document, HTMLPARSER2, true), marks };
}

export type { CheerioAPI };

import { type CheerioAPI, load } from "cheerio";

/**
 * Parses HTML with htmlparser2 (several times faster than parse5, and
 * forgiving of the broken markup found on real pages). Every extraction step
 * works on the tree this returns.
 */
export function loadHtml(html: string): CheerioAPI {
  return load(html, { xml: { xmlMode: false, decodeEntities: true } }, true);
}

export type { CheerioAPI };

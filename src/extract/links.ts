import type { CheerioAPI } from "cheerio";
import { resolveHref } from "./resolve.ts";
import { scanPage } from "./scan.ts";

/**
 * Every link of the page as an absolute http(s) URL without its fragment,
 * deduplicated in document order. Reads the original document, so links in
 * navigation and footers are listed too (crawlers need them).
 */
export function extractLinks($: CheerioAPI, baseUrl: string): string[] {
  const seen = new Set<string>();
  for (const raw of scanPage($).hrefs) {
    const href = raw.trim();
    if (!href || href.startsWith("#")) continue;
    const url = resolveHref(href, baseUrl);
    if (url === null || !(url.startsWith("https:") || url.startsWith("http:"))) continue;
    // A resolved URL's first "#" starts its fragment.
    const hash = url.indexOf("#");
    seen.add(hash < 0 ? url : url.slice(0, hash));
  }
  return [...seen];
}

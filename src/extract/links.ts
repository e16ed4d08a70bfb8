import type { CheerioAPI } from "cheerio";
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
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    url.hash = "";
    seen.add(url.href);
  }
  return [...seen];
}

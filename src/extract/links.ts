import type { CheerioAPI } from "cheerio";

/**
 * Every link of the page as an absolute http(s) URL without its fragment,
 * deduplicated in document order. Reads the original document, so links in
 * navigation and footers are listed too (crawlers need them).
 */
export function extractLinks($: CheerioAPI, baseUrl: string): string[] {
  const seen = new Set<string>();
  $("a[href], area[href]").each((_, el) => {
    const href = el.attribs.href?.trim();
    if (!href || href.startsWith("#")) return;
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return;
    url.hash = "";
    seen.add(url.href);
  });
  return [...seen];
}

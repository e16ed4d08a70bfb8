import { loadHtml } from "./dom.ts";
import { resolveHref } from "./resolve.ts";

/** A link of the page with the words it shows. */
export interface NamedLink {
  text: string;
  url: string;
}

/**
 * Every link of a page with its text (whitespace collapsed; an image link's alt text, else ""),
 * as absolute http(s) URLs without fragments, each URL once (its first text), in page order:
 * a page's links as a reader lists them (Jina Reader's links summary).
 */
export function namedLinks(html: string, baseUrl: string): NamedLink[] {
  const $ = loadHtml(html);
  const seen = new Map<string, string>();
  for (const element of $("a[href]").toArray()) {
    const href = ($(element).attr("href") ?? "").trim();
    if (!href || href.startsWith("#")) continue;
    const resolved = resolveHref(href, baseUrl);
    if (resolved === null || !/^https?:/.test(resolved)) continue;
    const hash = resolved.indexOf("#");
    const url = hash < 0 ? resolved : resolved.slice(0, hash);
    if (seen.has(url)) continue;
    const node = $(element);
    const text =
      node.text().replace(/\s+/g, " ").trim() || (node.find("img[alt]").first().attr("alt") ?? "").trim();
    seen.set(url, text);
  }
  return [...seen].map(([url, text]) => ({ text, url }));
}

import { loadHtml } from "../extract/dom.ts";

/** Firecrawl's metadata names for well-known meta tags (matched case-insensitively). */
const NAMED: [key: string, tag: string][] = [
  ["description", "description"],
  ["keywords", "keywords"],
  ["robots", "robots"],
  ["ogTitle", "og:title"],
  ["ogDescription", "og:description"],
  ["ogUrl", "og:url"],
  ["ogImage", "og:image"],
  ["ogAudio", "og:audio"],
  ["ogDeterminer", "og:determiner"],
  ["ogLocale", "og:locale"],
  ["ogSiteName", "og:site_name"],
  ["ogVideo", "og:video"],
  ["dcTermsCreated", "dcterms.created"],
  ["dcDateCreated", "dc.date.created"],
  ["dcDate", "dc.date"],
  ["dcTermsType", "dcterms.type"],
  ["dcType", "dc.type"],
  ["dcTermsAudience", "dcterms.audience"],
  ["dcTermsSubject", "dcterms.subject"],
  ["dcSubject", "dc.subject"],
  ["dcDescription", "dc.description"],
  ["dcTermsKeywords", "dcterms.keywords"],
  ["modifiedTime", "article:modified_time"],
  ["publishedTime", "article:published_time"],
  ["articleTag", "article:tag"],
  ["articleSection", "article:section"],
];

/** A page's meta tags as Firecrawl reports them. */
export interface PageMetaTags {
  /** Every <meta> with content, under its own name (name, property, itemprop or http-equiv); repeated ones as arrays. */
  tags: Record<string, string | string[]>;
  /** Firecrawl's names for the well-known ones (ogTitle, dcTermsCreated, publishedTime, …); og:locale:alternate as an array. */
  named: Record<string, string | string[]>;
  /** <html lang>. */
  language?: string;
  /** The first icon link, absolute. */
  favicon?: string;
}

/**
 * Reads the meta tags of an HTML page: each under its own name, and the well-known ones under
 * Firecrawl's metadata names too, plus the page's language and favicon. A page without
 * meta tags gives empty records.
 */
export function pageMetaTags(html: string, url: string): PageMetaTags {
  const $ = loadHtml(html);
  const tags: Record<string, string | string[]> = Object.create(null);
  const lower = new Map<string, string[]>();
  $("meta").each((_, el) => {
    const meta = $(el);
    const name = (
      meta.attr("name") ??
      meta.attr("property") ??
      meta.attr("itemprop") ??
      meta.attr("http-equiv")
    )?.trim();
    const content = meta.attr("content")?.trim();
    if (!name || content === undefined || content === "") return;
    const seen = tags[name];
    tags[name] = seen === undefined ? content : Array.isArray(seen) ? [...seen, content] : [seen, content];
    const key = name.toLowerCase();
    lower.set(key, [...(lower.get(key) ?? []), content]);
  });
  const named: Record<string, string | string[]> = {};
  for (const [key, tag] of NAMED) {
    const values = lower.get(tag);
    if (values?.[0]) named[key] = values[0];
  }
  const alternates = lower.get("og:locale:alternate");
  if (alternates?.length) named.ogLocaleAlternate = alternates;
  const result: PageMetaTags = { tags: { ...tags }, named };
  const language = $("html").attr("lang")?.trim();
  if (language) result.language = language;
  const icon = $('link[rel~="icon"], link[rel="shortcut icon"], link[rel~="apple-touch-icon"]')
    .first()
    .attr("href");
  if (icon) {
    try {
      result.favicon = new URL(icon.trim(), url).href;
    } catch {
      // An unreadable href is no favicon.
    }
  }
  return result;
}

import type { CheerioAPI } from "cheerio";
import { allText, type JsonLdNode, jsonLdNodes, scanPage } from "./scan.ts";
import type { PageMetadata } from "./types.ts";

function nameOf(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (Array.isArray(value)) {
    const names = value.map(nameOf).filter((n): n is string => !!n);
    return names.length ? names.join(", ") : null;
  }
  if (value && typeof value === "object") return nameOf((value as JsonLdNode).name);
  return null;
}

function imageOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return imageOf(value[0]);
  if (value && typeof value === "object") return imageOf((value as JsonLdNode).url);
  return null;
}

function absolute(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}

/** The document's base URL: `<base href>` resolved against the page URL. */
export function baseUrlOf($: CheerioAPI, pageUrl: string): string {
  return absolute(scanPage($).baseHref, pageUrl) ?? pageUrl;
}

/**
 * Title and SPEC metadata (description, author, published, image, canonical)
 * from meta tags, OpenGraph, Twitter cards, JSON-LD and `<time>`; each key is
 * null when the page does not say. Reads the original document, before cleaning.
 */
export function extractMetadata($: CheerioAPI, baseUrl: string): { title: string; metadata: PageMetadata } {
  const scan = scanPage($);
  // One pass over <meta> into a map: per-key selectors over the whole document cost a quarter of extraction time.
  const metas = new Map<string, string>();
  for (const el of scan.metas) {
    const content = clean(el.attribs.content);
    if (!content) continue;
    for (const attr of ["property", "name", "itemprop"]) {
      const key = el.attribs[attr]?.trim().toLowerCase();
      if (key && !metas.has(key)) metas.set(key, content);
    }
  }
  const meta = (...keys: string[]): string | null => {
    for (const key of keys) {
      const value = metas.get(key.toLowerCase());
      if (value) return value;
    }
    return null;
  };
  const ld = jsonLdNodes(scan);
  const ldValue = <T>(pick: (node: JsonLdNode) => T | null): T | null => {
    for (const node of ld) {
      const value = pick(node);
      if (value) return value;
    }
    return null;
  };

  const title =
    clean(allText(scan.headTitle)) ??
    clean(allText(scan.title)) ??
    meta("og:title", "twitter:title") ??
    ldValue((n) => clean(typeof n.headline === "string" ? n.headline : null)) ??
    clean(allText(scan.h1)) ??
    "";

  const description =
    meta("description", "og:description", "twitter:description") ??
    ldValue((n) => clean(typeof n.description === "string" ? n.description : null));

  const author =
    meta("author", "article:author", "parsely-author", "dc.creator", "twitter:creator") ??
    ldValue((n) => nameOf(n.author)) ??
    clean(allText(scan.relAuthor)) ??
    clean(allText(scan.itempropAuthor));

  const published =
    meta("article:published_time", "datePublished", "date", "dc.date", "pubdate", "publish-date") ??
    ldValue((n) => clean(typeof n.datePublished === "string" ? n.datePublished : null)) ??
    clean(scan.time?.attribs.datetime);

  const image = absolute(
    meta("og:image", "og:image:url", "twitter:image", "twitter:image:src") ??
      ldValue((n) => imageOf(n.image)),
    baseUrl,
  );

  const canonical = absolute(scan.canonical?.attribs.href, baseUrl) ?? absolute(meta("og:url"), baseUrl);

  return { title, metadata: { description, author, published, image, canonical } };
}

import { absoluteUrl, addValue, clean, type Element, type ParentNode, textOf, walkElements } from "./dom.ts";
import type { Data, Found } from "./types.ts";

/** og:type -> the schema.org type its Found gets; anything else is a "Page". */
const OG_TYPES: Record<string, string> = {
  article: "Article",
  "og:article": "Article",
  product: "Product",
  "og:product": "Product",
  "product.item": "Product",
  "product.group": "Product",
  book: "Book",
  profile: "Person",
  "video.movie": "Movie",
  "video.episode": "TVEpisode",
  "video.other": "VideoObject",
  "music.song": "MusicRecording",
  "music.album": "MusicAlbum",
  event: "Event",
  restaurant: "Restaurant",
};

/** OpenGraph (og:, article:, book:, profile:) properties under their schema.org names. */
const OG_KEYS: Record<string, string> = {
  "og:title": "name",
  "og:description": "description",
  "og:image": "image",
  "og:image:url": "image",
  "og:image:secure_url": "image",
  "og:url": "url",
  "og:site_name": "siteName",
  "og:locale": "inLanguage",
  "og:video": "video",
  "og:audio": "audio",
  "og:updated_time": "dateModified",
  "article:published_time": "datePublished",
  "article:modified_time": "dateModified",
  "article:expiration_time": "expires",
  "article:author": "author",
  "article:section": "articleSection",
  "article:tag": "keywords",
  "book:author": "author",
  "book:isbn": "isbn",
  "book:release_date": "datePublished",
  "profile:first_name": "givenName",
  "profile:last_name": "familyName",
  "profile:username": "alternateName",
};

/** Price meta tags (OpenGraph product:, Facebook og:price:) into an Offer. */
const OFFER_KEYS: Record<string, string> = {
  "product:price:amount": "price",
  "product:price:currency": "priceCurrency",
  "og:price:amount": "price",
  "og:price:currency": "priceCurrency",
  "product:sale_price:amount": "price",
  "product:sale_price:currency": "priceCurrency",
  "product:availability": "availability",
  "og:availability": "availability",
  "product:condition": "itemCondition",
};

const PRODUCT_KEYS: Record<string, string> = {
  "product:brand": "brand",
  "product:retailer_item_id": "sku",
  "product:category": "category",
  "product:gtin": "gtin",
  "product:upc": "gtin12",
  "product:ean": "gtin13",
  "product:mfr_part_no": "mpn",
};

const TWITTER_KEYS: Record<string, string> = {
  "twitter:title": "name",
  "twitter:description": "description",
  "twitter:image": "image",
  "twitter:image:src": "image",
  "twitter:url": "url",
  "twitter:card": "card",
  "twitter:site": "site",
  "twitter:creator": "author",
};

/** Plain meta names (and Dublin Core) under schema.org names. */
const META_KEYS: Record<string, string> = {
  description: "description",
  author: "author",
  keywords: "keywords",
  date: "datePublished",
  pubdate: "datePublished",
  "publish-date": "datePublished",
  "dc.date": "datePublished",
  "dc.date.issued": "datePublished",
  "dcterms.created": "datePublished",
  "dc.creator": "author",
  "dc.title": "name",
  "dc.description": "description",
  "dc.publisher": "publisher",
  "parsely-author": "author",
  "sailthru.author": "author",
  citation_author: "author",
  citation_title: "name",
  citation_publication_date: "datePublished",
  "last-modified": "dateModified",
};

const URL_VALUED = new Set(["image", "url", "video", "audio"]);

/**
 * The page's own description of itself: one Found per source that says anything, OpenGraph
 * (typed by og:type: Article, Product, ... else "Page"), Twitter cards ("Page") and plain meta
 * tags with `<title>`, the first `<h1>`, `<time datetime>`, rel=author and `<link rel=canonical>`
 * ("Page"). Product price tags make an `offers` object, as schema.org has it.
 */
export function findMeta(root: ParentNode, base: string): Found[] {
  const og: Data = {};
  const offer: Data = {};
  const twitter: Data = {};
  const meta: Data = {};
  const labels: Record<string, string> = {};
  let ogType = "";
  let title: string | null = null;
  let h1: string | null = null;
  let time: string | null = null;
  let relAuthor: string | null = null;
  let canonical: string | null = null;
  let lang: string | null = null;

  walkElements(root, (el) => {
    const a = el.attribs;
    switch (el.name) {
      case "html":
        lang = clean(a.lang);
        break;
      case "meta":
        readMeta(el, base);
        break;
      case "title":
        title ??= clean(textOf(el));
        break;
      case "h1":
        h1 ??= clean(textOf(el));
        break;
      case "time":
        if (a.itemprop === undefined && a.property === undefined) time ??= clean(a.datetime);
        break;
      case "link":
        if (/\bcanonical\b/i.test(a.rel ?? "")) canonical ??= absoluteUrl(a.href, base);
        if (/\bauthor\b/i.test(a.rel ?? "") && a.title) relAuthor ??= clean(a.title);
        break;
      case "a":
        if (/\bauthor\b/i.test(a.rel ?? "")) relAuthor ??= clean(textOf(el));
        break;
      case "script":
      case "style":
      case "template":
        return false;
    }
    return undefined;
  });

  function readMeta(el: Element, pageBase: string): void {
    const a = el.attribs;
    const content = clean(a.content);
    const key = (a.property ?? a.name ?? "").trim().toLowerCase();
    if (!content || !key || a.itemprop !== undefined) return;
    const value = (name: string) =>
      URL_VALUED.has(name) ? (absoluteUrl(content, pageBase) ?? content) : content;
    if (key === "og:type") ogType = content.toLowerCase();
    else if (OG_KEYS[key]) addValue(og, OG_KEYS[key], value(OG_KEYS[key]));
    else if (OFFER_KEYS[key]) offer[OFFER_KEYS[key]] ??= content;
    else if (PRODUCT_KEYS[key]) og[PRODUCT_KEYS[key]] ??= content;
    else if (TWITTER_KEYS[key]) twitter[TWITTER_KEYS[key]] ??= value(TWITTER_KEYS[key]);
    else if (/^twitter:(label|data)\d$/.test(key)) labels[key] = content;
    else if (META_KEYS[key]) meta[META_KEYS[key]] ??= content;
  }

  const found: Found[] = [];
  const type = OG_TYPES[ogType] ?? (Object.keys(offer).length ? "Product" : "Page");
  if (Object.keys(offer).length) og.offers = { "@type": "Offer", ...offer };
  if (type === "Article" && typeof og.name === "string") og.headline = og.name;
  if (Object.keys(og).length) found.push({ type, data: { "@type": type, ...og }, signal: "opengraph" });

  // Product cards: twitter:label1 "Price" with twitter:data1 "$19.99" become { Price: "$19.99" }.
  for (const [key, label] of Object.entries(labels)) {
    const data = labels[key.replace("label", "data")];
    if (key.includes("label") && data) twitter[label] ??= data;
  }
  if (Object.keys(twitter).length)
    found.push({ type: "Page", data: { "@type": "Page", ...twitter }, signal: "twitter" });

  if (relAuthor) meta.author ??= relAuthor;
  if (time) meta.datePublished ??= time;
  if (canonical) meta.url = canonical;
  if (lang) meta.inLanguage = lang;
  const name = h1 ?? pageTitle(title, typeof og.siteName === "string" ? og.siteName : null);
  if (name) meta.name = name;
  if (title) meta.title = title;
  if (Object.keys(meta).length)
    found.push({ type: "Page", data: { "@type": "Page", ...meta }, signal: "meta" });
  return found;
}

/** A `<title>` without the site's name: "Soup – Recipes | Site" -> "Soup – Recipes" when the site is known, else the longest part. */
export function pageTitle(title: string | null, siteName: string | null): string | null {
  if (!title) return null;
  const parts = title
    .split(/\s+[|–—·•»-]\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return title;
  const kept = siteName ? parts.filter((p) => p.toLowerCase() !== siteName.toLowerCase()) : parts;
  if (siteName && kept.length < parts.length) return kept.join(" – ") || title;
  return kept.reduce((a, b) => (b.length > a.length ? b : a));
}

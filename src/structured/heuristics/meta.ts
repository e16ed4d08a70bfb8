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
  let byline: string | null = null;
  let tags: string[] | null = null;
  let image: string | null = null;
  let canonical: string | null = null;
  let lang: string | null = null;
  let contentDepth = 0;

  const readMeta = (el: Element): void => {
    const a = el.attribs;
    const content = clean(a.content);
    const key = (a.property ?? a.name ?? "").trim().toLowerCase();
    if (!content || !key || a.itemprop !== undefined) return;
    const value = (name: string) =>
      URL_VALUED.has(name) ? (absoluteUrl(content, base) ?? content) : content;
    if (key === "og:type") ogType = content.toLowerCase();
    else if (OG_KEYS[key]) addValue(og, OG_KEYS[key], value(OG_KEYS[key]));
    else if (OFFER_KEYS[key]) offer[OFFER_KEYS[key]] ??= content;
    else if (PRODUCT_KEYS[key]) og[PRODUCT_KEYS[key]] ??= content;
    else if (TWITTER_KEYS[key]) twitter[TWITTER_KEYS[key]] ??= value(TWITTER_KEYS[key]);
    else if (/^twitter:(label|data)\d$/.test(key)) labels[key] = content;
    else if (META_KEYS[key]) meta[META_KEYS[key]] ??= content;
  };

  const visit = (el: Element): boolean => {
    const a = el.attribs;
    // The site's header and footer are chrome; an article's own <header> holds its heading and byline.
    if (CHROME.has(el.name) || ((el.name === "header" || el.name === "footer") && !contentDepth))
      return false;
    const className = a.class ?? "";
    switch (el.name) {
      case "html":
        lang = clean(a.lang);
        break;
      case "meta":
        readMeta(el);
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
      case "img":
        if (contentDepth && !image && bigEnough(a)) image = absoluteUrl(a.src, base);
        break;
      case "script":
      case "style":
        return false;
    }
    if (!byline && BYLINE_CLASS.test(className)) byline = bylineName(textOf(el));
    if (!tags && TAGS_CLASS.test(className)) tags = linkTexts(el);
    return true;
  };
  // Depth-first without recursion (pages nest deeply), counting how deep inside <main>/<article> we are.
  const stack: (Element | null)[] = root.children.filter((c): c is Element => c.type === "tag").reverse();
  while (stack.length) {
    const el = stack.pop();
    if (el === null) {
      contentDepth--;
      continue;
    }
    if (!el || !visit(el)) continue;
    if (CONTENT.has(el.name)) {
      contentDepth++;
      stack.push(null);
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i]!;
      if (child.type === "tag" || child.type === "script" || child.type === "style")
        stack.push(child as Element);
    }
  }

  const found: Found[] = [];
  const type = OG_TYPES[ogType] ?? (Object.keys(offer).length ? "Product" : "Page");
  if (Object.keys(offer).length) og.offers = { "@type": "Offer", ...offer };
  // og:title often carries the site or company after the page's own heading: the heading is the name.
  if (h1 && typeof og.name === "string" && og.name !== h1 && startsWithTitle(og.name, h1)) og.name = h1;
  if (type === "Article" && typeof og.name === "string") og.headline = og.name;
  if (Object.keys(og).length) found.push({ type, data: { "@type": type, ...og }, signal: "opengraph" });

  // Product cards: twitter:label1 "Price" with twitter:data1 "$19.99" become { Price: "$19.99" }.
  for (const [key, label] of Object.entries(labels)) {
    const data = labels[key.replace("label", "data")];
    if (key.includes("label") && data) twitter[label] ??= data;
  }
  if (Object.keys(twitter).length) {
    found.push({ type: "Page", data: { "@type": "Page", ...twitter }, signal: "twitter" });
  }

  const author = relAuthor ?? byline;
  if (author) meta.author ??= author;
  if (time) meta.datePublished ??= time;
  if (tags) meta.keywords ??= tags;
  if (image) meta.image ??= image;
  if (canonical) meta.url = canonical;
  if (lang) meta.inLanguage = lang;
  const siteName = typeof og.siteName === "string" ? og.siteName : null;
  const name = h1 ?? pageTitle(title, siteName);
  if (name) meta.name = name;
  if (title) {
    meta.pageTitle = title;
    const site = siteFromTitle(title, name);
    if (site) meta.siteName = site;
  }
  if (Object.keys(meta).length)
    found.push({ type: "Page", data: { "@type": "Page", ...meta }, signal: "meta" });
  return found;
}

/** Regions whose bylines, tags and images belong to the site, not the page. */
const CHROME = new Set(["nav", "aside", "form", "template", "noscript"]);
/** Where a page's own image is: its main content. */
const CONTENT = new Set(["main", "article"]);
const BYLINE_CLASS = /(^|[\s_-])(byline|by-line|author|author-name|post-author|entry-author)($|[\s_-])/i;
const TAGS_CLASS = /(^|\s)(tags|tag-list|post-tags|entry-tags|article-tags|keywords)($|\s)/i;
const SEPARATOR = /^\s*[|–—·•»:-]\s*/;

function linkTexts(el: Element): string[] | null {
  const links: string[] = [];
  walkElements(el, (child) => {
    if (child.name === "a") {
      const text = clean(textOf(child));
      if (text) links.push(text);
    }
    return undefined;
  });
  return links.length ? links : null;
}

/** An image large enough to be the page's picture (declared sizes, when given, of at least 200 px). */
function bigEnough(a: Record<string, string>): boolean {
  if (!a.src || /^data:/.test(a.src)) return false;
  const width = Number.parseInt(a.width ?? "", 10);
  const height = Number.parseInt(a.height ?? "", 10);
  return (Number.isNaN(width) || width >= 200) && (Number.isNaN(height) || height >= 200);
}

function startsWithTitle(text: string, heading: string): boolean {
  return text.toLowerCase().startsWith(heading.toLowerCase()) && SEPARATOR.test(text.slice(heading.length));
}

/** The name in a byline: "By Ann Lee, energy correspondent · 14 May" -> "Ann Lee". */
export function bylineName(text: string): string | null {
  const name = text
    .replace(/^\s*(by|von|par|por|di|door|av|af)\s+/i, "")
    .split(/\s*(?:[,|·•–—]|\s-\s|\bon\b|\bam\b|\ble\b)\s*/)[0]
    ?.trim();
  return name && name.length <= 60 && /^\p{Lu}/u.test(name) && name.split(/\s+/).length <= 5 ? name : null;
}

/** The site's name in a `<title>` that is the page's heading plus the site: "Dam opens | The Times" -> "The Times". */
function siteFromTitle(title: string, heading: string | null): string | null {
  const parts = title.split(/\s+[|–—·•»-]\s+/);
  if (parts.length < 2) return null;
  const last = parts[parts.length - 1]!.trim();
  return heading && last.toLowerCase() !== heading.toLowerCase() ? last : null;
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

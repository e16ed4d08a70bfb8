import { type CheerioAPI, load } from "cheerio/slim";
import { parseBounded } from "../extract/depth.ts";
import { loadHtml } from "../extract/dom.ts";

/**
 * Reads RSS 2.0, RSS 1.0, Atom and sitemap documents into small plain models
 * that xml.ts renders. Parsing is forgiving (htmlparser2 in XML mode): broken
 * feeds yield whatever could be read, never an exception.
 */

/** One entry of a feed, with its summary already reduced to plain text. */
export interface FeedItem {
  title: string;
  link: string | null;
  date: string | null;
  summary: string;
}

/** An RSS or Atom feed. */
export interface Feed {
  title: string;
  description: string;
  link: string | null;
  items: FeedItem[];
}

/** A sitemap (`urlset`) or sitemap index (`sitemapindex`): URLs with their optional lastmod. */
export interface Sitemap {
  index: boolean;
  entries: { url: string; lastmod: string | null }[];
}

/** What an XML document turned out to be. */
export type ParsedXml =
  | { kind: "feed"; feed: Feed }
  | { kind: "sitemap"; sitemap: Sitemap }
  | { kind: "other"; title: string };

type Selection = ReturnType<ReturnType<CheerioAPI["root"]>["children"]>;

/** Direct children whose tag matches one of `names` (case-insensitive, prefix included, e.g. "content:encoded"). */
function kids(node: Selection, ...names: string[]): Selection {
  return node.children().filter((_, el) => names.includes(el.tagName.toLowerCase()));
}

function childText(node: Selection, ...names: string[]): string {
  for (const name of names) {
    const text = kids(node, name).first().text().trim();
    if (text) return text;
  }
  return "";
}

const XML_MODE = { xmlMode: true, decodeEntities: true };

/**
 * Parses an XML document and recognises feeds and sitemaps by their root
 * element. The tree is bounded in depth like an HTML page's (depth.ts), so
 * reading text out of any element is safe however deep the document nests.
 */
export function parseXml(text: string): ParsedXml {
  const $ = load(parseBounded(text, XML_MODE), { xml: XML_MODE });
  const root = $.root().children().first();
  const rootName = root.length ? root[0]!.tagName.toLowerCase() : "";
  if (rootName === "rss" || rootName === "rdf:rdf") return { kind: "feed", feed: rssFeed($, root) };
  if (rootName === "feed") return { kind: "feed", feed: atomFeed($, root) };
  if (rootName === "urlset" || rootName === "sitemapindex") {
    const index = rootName === "sitemapindex";
    const entries = kids(root, index ? "sitemap" : "url")
      .toArray()
      .map((el) => ({ url: childText($(el), "loc"), lastmod: childText($(el), "lastmod") || null }))
      .filter((entry) => entry.url !== "");
    return { kind: "sitemap", sitemap: { index, entries } };
  }
  return { kind: "other", title: childText(root, "title") };
}

/** RSS 2.0 nests items in the channel; RSS 1.0 puts them beside it under the root. */
function rssFeed($: CheerioAPI, root: Selection): Feed {
  const channel = kids(root, "channel").first();
  const items = kids(channel, "item").length ? kids(channel, "item") : kids(root, "item");
  return {
    title: childText(channel, "title"),
    description: htmlToPlainText(childText(channel, "description")),
    link: childText(channel, "link") || null,
    items: items.toArray().map((el) => {
      const item = $(el);
      return {
        title: htmlToPlainText(childText(item, "title")),
        link: childText(item, "link") || rssGuidLink(item),
        date: childText(item, "pubdate", "dc:date") || null,
        summary: htmlToPlainText(childText(item, "description", "content:encoded")),
      };
    }),
  };
}

/** A guid is only a link when it says so (isPermaLink defaults to true) and looks like a URL. */
function rssGuidLink(item: Selection): string | null {
  const guid = kids(item, "guid").first();
  const value = guid.text().trim();
  if (guid.attr("isPermaLink") === "false" || !/^https?:\/\//i.test(value)) return null;
  return value;
}

/** Atom puts links in href attributes; the alternate (or unlabelled) one is the human page. */
function atomLink(node: Selection): string | null {
  const links = kids(node, "link").toArray();
  const alternate = links.find((el) => (el.attribs.rel ?? "alternate") === "alternate") ?? links[0];
  return alternate?.attribs.href?.trim() || null;
}

function atomFeed($: CheerioAPI, root: Selection): Feed {
  const entries = kids(root, "entry");
  return {
    title: htmlToPlainText(childText(root, "title")),
    description: htmlToPlainText(childText(root, "subtitle")),
    link: atomLink(root),
    items: entries.toArray().map((el) => {
      const entry = $(el);
      return {
        title: htmlToPlainText(childText(entry, "title")),
        link: atomLink(entry),
        date: childText(entry, "published", "updated") || null,
        summary: htmlToPlainText(childText(entry, "summary", "content")),
      };
    }),
  };
}

const PARAGRAPH_END = /<\/(?:p|div|h[1-6]|blockquote|pre|section|article|ul|ol|table)\s*>/gi;
const LINE_END = /<\/(?:li|tr)\s*>|<br\s*\/?>/gi;

/**
 * Feed descriptions are usually escaped HTML; readers want the words. Block
 * ends become blank lines and list items or <br> single line breaks, so the
 * text keeps its paragraphs.
 */
export function htmlToPlainText(html: string): string {
  if (!/[<&]/.test(html)) return html.replace(/[ \t]+/g, " ").trim();
  const marked = html.replace(PARAGRAPH_END, (tag) => `${tag}\n\n`).replace(LINE_END, (tag) => `${tag}\n`);
  // Parsed like a page (htmlparser2, bounded in depth): parse5 slows down quadratically on deep nesting.
  const $ = loadHtml(marked);
  $("script, style, noscript").remove();
  return $.root()
    .text()
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The site's own markdown: many sites publish a markdown twin of each page, answering
 * `Accept: text/markdown` with it (content negotiation), announcing it with
 * `<link rel="alternate" type="text/markdown" href>` or an HTTP `Link:` header of the same
 * meaning, or listing `.md` twins in `/llms.txt`. That markdown is the author's own, so when it is
 * there and sane the fetch pipeline uses it as the page's markdown (`source: "site-markdown"`);
 * every other format still comes from the page.
 */
import { decodeBody } from "../fetch/decode.ts";
import type { FetchEngine, FetchedPage } from "../fetch/types.ts";
import type { FetchResult } from "../schemas/fetch.ts";
import type { ResolvedFormats } from "./formats.ts";
import { fingerprint } from "./result.ts";

/** Media types of markdown answers. */
const MARKDOWN_TYPE = /^\s*text\/(x-)?markdown\s*(;|$)/i;
/** What a request for an announced twin accepts: markdown first, plain text (GitHub-style raw files) after. */
const TWIN_ACCEPT = "text/markdown, text/x-markdown;q=0.9, text/plain;q=0.8, */*;q=0.1";
/** Site markdown under this share of the page's own main text is a stub, not the page. */
const MIN_SHARE = 0.5;
/**
 * A negotiated markdown answer with at least this much readable text stands alone; a shorter one
 * may be a stub, so the page is fetched as HTML to compare.
 */
export const TRUSTED_LENGTH = 400;
/** The longest a twin may take (or half the fetch timeout, when that is shorter). */
export const TWIN_TIMEOUT_MS = 5_000;
/** How far into an HTML page its head may reach (the link element is in it). */
const HEAD_SCAN = 65_536;

/** Whether a Content-Type header names markdown. */
export function isMarkdownType(contentType: string | undefined): boolean {
  return contentType !== undefined && MARKDOWN_TYPE.test(contentType);
}

/** The site's markdown of a page, as the pipeline keeps it (also in the cache, beside the page). */
export interface SiteMarkdown {
  /** Where it came from: the page's own URL (negotiated) or its twin's. */
  url: string;
  markdown: string;
}

/** `href` resolved against `base` when it is on the same origin, else undefined. */
function sameOrigin(href: string, base: string): string | undefined {
  try {
    const url = new URL(href.trim(), base);
    return url.origin === new URL(base).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const attr = (tag: string, name: string): string | undefined => {
  const found = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(tag);
  return found ? (found[1] ?? found[2] ?? found[3] ?? "").replace(/&amp;/g, "&") : undefined;
};
const relHas = (rel: string | undefined, token: string) =>
  rel?.toLowerCase().split(/\s+/).includes(token) ?? false;

/** The markdown twin a `Link:` header announces (rel=alternate, type=text/markdown), if any. */
function fromLinkHeader(header: string | undefined, base: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const target = /^\s*<([^>]*)>/.exec(part)?.[1];
    const params = part.slice(part.indexOf(">") + 1);
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params)?.[1];
    const type = /;\s*type\s*=\s*"?([^";]+)"?/i.exec(params)?.[1];
    if (target !== undefined && relHas(rel, "alternate") && isMarkdownType(type))
      return sameOrigin(target, base);
  }
  return undefined;
}

/** The markdown twin a `<link rel="alternate" type="text/markdown">` of the page's head announces. */
function fromLinkElement(html: string, base: string): string | undefined {
  const end = html.search(/<\/head\s*>|<body[\s>]/i);
  const head = html.slice(0, end === -1 ? HEAD_SCAN : Math.min(end, HEAD_SCAN));
  for (const tag of head.match(/<link\b[^>]*>/gi) ?? []) {
    if (!relHas(attr(tag, "rel"), "alternate") || !isMarkdownType(attr(tag, "type"))) continue;
    const href = attr(tag, "href");
    if (href) {
      // A <base href> would change where it points; sameOrigin keeps it on the page's site either way.
      const baseHref = /<base\b[^>]*>/i.exec(head)?.[0];
      const from = baseHref ? (sameOrigin(attr(baseHref, "href") ?? "", base) ?? base) : base;
      return sameOrigin(href, from);
    }
  }
  return undefined;
}

/**
 * The URL of a page's markdown twin, same origin only: announced by its `Link:` header or a
 * `<link>` in its head, else listed for it in the site's llms.txt (`twinOf`).
 */
export function announcedTwin(
  page: FetchedPage,
  html: string | undefined,
  twinOf?: (url: string) => string | undefined,
): string | undefined {
  const announced =
    fromLinkHeader(page.headers.link, page.url) ?? (html ? fromLinkElement(html, page.url) : undefined);
  if (announced && announced !== page.url) return announced;
  const listed = twinOf?.(page.url);
  return listed ? sameOrigin(listed, page.url) : undefined;
}

/** Front matter (`---` … `---`) at the start of a markdown document, and what follows it. */
function splitFrontMatter(markdown: string): { front: string; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(markdown);
  return match
    ? { front: match[1] ?? "", body: markdown.slice(match[0].length) }
    : { front: "", body: markdown };
}

/** The markdown as a page's content: front matter dropped, line ends made \n, trimmed. */
export function markdownBody(markdown: string): string {
  return splitFrontMatter(markdown.replace(/\r\n?/g, "\n")).body.trim();
}

/** A markdown document's title: its front matter's `title:`, else its first level-1 heading. */
export function markdownTitle(markdown: string): string {
  const { front, body } = splitFrontMatter(markdown.replace(/\r\n?/g, "\n"));
  const fromFront = /^title:\s*(.+)$/m
    .exec(front)?.[1]
    ?.trim()
    .replace(/^(["'])(.*)\1$/, "$2");
  if (fromFront) return fromFront;
  return /^#[ \t]+(.+?)[ \t#]*$/m.exec(body)?.[1]?.trim() ?? "";
}

/** A markdown document's metadata from its front matter (description, author, date, image, canonical). */
export function markdownMetadata(
  markdown: string,
  base: string,
): {
  description: string | null;
  author: string | null;
  published: string | null;
  image: string | null;
  canonical: string | null;
} {
  const { front } = splitFrontMatter(markdown.replace(/\r\n?/g, "\n"));
  const field = (...names: string[]) => {
    for (const name of names) {
      const value = new RegExp(`^${name}:\\s*(.+)$`, "mi")
        .exec(front)?.[1]
        ?.trim()
        .replace(/^(["'])(.*)\1$/, "$2");
      if (value) return value;
    }
    return null;
  };
  const absolute = (value: string | null) => {
    if (!value) return null;
    try {
      return new URL(value, base).href;
    } catch {
      return null;
    }
  };
  return {
    description: field("description", "summary"),
    author: field("author"),
    published: field("date", "published", "published_at"),
    image: absolute(field("image", "og_image")),
    canonical: absolute(field("canonical", "canonical_url")),
  };
}

/** The links of a markdown document (inline links and images' targets excluded), absolute, once each. */
export function markdownLinks(markdown: string, base: string): string[] {
  const links = new Set<string>();
  for (const match of markdown.matchAll(/(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"']*["'])?\s*\)/g)) {
    try {
      const url = new URL(match[1] ?? "", base);
      if (url.protocol === "http:" || url.protocol === "https:") {
        url.hash = "";
        links.add(url.href);
      }
    } catch {
      // not a URL: skipped
    }
  }
  return [...links];
}

/** The text a reader sees in markdown, roughly: syntax marks removed, for comparing lengths. */
export function readableLength(markdown: string): number {
  return markdown
    .replace(/```[^\n]*\n?|~~~[^\n]*\n?/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^[ \t]*(#{1,6}|[-*+>]|\d+[.)])[ \t]+/gm, "")
    .replace(/[*_`|]/g, "")
    .replace(/\s+/g, " ")
    .trim().length;
}

/** A short markdown answer that reads as an error page rather than the page's content. */
function looksLikeError(body: string): boolean {
  if (body.length > 600) return false;
  return /\b(404|not found|page not found|error|forbidden|access denied|unauthori[sz]ed)\b/i.test(
    body.split("\n", 3).join(" "),
  );
}

/**
 * Whether `markdown` is a sane stand-in for the page: not empty, not HTML or an error page, and
 * (when the page's main text is known) not much shorter than it.
 */
export function saneSiteMarkdown(markdown: string, mainTextLength?: number): boolean {
  const body = markdownBody(markdown);
  if (!body) return false;
  if (/^\s*<(!doctype|html|head|body)\b/i.test(body)) return false;
  if (looksLikeError(body)) return false;
  if (mainTextLength !== undefined && readableLength(body) < mainTextLength * MIN_SHARE) return false;
  return true;
}

/**
 * Fetches a page's announced markdown twin through the simple engine (SSRF-checked at every
 * hop, the body limit applied, within `timeoutMs`) and answers it when it is sane against the page's main text;
 * undefined for an answer that is not markdown, not 2xx, redirected off the site, or a stub.
 * Never throws for the twin's failure: the page's own extraction stands.
 */
export async function fetchTwin(
  url: string,
  engine: FetchEngine,
  options: { headers?: Record<string, string>; signal?: AbortSignal; timeoutMs: number },
  /** The page's main text length, or its measuring under way (it runs while the twin is fetched). */
  mainTextLength: number | Promise<number>,
): Promise<SiteMarkdown | undefined> {
  let page: FetchedPage;
  try {
    // Bounded apart from the page: a twin that is slow or hangs costs the page a few seconds at most.
    page = await engine.fetch(url, {
      headers: { ...options.headers, accept: TWIN_ACCEPT },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  } catch {
    return undefined;
  }
  if (page.status < 200 || page.status >= 300) return undefined;
  if (new URL(page.url).origin !== new URL(url).origin) return undefined;
  const type = page.headers["content-type"] ?? "";
  if (!isMarkdownType(type) && !/^\s*text\/plain\s*(;|$)/i.test(type)) return undefined;
  // In the charset the twin declares (or sniffed), as every other body is read.
  const markdown = decodeBody(page.body, type).text;
  return saneSiteMarkdown(markdown, await mainTextLength) ? { url: page.url, markdown } : undefined;
}

/**
 * Whether a request needs the page itself beyond its markdown: a negotiated markdown answer
 * serves it alone only when nothing else is asked (other content formats, raw HTML, images,
 * screenshots, branding, attributes, change tracking, tag filters).
 */
export function needsPageBeyondMarkdown(
  formats: ResolvedFormats,
  input: { includeTags?: string[]; excludeTags?: string[] },
): boolean {
  return (
    formats.format !== "markdown" ||
    formats.contents.some((format) => format !== "markdown") ||
    formats.rawHtml ||
    formats.images ||
    formats.screenshot !== undefined ||
    formats.branding ||
    formats.changeTracking !== undefined ||
    formats.attributes !== undefined ||
    Boolean(input.includeTags?.length || input.excludeTags?.length)
  );
}

/** The result with the site's markdown as its markdown (content and the markdown field), saying so. */
export function withSiteMarkdown(
  result: FetchResult,
  formats: ResolvedFormats,
  site: SiteMarkdown,
): FetchResult {
  const markdown = markdownBody(site.markdown);
  const out: FetchResult = { ...result, source: "site-markdown" };
  if (formats.format === "markdown") {
    out.content = markdown;
    out.tokens = Math.ceil(markdown.length / 4);
    out.fingerprint = fingerprint(markdown);
  }
  if (formats.contents.includes("markdown")) out.markdown = markdown;
  if (!out.title) out.title = markdownTitle(site.markdown);
  return out;
}

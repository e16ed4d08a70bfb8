import { gunzipSync } from "node:zlib";
import { parseXml } from "../convert/xml-parse.ts";
import { SiphonError } from "../errors.ts";
import { decodeBody } from "../fetch/decode.ts";
import type { FetchEngine } from "../fetch/types.ts";
import { normalizeUrl } from "./normalize.ts";

/** How collectSitemapUrls is bounded. */
export interface SitemapOptions {
  /** Stop once this many (accepted) page URLs are collected. */
  limit: number;
  /** Most sitemap documents fetched, indexes included; default 50. */
  maxSitemaps?: number;
  signal?: AbortSignal;
  /** Only URLs this accepts count towards `limit` and are returned (e.g. same-site and search filters). */
  accept?: (url: string) => boolean;
}

const DEFAULT_MAX_SITEMAPS = 50;
/** The sitemap protocol caps an uncompressed sitemap at 50 MB; a bigger inflation is a gzip bomb. */
const MAX_INFLATED_BYTES = 50 * 1024 * 1024;
const PARALLEL_FETCHES = 4;

/** What one sitemap document yielded. */
interface SitemapDocument {
  pages: string[];
  children: string[];
}

const EMPTY: SitemapDocument = { pages: [], children: [] };

function isGzip(body: Uint8Array): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * Judges gzip by its magic bytes, not the ".gz" name: the engine already undid a
 * Content-Encoding: gzip, so a ".gz" URL often arrives as plain XML.
 */
function inflate(body: Uint8Array): Uint8Array | null {
  if (!isGzip(body)) return body;
  try {
    return gunzipSync(body, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch {
    return null;
  }
}

/** Sitemaps may also be plain text, one absolute URL per line (sitemaps.org "Text file"). */
function textUrls(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\/\S+$/i.test(line));
}

function readSitemap(body: Uint8Array, contentType: string | undefined): SitemapDocument {
  const bytes = inflate(body);
  if (!bytes) return EMPTY;
  // An inflated body's Content-Type named the archive, not the XML inside.
  const { text } = decodeBody(bytes, bytes === body ? contentType : undefined);
  if (!/^\s*</.test(text)) return { pages: textUrls(text), children: [] };
  const parsed = parseXml(text);
  if (parsed.kind !== "sitemap") return EMPTY;
  const urls = parsed.sitemap.entries.map((entry) => entry.url);
  return parsed.sitemap.index ? { pages: [], children: urls } : { pages: urls, children: [] };
}

async function fetchSitemap(
  url: string,
  engine: FetchEngine,
  signal?: AbortSignal,
): Promise<SitemapDocument> {
  try {
    const page = await engine.fetch(url, { signal });
    if (page.status < 200 || page.status >= 300) return EMPTY;
    return readSitemap(page.body, page.headers["content-type"]);
  } catch {
    // One unreachable or forbidden sitemap must not cost the URLs of the others.
    return EMPTY;
  }
}

/**
 * Collects page URLs from sitemaps, starting at `seeds`: urlset <loc> entries are
 * collected, sitemap indexes are followed (breadth first, each document fetched once,
 * at most `maxSitemaps` documents), gzip bodies are inflated, plain-text sitemaps read
 * line by line. URLs come back normalized (normalizeUrl) and deduplicated, in
 * document order, at most `limit` of them. Broken, missing or non-sitemap documents
 * are skipped; never throws (an aborted signal ends the walk with what was found).
 */
export async function collectSitemapUrls(
  seeds: string[],
  engine: FetchEngine,
  options: SitemapOptions,
): Promise<string[]> {
  const maxSitemaps = options.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
  const found = new Set<string>();
  const queued = new Set<string>();
  const queue: string[] = [];
  const enqueue = (raw: string): void => {
    const url = normalizeUrl(raw);
    if (!url || queued.has(url) || queued.size >= maxSitemaps) return;
    queued.add(url);
    queue.push(url);
  };
  seeds.forEach(enqueue);

  while (queue.length > 0 && found.size < options.limit && !options.signal?.aborted) {
    const batch = queue.splice(0, PARALLEL_FETCHES);
    const documents = await Promise.all(batch.map((url) => fetchSitemap(url, engine, options.signal)));
    // Results are merged in queue order so the output does not depend on which fetch finished first.
    for (const doc of documents) {
      doc.children.forEach(enqueue);
      for (const raw of doc.pages) {
        const url = normalizeUrl(raw);
        if (!url || found.has(url) || (options.accept && !options.accept(url))) continue;
        found.add(url);
        if (found.size >= options.limit) break;
      }
      if (found.size >= options.limit) break;
    }
  }
  return [...found];
}

/** How a map or a crawl uses sitemaps: with the links, not at all, or alone. */
export type SitemapUse = "include" | "skip" | "only";

/**
 * The sitemap use a request asks for: `sitemap` when given, else `ignoreSitemap` (skip), else
 * include. Throws SiphonError invalid_request when the two disagree.
 */
export function sitemapUse(input: { sitemap?: SitemapUse; ignoreSitemap?: boolean }): SitemapUse {
  if (input.ignoreSitemap === true && input.sitemap !== undefined && input.sitemap !== "skip") {
    throw new SiphonError(
      "invalid_request",
      `ignoreSitemap skips the sitemaps and sitemap is "${input.sitemap}"; give one of them`,
    );
  }
  return input.sitemap ?? (input.ignoreSitemap ? "skip" : "include");
}

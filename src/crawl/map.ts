import { SiphonError } from "../errors.ts";
import { loadHtml } from "../extract/dom.ts";
import { extractLinks } from "../extract/links.ts";
import { baseUrlOf } from "../extract/metadata.ts";
import { decodeBody } from "../fetch/decode.ts";
import type { FetchEngine, FetchedPage } from "../fetch/types.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { normalizeUrl, sameSite } from "./normalize.ts";
import { loadRobots, type Robots } from "./robots.ts";
import { collectSitemapUrls, type SitemapUse, sitemapUse } from "./sitemap.ts";

/** What to map (SPEC "POST /v1/map"), already validated at the edge. */
export interface MapInput {
  url: string;
  /** Most URLs returned. */
  limit: number;
  /** Keep only URLs containing this text (case-insensitive). */
  search?: string;
  /** Also keep URLs on subdomains of the start host. */
  includeSubdomains?: boolean;
  /** Skip robots.txt sitemaps and /sitemap.xml; only the link crawl runs (sitemap: skip). */
  ignoreSitemap?: boolean;
  /** include (default): sitemaps and links; skip: links alone; only: the sitemaps' URLs alone. */
  sitemap?: SitemapUse;
}

/** Collaborators and bounds of one map run. */
export interface MapDeps {
  engine: FetchEngine;
  /** Matched against robots.txt groups by its first product token. */
  userAgent: string;
  signal?: AbortSignal;
  /** Most HTML pages the link crawl fetches, the start page included; default 50. */
  maxPages?: number;
  /** Pages fetched at once; default 4. */
  concurrency?: number;
  /** Told after each round of the link crawl: pages read (the start page included) of at most `most`. */
  onProgress?: (read: number, most: number) => void;
}

const DEFAULT_MAX_PAGES = 50;
const DEFAULT_CONCURRENCY = 4;
/** Crawl-delay is honoured by fetching one page at a time; the page budget shrinks so waiting stays this short. */
const MAX_POLITE_WAIT_MS = 10_000;
/** Links to these are listed but never fetched: they cannot hold further links. */
const NOT_HTML =
  /\.(?:pdf|docx?|xlsx?|pptx?|zip|gz|tgz|rar|7z|jpe?g|png|gif|webp|svg|ico|bmp|avif|mp[34]|webm|mov|avi|wav|ogg|css|js|json|xml|rss|txt|csv|woff2?|ttf|eot|exe|dmg|iso)$/i;

function isHtml(page: FetchedPage): boolean {
  const type = page.headers["content-type"]?.toLowerCase() ?? "";
  if (type) return type.includes("html");
  const head = new TextDecoder().decode(page.body.subarray(0, 512));
  return /^\s*</.test(head);
}

function linksOf(page: FetchedPage): string[] {
  if (page.status < 200 || page.status >= 300 || !isHtml(page)) return [];
  const $ = loadHtml(decodeBody(page.body, page.headers["content-type"]).text);
  return extractLinks($, baseUrlOf($, page.url));
}

function aborted(signal: AbortSignal): SiphonError {
  const reason: unknown = signal.reason;
  if (reason instanceof SiphonError) return reason;
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return new SiphonError("timeout", "Mapping the site took too long and was stopped.", { cause: reason });
  }
  return new SiphonError("network_error", "Mapping the site was cancelled before it finished.", {
    cause: reason,
  });
}

/**
 * Lists the URLs of a site without returning content, and without a browser:
 * sitemaps (those robots.txt names, plus /sitemap.xml unless ignoreSitemap or sitemap skip;
 * indexes and gzip followed) merged with a breadth-first link crawl of same-site HTML pages
 * (at most maxPages fetches, robots.txt Disallow and Crawl-delay respected). Every URL
 * is normalized (normalizeUrl), deduplicated and on the start URL's site (subdomains
 * with includeSubdomains); the start URL comes first, then sitemap URLs, then crawled
 * links; `search` keeps URLs containing it (case-insensitive); at most `limit`.
 * Disallowed URLs are listed when linked, only never fetched; pages that fail during
 * the crawl are skipped. With sitemap "only" the list is the sitemaps' URLs alone (the
 * start page is not fetched, no link is followed, robots.txt's disallowed URLs are left out).
 *
 * @throws SiphonError invalid_request/invalid_url/forbidden_url for a bad start URL;
 *   whatever the engine throws for the start page (network_error, timeout,
 *   forbidden_url, content_too_large); the abort reason when `signal` aborts.
 */
export async function mapSite(input: MapInput, deps: MapDeps): Promise<string[]> {
  const start = parseTargetUrl(input.url);
  const startUrl = normalizeUrl(start) ?? start.href;
  const signal = deps.signal;
  const needle = input.search?.toLowerCase() ?? "";
  const onSite = (url: string): boolean =>
    sameSite(new URL(url), start, { allowSubdomains: input.includeSubdomains ?? false });
  const accept = (url: string): boolean => onSite(url) && url.toLowerCase().includes(needle);

  const use = sitemapUse(input);
  if (use === "only") {
    // The sitemaps' URLs alone: the start page is not fetched, and robots.txt's disallows are left out.
    const robots = await loadRobots(start.origin, deps.engine, deps.userAgent, { signal });
    const listed = await collectSitemapUrls(
      [...robots.sitemaps, `${start.origin}/sitemap.xml`],
      deps.engine,
      {
        limit: input.limit,
        signal,
        accept: (url) => accept(url) && robots.isAllowed(url),
      },
    );
    if (signal?.aborted) throw aborted(signal);
    return [...new Set(listed)].slice(0, input.limit);
  }
  const [robots, startPage] = await Promise.all([
    loadRobots(start.origin, deps.engine, deps.userAgent, { signal }),
    deps.engine.fetch(start.href, { signal }),
  ]);

  const sitemapSeeds = use === "skip" ? [] : [...robots.sitemaps, `${start.origin}/sitemap.xml`];
  const [fromSitemaps, fromLinks] = await Promise.all([
    collectSitemapUrls(sitemapSeeds, deps.engine, { limit: input.limit, signal, accept }),
    crawlLinks(startUrl, linksOf(startPage), robots, deps, { limit: input.limit, onSite, accept }),
  ]);
  if (signal?.aborted) throw aborted(signal);

  const result = new Set<string>();
  for (const url of [startUrl, ...fromSitemaps, ...fromLinks]) {
    if (result.size >= input.limit) break;
    if (accept(url)) result.add(url);
  }
  return [...result];
}

/** Waits `ms`, returning early when the signal aborts (the caller then stops). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

interface CrawlBounds {
  limit: number;
  onSite: (url: string) => boolean;
  accept: (url: string) => boolean;
}

/**
 * Breadth-first over same-site links, the start page being already fetched. Each
 * origin's robots.txt is read once before its first page is fetched (www. and
 * subdomains are other origins); the start origin's Crawl-delay paces the whole walk.
 * Returns the accepted links in discovery order; stops at `limit` accepted links or
 * when the page budget is spent.
 */
async function crawlLinks(
  startUrl: string,
  startLinks: string[],
  robots: Robots,
  deps: MapDeps,
  bounds: CrawlBounds,
): Promise<string[]> {
  const delay = robots.crawlDelayMs ?? 0;
  const concurrency = delay > 0 ? 1 : Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
  let budget = Math.max(0, (deps.maxPages ?? DEFAULT_MAX_PAGES) - 1);
  if (delay > 0) budget = Math.min(budget, Math.floor(MAX_POLITE_WAIT_MS / delay));
  const most = budget + 1;
  let read = 1;

  const rules = new Map<string, Promise<Robots>>([[new URL(startUrl).origin, Promise.resolve(robots)]]);
  const allowed = async (url: string): Promise<boolean> => {
    const origin = new URL(url).origin;
    let pending = rules.get(origin);
    if (!pending) {
      pending = loadRobots(origin, deps.engine, deps.userAgent, { signal: deps.signal });
      rules.set(origin, pending);
    }
    return (await pending.catch(() => null))?.isAllowed(url) ?? false;
  };

  const found = new Set<string>();
  const scheduled = new Set<string>([startUrl]);
  const queue: string[] = [];
  let next = 0;
  const take = (links: string[]): void => {
    for (const raw of links) {
      const url = normalizeUrl(raw);
      if (!url || !bounds.onSite(url)) continue;
      if (bounds.accept(url)) found.add(url);
      if (scheduled.has(url) || NOT_HTML.test(new URL(url).pathname)) continue;
      scheduled.add(url);
      queue.push(url);
    }
  };
  take(startLinks);

  while (next < queue.length && budget > 0 && found.size < bounds.limit && !deps.signal?.aborted) {
    const batch: string[] = [];
    while (next < queue.length && batch.length < Math.min(concurrency, budget)) {
      const url = queue[next++]!;
      if (await allowed(url)) batch.push(url);
    }
    if (batch.length === 0) break;
    budget -= batch.length;
    if (delay > 0) await pause(delay, deps.signal);
    const pages = await Promise.all(
      batch.map((url) =>
        deps.engine
          .fetch(url, { signal: deps.signal })
          .then(linksOf)
          .catch((): string[] => []),
      ),
    );
    // Merged in queue order, so the result does not depend on which fetch finished first.
    pages.forEach(take);
    read += batch.length;
    deps.onProgress?.(read, most);
  }
  return [...found];
}

import { toSiphonError } from "../errors.ts";
import { type FetchDeps, fetchPage } from "../pipeline/fetch-page.ts";
import { FetchBody, type FetchResult } from "../schemas/fetch.ts";
import { validate } from "../schemas/validate.ts";
import type { WebHit } from "./types.ts";

/** One search result after its page was fetched (or failed to be). */
export interface ScrapedHit {
  hit: WebHit;
  /** The page (markdown of its main content); null when the fetch failed. */
  page: FetchResult | null;
  error?: { type: string; message: string };
  /** True when the page came from its site (not the cache): what credits count. */
  fetched: boolean;
  degraded?: string;
}

/**
 * Fetches one result through the pipeline (cache, escalation, SSRF) as markdown of its main
 * content. A failure is kept on the result, never thrown: one bad page must not sink a search,
 * an answer or an ask.
 */
export async function scrapeHit(hit: WebHit, deps: FetchDeps): Promise<ScrapedHit> {
  try {
    const input = validate(FetchBody, { url: hit.url, format: "markdown", onlyMainContent: true });
    const outcome = await fetchPage(input, deps);
    return { hit, page: outcome.result, fetched: !outcome.cache.hit, degraded: outcome.degraded };
  } catch (raw) {
    const error = toSiphonError(raw);
    return { hit, page: null, error: { type: error.type, message: error.message }, fetched: false };
  }
}

/** Every hit fetched at once; results keep the hits' order. */
export function scrapeHits(hits: WebHit[], deps: FetchDeps): Promise<ScrapedHit[]> {
  return Promise.all(hits.map((hit) => scrapeHit(hit, deps)));
}

/** What scraping cost and how it ran: pages fetched from their sites, degradation notes. */
export function scrapeTally(scraped: ScrapedHit[]): { pagesFetched: number; degraded?: string } {
  const degraded = new Set(scraped.flatMap((s) => (s.degraded ? [s.degraded] : [])));
  return {
    pagesFetched: scraped.filter((s) => s.fetched).length,
    degraded: degraded.size ? [...degraded].join("; ") : undefined,
  };
}

import { toSiphonError } from "../errors.ts";
import { type ScrapeDeps, type ScrapeOutcome, type ScrapeRequest, scrape } from "../pipeline/scrape.ts";
import { FetchBody, type FetchInput, type FetchResult } from "../schemas/fetch.ts";
import { validate } from "../schemas/validate.ts";
import type { WebHit } from "./types.ts";

/** One search result after its page was scraped (or failed to be). */
export interface ScrapedHit {
  hit: WebHit;
  /** The page; null when the scrape failed. */
  page: FetchResult | null;
  /** The whole scrape (summary, branding, meta tags…), when it succeeded. */
  outcome?: ScrapeOutcome;
  error?: { type: string; message: string };
  /** What the page cost (pageCredits); 0 for a failure. */
  credits: number;
  /** True when the page came from its site (it cost a credit). */
  fetched: boolean;
  degraded?: string;
}

/** How every result page is scraped: one request for all of them but their URL. */
export interface HitScrape extends Omit<ScrapeRequest, "fetch"> {
  fetch: Omit<FetchInput, "url">;
}

/** The default: markdown of the page's main content, as search, answer, ask, research and agent read pages. */
const MAIN_CONTENT: HitScrape = {
  fetch: (({ url: _url, ...rest }) => rest)(
    validate(FetchBody, { url: "https://example.com/", format: "markdown", onlyMainContent: true }),
  ),
  // Only change tracking reads whose scrape it is; these pages never ask for it.
  accountId: "",
};

/**
 * Scrapes one result through the scrape operation (cache, escalation, SSRF; any page options
 * `how` gives, markdown of the main content by default). A failure is kept on the result, never
 * thrown: one bad page must not sink a search, an answer or an ask.
 */
export async function scrapeHit(
  hit: WebHit,
  deps: ScrapeDeps,
  how: HitScrape = MAIN_CONTENT,
): Promise<ScrapedHit> {
  try {
    const fetch = { ...how.fetch, url: hit.url } as FetchInput;
    const outcome = await scrape({ ...how, fetch }, deps);
    const { credits } = outcome;
    return { hit, page: outcome.result, outcome, credits, fetched: credits > 0, degraded: outcome.degraded };
  } catch (raw) {
    const error = toSiphonError(raw);
    return {
      hit,
      page: null,
      error: { type: error.type, message: error.message },
      credits: 0,
      fetched: false,
    };
  }
}

/** Every hit scraped at once; results keep the hits' order. The one scraping of search results: siphon's and Firecrawl's. */
export function scrapeHits(hits: WebHit[], deps: ScrapeDeps, how?: HitScrape): Promise<ScrapedHit[]> {
  return Promise.all(hits.map((hit) => scrapeHit(hit, deps, how)));
}

/** What scraping cost and how it ran: the pages' credits (pages fetched from their sites), degradation notes. */
export function scrapeTally(scraped: ScrapedHit[]): { pagesFetched: number; degraded?: string } {
  const degraded = new Set(scraped.flatMap((s) => (s.degraded ? [s.degraded] : [])));
  return {
    pagesFetched: scraped.reduce((sum, s) => sum + s.credits, 0),
    degraded: degraded.size ? [...degraded].join("; ") : undefined,
  };
}

import type { FetchResult } from "../schemas/fetch.ts";
import type { CacheInfo } from "./fetch-page.ts";

/** What a page operation's cost is read from. */
export interface PageCost {
  cache: CacheInfo;
  /** True when a screenshot was rendered beside the fetch (its own browser visit to the site). */
  screenshotBeside?: boolean;
}

/**
 * The credits of one page (a fetch, a scrape, one page of a batch, crawl or search), the one
 * rule every surface reports (docs/accounts.md, Weekly quota): 1 when the page
 * was visited (the cache did not answer the fetch, or a screenshot was rendered beside a
 * cached page), 0 when the cache answered all of it. A visit is one credit however much was
 * made of it: a screenshot in the same render, extraction, a summary, branding and change
 * tracking cost nothing more.
 */
export function pageCredits(cost: PageCost): number {
  return !cost.cache.hit || cost.screenshotBeside ? 1 : 0;
}

/**
 * The credits of the operations that are not one page, the rest of the same table: a map, a
 * screenshot, a YouTube transcript and a watch's check are 1 each; a search (or ask) is 1 plus
 * the credits of the result pages it fetched; answer, agent and research cost the pages they
 * fetched from their sites (their searches are free).
 */
export const operationCredits = {
  map: () => 1,
  screenshot: () => 1,
  youtube: () => 1,
  watchCheck: () => 1,
  search: (pagesFetched: number) => 1 + pagesFetched,
  reading: (pagesFetched: number) => pagesFetched,
} as const;

/**
 * The LLM tokens (input and output) a page's result says it used: extraction, the summary and
 * the answer, each counted where the result reports it (the request log sums them per request).
 */
export function pageTokens(result: FetchResult): number {
  return (
    usedTokens(result.extractTokensUsed) +
    usedTokens(result.summaryTokensUsed) +
    usedTokens(result.answerTokensUsed)
  );
}

/** Input and output tokens of an LLM use together; 0 for none. */
export function usedTokens(used: { input: number; output: number } | undefined): number {
  return used ? used.input + used.output : 0;
}

import { FetchBody, type FetchResult } from "../schemas/fetch.ts";
import { type BatchInput, type CrawlInput, DEFAULT_MAX_CONCURRENCY } from "../schemas/jobs.ts";
import { validate } from "../schemas/validate.ts";
import type { JobRecord } from "../store/types.ts";
import { batchItem, crawlItem } from "./page-result.ts";

/** What running a job needs to know about its type. */
export interface JobSpec {
  /** Most items the job may hold. */
  limit: number;
  /** Most link hops followed (0: none). */
  maxDepth: number;
  /** Most pages in flight at once. */
  parallel: number;
  /** Pause after each page of a host before its next one, in ms (0: none). */
  delayMs: number;
  /** The crawl request, for crawls. */
  crawl?: CrawlInput;
  /** The fetch request of one page. */
  pageInput(url: string): unknown;
  /** The stored result of one page. */
  item(result: FetchResult): Record<string, unknown>;
}

/** The page options of a job, read back from its stored input. */
export function jobSpec(job: JobRecord): JobSpec {
  if (job.type === "crawl") {
    const input = job.input as CrawlInput;
    const languages = typeof input.languages === "string" ? [input.languages] : input.languages;
    const base = {
      ...input.scrapeOptions,
      location: input.location ?? input.scrapeOptions?.location,
      languages,
    };
    return {
      limit: input.limit,
      maxDepth: input.maxDepth,
      // Jobs stored before these options existed run as they did then: 5 at a time, no delay.
      parallel: input.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
      delayMs: Math.round((input.delay ?? 0) * 1000),
      crawl: input,
      pageInput: (url) => validate(FetchBody, JSON.parse(JSON.stringify({ ...base, url }))),
      item: crawlItem,
    };
  }
  const input = job.input as BatchInput;
  return {
    limit: input.urls.length,
    maxDepth: 0,
    parallel: input.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    delayMs: 0,
    pageInput: (url) => validate(FetchBody, { url, formats: input.formats }),
    item: (result) => batchItem(result, input.maxTokens),
  };
}

import type { Config } from "../config.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import { usedTokens } from "../pipeline/credits.ts";
import { type ScrapeDeps, scrape } from "../pipeline/scrape.ts";
import type { ExtractInput } from "../schemas/extract.ts";
import { FetchBody, type FetchInput, type FetchResult } from "../schemas/fetch.ts";
import { deepFreeze } from "../schemas/freeze.ts";
import { type BatchInput, type CrawlInput, DEFAULT_MAX_CONCURRENCY } from "../schemas/jobs.ts";
import type { LlmstxtInput } from "../schemas/llmstxt.ts";
import { validate } from "../schemas/validate.ts";
import type { JobRecord } from "../store/types.ts";
import { extractUrl } from "../structured/fetch.ts";
import type { ExtractDeps } from "../structured/inline.ts";
import { extractRequestFor } from "./extract-job.ts";
import { llmsCrawlInput } from "./llmstxt-job.ts";
import { batchItem, crawlItem } from "./page-result.ts";
import { scrubSecrets } from "./secrets.ts";
import { batchPageInput } from "./submit.ts";
import { type PageView, type ScrapePages, surfaceOf } from "./surface.ts";

/** One page of a job, done: what the job keeps of it, and what the runner reports and follows. */
export interface PageDone {
  /** The page's final URL. */
  url: string;
  title?: string;
  /** Links a crawl may follow. */
  links: string[];
  /** The item the job keeps (its poll's data). */
  data: Record<string, unknown>;
  /** What the page cost (pageCredits): 1 when it came from its site, 0 for a cache hit. */
  credits: number;
  /** The LLM tokens its formats used (extraction, summary, answer); none when absent. */
  tokens?: number;
}

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
  /** Fetches one page (and extracts from it when the job asks); throws when the page fails. */
  page(url: string, deps: ExtractDeps): Promise<PageDone>;
}

/**
 * The fetch input of each page of a job from one function of its URL: validated (a deep copy, as
 * a request body would be) for the first page and frozen; later pages share it with their own
 * URL, which validation does not look at (fetchPage checks it), so a crawl's thousands of pages
 * are not validated one by one. A first page that fails validation is tried again next time.
 */
export function pageInputs(make: (url: string) => unknown): (url: string) => FetchInput {
  let base: FetchInput | undefined;
  return (url) => {
    if (base) return { ...base, url };
    base = deepFreeze(validate(FetchBody, JSON.parse(JSON.stringify(make(url)))));
    return { ...base, url };
  };
}

/** A page through the scrape operation with the fetch options of a crawl or batch of siphon's own API. */
async function fetchedPage(
  input: FetchInput,
  item: (result: FetchResult) => Record<string, unknown>,
  job: JobRecord,
  deps: ScrapeDeps,
): Promise<PageDone> {
  const { result, credits, tokens } = await scrape({ fetch: input, accountId: job.accountId }, deps);
  return { url: result.url, title: result.title, links: result.links, data: item(result), credits, tokens };
}

/**
 * A page as a scrape (src/scrape: the fetch, meta tags, summary, branding, change tracking), kept
 * as the surface that started the job shows it (its page view), or as a crawl item without one.
 */
async function scrapedPage(
  url: string,
  inputs: (url: string) => FetchInput,
  pages: ScrapePages,
  job: JobRecord,
  view: PageView | undefined,
  deps: ExtractDeps,
): Promise<PageDone> {
  const fetch = inputs(url);
  const { view: _view, fetch: _fetch, ...rest } = pages;
  // Another surface's pages (Firecrawl's): its document carries the meta tags, its hosted LLM serves.
  const outcome = await scrape(
    { ...rest, fetch, accountId: job.accountId, meta: true, serviceLlm: true },
    deps,
  );
  const { credits } = outcome;
  const at = (deps.now ?? Date.now)();
  const { result } = outcome;
  return {
    url: result.url,
    title: result.title,
    links: result.links,
    data: view ? view({ url, outcome, credits, at, view: pages.view }) : crawlItem(result),
    credits,
    tokens: outcome.tokens,
  };
}

/** What a job's spec reads besides the job: the configuration, and the page view of its surface. */
export interface SpecEnv {
  config: Config;
  /** The page view of the surface that started the job, when it registered one. */
  pageView?: PageView;
}

/** The page options of a job, read back from its stored input. */
export async function jobSpec(job: JobRecord, env: SpecEnv): Promise<JobSpec> {
  const pages = surfaceOf(job)?.pages;
  const scraped = pageInputs((url) => ({ ...pages?.fetch, url }));
  if (job.type === "crawl" || job.type === "llmstxt") {
    // An llms.txt job runs the crawl its request describes.
    const input =
      job.type === "crawl" ? (job.input as CrawlInput) : llmsCrawlInput(job.input as LlmstxtInput);
    const languages = typeof input.languages === "string" ? [input.languages] : input.languages;
    // The crawl's own location and languages win when given; absent, they leave scrapeOptions' alone.
    const base = {
      ...input.scrapeOptions,
      location: input.location ?? input.scrapeOptions?.location,
      languages: languages ?? input.scrapeOptions?.languages,
    };
    const fetched = pageInputs((url) => ({ ...base, url }));
    return {
      limit: input.limit,
      maxDepth: input.maxDepth,
      // Jobs stored before these options existed run as they did then: 5 at a time, no delay.
      parallel: input.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
      delayMs: Math.round((input.delay ?? 0) * 1000),
      crawl: input,
      page: (url, deps) =>
        pages
          ? scrapedPage(url, scraped, pages, job, env.pageView, deps)
          : fetchedPage(fetched(url), crawlItem, job, deps),
    };
  }
  if (job.type === "extract") {
    const input = job.input as ExtractInput;
    // Checked when the job was submitted; read again because a resumed job starts from its input.
    const { request, policy } = await extractRequestFor(input, surfaceOf(job), env.config);
    const urls = input.urls ?? [];
    return {
      limit: urls.length,
      maxDepth: 0,
      parallel: DEFAULT_MAX_CONCURRENCY,
      delayMs: 0,
      async page(url, deps) {
        try {
          const { result, credits } = await extractUrl(url, request, {
            ...deps,
            apiBasePolicy: policy ?? deps.apiBasePolicy,
          });
          return { url: result.url, links: [], data: result, credits, tokens: usedTokens(result.tokensUsed) };
        } catch (raw) {
          // The operator's key is not in the job's input, where the pool scrubs the caller's from.
          if (!policy) throw raw;
          const error = toSiphonError(raw);
          throw new SiphonError(error.type, scrubSecrets(error.message, { llmApiKey: request.llm?.apiKey }));
        }
      },
    };
  }
  const input = job.input as BatchInput;
  return {
    limit: input.urls.length,
    maxDepth: 0,
    parallel: input.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    delayMs: 0,
    page: (url, deps) =>
      pages
        ? scrapedPage(url, scraped, pages, job, env.pageView, deps)
        : fetchedPage(batchPageInput(input, url), (result) => batchItem(result, input.maxTokens), job, deps),
  };
}

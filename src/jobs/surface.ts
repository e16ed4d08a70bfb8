import type { FetchInput } from "../schemas/fetch.ts";
import type { ScrapeOutcome, ScrapeRequest } from "../scrape/index.ts";
import type { JobRecord } from "../store/types.ts";
import type { WebhookConfig } from "./webhooks.ts";

/**
 * Jobs another API surface started (the Firecrawl-compatible one): the job keeps which surface
 * it was (`input.surface`), so that its webhooks, its polls and its pages take that surface's
 * shape while the work is the core's, the same as for a job siphon's own API started.
 */

/** The pages of a crawl or batch as scrapes (src/scrape): one request for every page, but its URL. */
export interface ScrapePages {
  /** The fetch of every page (a validated FetchBody without its url). */
  fetch: Omit<FetchInput, "url">;
  timeoutMs: number;
  summary?: boolean;
  branding?: boolean;
  changeTracking?: ScrapeRequest["changeTracking"];
  screenshot?: ScrapeRequest["screenshot"];
  /** What the surface's page view reads besides the outcome (the formats asked); opaque here. */
  view?: unknown;
}

/** Kept in the stored input of a job another surface started, as `surface`. */
export interface JobSurface {
  /** The surface: its page view (registered with the runner) and its webhook shape apply. */
  name: "firecrawl";
  /** Crawl and batch: every page is a scrape, kept as the surface's page view makes it. */
  pages?: ScrapePages;
  /**
   * Extract and agent: the request named no LLM, so the job runs on the operator's
   * (SIPHON_LLM_*), read when it runs: the operator's key is never stored with a job.
   */
  serviceLlm?: boolean;
}

/** One page of a job whose pages are scrapes, as the core made it. */
export interface ScrapedPage {
  /** The URL as the job queued it. */
  url: string;
  outcome: ScrapeOutcome;
  /** Credits the page cost: 1 when it came from its site (or a screenshot was taken), 0 for a cache hit. */
  credits: number;
  /** When it was scraped (ms since epoch). */
  at: number;
  /** ScrapePages.view. */
  view: unknown;
}

/** How a surface keeps a page of its jobs: what its polls show and its page webhooks carry. */
export type PageView = (page: ScrapedPage) => Record<string, unknown>;

/** The surface that started a job, or undefined for siphon's own API. */
export function surfaceOf(job: Pick<JobRecord, "input">): JobSurface | undefined {
  const surface = (job.input as { surface?: JobSurface } | null)?.surface;
  return surface && typeof surface === "object" && surface.name === "firecrawl" ? surface : undefined;
}

/** What another surface adds when it submits a job: where the job says it came from, and its webhook. */
export interface SurfaceSubmit {
  surface: JobSurface;
  /** The surface's webhook, already shaped (WebhookConfig.firecrawl); replaces any in the input. */
  webhook?: WebhookConfig;
}

import type { ScrapePages } from "../../src/jobs/surface.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { ScrapeRequest } from "../../src/scrape/index.ts";
import { readFirecrawlBody } from "./http.ts";
import type { FirecrawlPageView } from "./job-view.ts";
import { ScrapeBody, scrapeFields } from "./scrape-body.ts";
import { type Asked, toScrapeRequest } from "./scrape-map.ts";

/** Checks the options; the URL of each page is set when it is scraped. */
const SOME_URL = "https://example.com/";

/**
 * Firecrawl's scrape options for many pages (a crawl's scrapeOptions, a batch's body without its
 * own keys, a search's scrapeOptions) read exactly as a scrape's body is (the same keys
 * accepted, dropped and refused, the same 400s), as siphon's scrape of every page and the
 * formats the document shows. `url` is the page's own, so it is not an option here.
 */
export function pageOptions(
  raw: unknown,
  version: 1 | 2,
  accountId: string,
): {
  request: Omit<ScrapeRequest, "fetch" | "accountId"> & { fetch: ScrapeRequest["fetch"]; timeoutMs: number };
  asked: Asked;
} {
  const fields = scrapeFields(version);
  const read = readFirecrawlBody(raw, {
    ...fields,
    accepted: fields.accepted.filter((key) => key !== "url"),
  });
  const body = validate(ScrapeBody, { ...read, url: SOME_URL });
  const { request, asked } = toScrapeRequest(body, version, accountId);
  return { request, asked };
}

/** The same options as the pages of a job: kept with the job, each page's URL set as it is scraped. */
export function jobPages(raw: unknown, version: 1 | 2, accountId: string): ScrapePages {
  const { request, asked } = pageOptions(raw, version, accountId);
  const { url: _url, ...fetch } = request.fetch;
  const view: FirecrawlPageView = { asked };
  const pages: ScrapePages = { fetch, timeoutMs: request.timeoutMs, view };
  if (request.summary) pages.summary = true;
  if (request.branding) pages.branding = true;
  if (request.changeTracking) pages.changeTracking = request.changeTracking;
  if (request.screenshot) pages.screenshot = request.screenshot;
  return pages;
}

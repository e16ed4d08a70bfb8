import { pageCredits } from "../pipeline/credits.ts";
import { type FetchDeps, fetchPage } from "../pipeline/fetch-page.ts";
import type { ExtractResult } from "../schemas/extract.ts";
import { FetchBody } from "../schemas/fetch.ts";
import { validate } from "../schemas/validate.ts";
import { extractAuto, extractPage } from "./index.ts";
import type { ExtractDeps } from "./inline.ts";
import type { ExtractRequest } from "./request.ts";

/** One extraction and what the transport meters. */
export interface UrlExtraction {
  result: ExtractResult;
  /** What the page cost (pageCredits): 1 when it came from its site, 0 for a cache hit. */
  credits: number;
  degraded?: string;
}

/** The page as extraction reads it: main content as markdown, and the HTML as served (or rendered). */
async function fetchForExtraction(url: string, deps: FetchDeps) {
  const input = validate(FetchBody, { url, formats: ["markdown", "rawHtml"], onlyMainContent: true });
  const outcome = await fetchPage(input, deps);
  const { result } = outcome;
  return {
    outcome,
    page: {
      url: result.url,
      title: result.title,
      html: result.rawHtml ?? "",
      markdown: result.markdown ?? result.content,
    },
  };
}

/** Fetches a URL through the pipeline (cache, escalation, SSRF) and extracts from it. */
export async function extractUrl(
  url: string,
  request: ExtractRequest,
  deps: ExtractDeps,
): Promise<UrlExtraction> {
  const { outcome, page } = await fetchForExtraction(url, deps);
  const result = await extractPage(page, request, {
    config: deps.config,
    signal: deps.signal,
    apiBasePolicy: deps.apiBasePolicy,
    log: deps.llmLog,
  });
  return { result, credits: pageCredits(outcome), degraded: outcome.degraded };
}

/** Fetches a URL and returns everything structured on it, grouped by type. */
export async function extractUrlAuto(url: string, deps: FetchDeps): Promise<UrlExtraction> {
  const { outcome, page } = await fetchForExtraction(url, deps);
  return { result: extractAuto(page), credits: pageCredits(outcome), degraded: outcome.degraded };
}

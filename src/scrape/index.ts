import { type BrandingProfile, fetchBranding } from "../branding/index.ts";
import { type ChangeReport, trackChanges } from "../changes/index.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import type { LlmTarget } from "../llm/index.ts";
import type { FetchOutcome } from "../pipeline/fetch-page.ts";
import { takeScreenshot } from "../pipeline/screenshot.ts";
import type { FetchInput } from "../schemas/fetch.ts";
import { ScreenshotBody } from "../schemas/screenshot.ts";
import { validate } from "../schemas/validate.ts";
import { type ExtractDeps, fetchAndExtract } from "../structured/inline.ts";
import { type SummaryOutcome, serviceLlm, summarize } from "../summary/index.ts";
import { withDeadline } from "./deadline.ts";
import { type PageMetaTags, pageMetaTags } from "./meta-tags.ts";

export { withDeadline } from "./deadline.ts";
export { type PageMetaTags, pageMetaTags } from "./meta-tags.ts";

/**
 * A scrape: one fetch of a page (the pipeline, with inline extraction) and what can be made of
 * that one answer besides its formats: its meta tags, a summary, its branding and how it
 * changed since the previous scrape. The Firecrawl-shaped API maps its requests onto this.
 */
export interface ScrapeRequest {
  /** The fetch: a validated FetchBody (formats, extract or a json format, LLM fields, cache). */
  fetch: FetchInput;
  /** Whose scrape it is: change tracking compares with the same account's previous scrape. */
  accountId: string;
  /** The whole scrape, summary and branding included, answers within this or fails with timeout. */
  timeoutMs: number;
  summary?: boolean;
  branding?: boolean;
  /** Compare with the previous scrape of the URL (and tag); `record` false leaves no snapshot. */
  changeTracking?: { gitDiff: boolean; tag: string; record: boolean };
  /**
   * A screenshot with options the pipeline's own capture lacks (JPEG quality, a viewport),
   * taken by the screenshot pipeline beside the fetch; the fetch then captures nothing.
   */
  screenshot?: { fullPage: boolean; quality?: number; width?: number; height?: number };
}

/** The fetch's outcome and the rest of the scrape. */
export interface ScrapeOutcome extends FetchOutcome {
  /** The page's meta tags (HTML pages). */
  meta?: PageMetaTags;
  summary?: SummaryOutcome;
  branding?: BrandingProfile;
  changeTracking?: ChangeReport;
  /** The screenshot of `ScrapeRequest.screenshot`, as a data: URL. */
  screenshot?: string;
  /** What was asked for and could not be made of this page (branding of a PDF). */
  warnings: string[];
}

const hasExtraction = (input: FetchInput) =>
  input.extract !== undefined ||
  (input.formats ?? []).some(
    (f) => f === "json" || (typeof f === "object" && f !== null && (f as { type?: unknown }).type === "json"),
  );

const callerLlm = (input: FetchInput): LlmTarget | undefined =>
  input.llmProvider !== undefined || input.llmApiKey !== undefined
    ? {
        provider: input.llmProvider ?? "openai",
        apiKey: input.llmApiKey,
        model: input.llmModel,
        apiBase: input.llmApiBase,
      }
    : undefined;

/**
 * Which LLM a scrape uses for extraction and summary: the caller's (llmProvider, llmApiKey,
 * llmModel, llmApiBase) when given, else the operator's (SIPHON_LLM_*), else none (heuristic
 * extraction from a schema, an extractive summary).
 */
function scrapeLlm(input: FetchInput, deps: ExtractDeps) {
  const caller = callerLlm(input);
  if (caller) return { target: caller, policy: deps.apiBasePolicy };
  const service = serviceLlm(deps.config);
  // The operator's base URL is configuration, trusted like SIPHON_<VENDOR>_BASE_URL.
  return { target: service, policy: service ? ("trust" as const) : deps.apiBasePolicy };
}

/** The fetch to make: markdown and raw HTML added (the rest of the scrape reads them), LLM fields only with an extraction. */
function fetchInputFor(request: ScrapeRequest, llm: LlmTarget | undefined): FetchInput {
  const { llmProvider: _p, llmApiKey: _k, llmModel: _m, llmApiBase: _b, ...rest } = request.fetch;
  let formats = [...(rest.formats ?? [rest.format])];
  if (request.screenshot) {
    formats = formats.filter(
      (f) =>
        f !== "screenshot" && !(typeof f === "object" && (f as { type?: unknown })?.type === "screenshot"),
    );
  }
  for (const format of ["markdown", "rawHtml"]) if (!formats.includes(format)) formats.push(format);
  const input: FetchInput = { ...rest, formats };
  // A comparison with the previous scrape is only worth making against the page as it is now.
  if (request.changeTracking) input.maxAge = 0;
  if (llm && hasExtraction(request.fetch)) {
    input.llmProvider = llm.provider;
    if (llm.apiKey !== undefined) input.llmApiKey = llm.apiKey;
    if (llm.model !== undefined) input.llmModel = llm.model;
    if (llm.apiBase !== undefined) input.llmApiBase = llm.apiBase;
  }
  return input;
}

/**
 * Scrapes one page: fetches it once (escalating as the pipeline does, with inline extraction),
 * takes a screenshot beside it when its options need the screenshot pipeline, then reads the
 * page's meta tags and, as asked, summarises it, reads its branding and compares it with the
 * previous scrape. Everything answers within `timeoutMs` or throws SiphonError timeout; other
 * failures are the pipeline's and the LLM module's SiphonErrors. The result always carries
 * `markdown` and `rawHtml` (the caller drops what it was not asked for).
 */
export async function scrapePage(request: ScrapeRequest, deps: ExtractDeps): Promise<ScrapeOutcome> {
  const llm = scrapeLlm(request.fetch, deps);
  const now = deps.now ?? Date.now;
  return withDeadline(request.timeoutMs, deps.signal, async (signal) => {
    const run: ExtractDeps = { ...deps, signal, apiBasePolicy: llm.policy };
    // Past the weekly quota a scrape runs HTTP-only: no browser for a screenshot either.
    const shot = deps.httpOnly ? undefined : request.screenshot;
    const [outcome, image] = await Promise.all([
      fetchAndExtract(fetchInputFor(request, llm.target), run),
      shot
        ? takeScreenshot(
            validate(ScreenshotBody, {
              url: request.fetch.url,
              fullPage: shot.fullPage,
              width: shot.width,
              height: shot.height,
              format: shot.quality !== undefined ? "jpeg" : "png",
              quality: shot.quality,
              waitFor: request.fetch.wait,
              timeout: Math.min(120_000, Math.max(1000, request.timeoutMs)),
              stealth: request.fetch.stealth,
              actions: request.fetch.actions,
              headers: request.fetch.headers,
              cookies: request.fetch.cookies,
            }),
            run,
          )
        : undefined,
    ]);
    const { result } = outcome;
    const html = result.contentType === "html" ? (result.rawHtml ?? "") : undefined;
    const markdown = result.markdown ?? result.content;
    const scraped: ScrapeOutcome = { ...outcome, warnings: [] };
    if (image) scraped.screenshot = image.data.screenshot;
    if (request.screenshot && !shot) scraped.warnings.push("The screenshot was skipped (HTTP only).");
    if (html !== undefined) scraped.meta = pageMetaTags(html, result.url);
    const [summary, branding] = await Promise.all([
      request.summary
        ? summarize({ markdown, title: result.title }, llm.target, { ...run, log: deps.llmLog })
        : undefined,
      request.branding && html !== undefined ? fetchBranding({ html, url: result.url }, run) : undefined,
    ]);
    if (summary) scraped.summary = summary;
    if (branding) scraped.branding = branding;
    if (request.branding && html === undefined) {
      scraped.warnings.push(`Branding needs an HTML page; this one is ${result.contentType}.`);
    }
    const tracking = request.changeTracking;
    if (tracking) {
      scraped.changeTracking = await trackChanges(
        deps.store.snapshots,
        {
          accountId: request.accountId,
          url: parseTargetUrl(request.fetch.url).href,
          tag: tracking.tag,
          markdown,
          statusCode: result.statusCode,
          scrapedAt: now(),
        },
        { gitDiff: tracking.gitDiff, record: tracking.record },
      );
    }
    return scraped;
  });
}

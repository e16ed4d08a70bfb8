import type { BrandingProfile } from "../branding/index.ts";
import type { ChangeReport } from "../changes/index.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import type { QuestionOutcome } from "../question/index.ts";
import type { FetchResult } from "../schemas/fetch.ts";
import { deepFreeze } from "../schemas/freeze.ts";
import { withDeadline } from "../scrape/deadline.ts";
import { type PageMetaTags, pageMetaTags } from "../scrape/meta-tags.ts";
import type { ExtractDeps } from "../structured/inline.ts";
import { type SummaryOutcome, summarize } from "../summary/index.ts";
import { pageCredits, pageTokens } from "./credits.ts";
import { readDocument } from "./document.ts";
import { type FetchOutcome, fetchPage } from "./fetch-page.ts";
import { planScrape, type ScrapePlan, type ScrapeRequest } from "./scrape-plan.ts";
import { takeScreenshot } from "./screenshot.ts";

export type { ScrapeRequest } from "./scrape-plan.ts";

/** What a scrape needs: the pipeline's deps, how to treat a caller's llmApiBase, a log for LLM warnings. */
export type ScrapeDeps = ExtractDeps;

/** A scrape's answer: the Fetch result (every asked field in it) and what it cost. */
export interface ScrapeOutcome extends FetchOutcome {
  /** What the page cost (pageCredits): the number every surface reports and charges. */
  credits: number;
  /** The LLM tokens it used (pageTokens): extraction, summary, answer; the request log keeps them. */
  tokens: number;
  /** The page's meta tags (HTML pages, when ScrapeRequest.meta asks). */
  meta?: PageMetaTags;
  summary?: SummaryOutcome;
  branding?: BrandingProfile;
  changeTracking?: ChangeReport;
  /** The question format's answer, and how it was made. */
  question?: QuestionOutcome;
  /** The screenshot taken beside the fetch (a quality or a viewport), as a data: URL. */
  screenshot?: string;
  /** What was asked for and could not be made of this page (branding of a PDF); also in `result.warning`. */
  warnings: string[];
}

interface KnownPlan {
  config: ScrapeDeps["config"];
  policy: ScrapeDeps["apiBasePolicy"];
  plan: ScrapePlan;
}

/**
 * Plans of plain scrapes (a page and whose it is, nothing else) of frozen inputs, which a route
 * shares between the requests that send the same query: the plan is a function of the input,
 * the configuration and the LLM base policy, and its fetch is frozen too, so fetchPage can keep
 * its own layout of it (src/pipeline/fetch-page.ts).
 */
const plans = new WeakMap<ScrapeRequest["fetch"], KnownPlan>();
/** What a scrape may ask for besides a page: a plain scrape asks for none of it. */
const EXTRAS = {
  timeoutMs: true,
  summary: true,
  branding: true,
  changeTracking: true,
  screenshot: true,
  meta: true,
  serviceLlm: true,
  document: true,
} satisfies Record<Exclude<keyof ScrapeRequest, "fetch" | "accountId">, true>;
const EXTRA_KEYS = Object.keys(EXTRAS) as (keyof typeof EXTRAS)[];

/** The request's plan; a known one is answered at once (no promise: a cached fetch awaits less). */
function planOf(request: ScrapeRequest, deps: ScrapeDeps): ScrapePlan | Promise<ScrapePlan> {
  if (!Object.isFrozen(request.fetch)) return planScrape(request, deps);
  for (const key of EXTRA_KEYS) if (request[key] !== undefined) return planScrape(request, deps);
  const known = plans.get(request.fetch);
  if (known && known.config === deps.config && known.policy === deps.apiBasePolicy) return known.plan;
  return planScrape(request, deps).then((plan) => {
    deepFreeze(plan.fetch);
    plans.set(request.fetch, { config: deps.config, policy: deps.apiBasePolicy, plan });
    return plan;
  });
}

/** The summary, branding and answer a plan asks for, made side by side from the page's text. */
function besideText(
  plan: ScrapePlan,
  text: { markdown: string; title: string },
  html: string | undefined,
  url: string,
  deps: ScrapeDeps,
  llmDeps: Parameters<typeof summarize>[2],
) {
  return Promise.all([
    plan.summary ? summarize(text, plan.llm.target, llmDeps) : undefined,
    plan.branding && html !== undefined
      ? import("../branding/index.ts").then(({ fetchBranding }) => fetchBranding({ html, url }, deps))
      : undefined,
    plan.question
      ? import("../question/index.ts").then(({ answerFromPage }) =>
          answerFromPage(text, plan.question as NonNullable<typeof plan.question>, plan.llm.target, llmDeps),
        )
      : undefined,
  ]);
}

/**
 * Runs the plan: the fetch (and a screenshot beside it), then what is made of its one answer. The
 * steps only some requests ask for (extraction, branding, change tracking, attributes, highlights,
 * a question) are imported when asked: a plain fetch would otherwise load them all at start-up.
 */
async function run(plan: ScrapePlan, request: ScrapeRequest, deps: ScrapeDeps): Promise<ScrapeOutcome> {
  // Past the weekly quota a scrape runs HTTP-only: no browser for a screenshot either.
  const shot = deps.httpOnly ? undefined : plan.screenshot;
  // The tokenizer loads on the chunking thread while the page is fetched.
  if (plan.chunks) deps.engines.startChunking?.(plan.chunks.tokenizer);
  const fetching = request.document
    ? readDocument(plan.fetch, request.document, deps)
    : fetchPage(plan.fetch, deps);
  const [fetched, image] = shot
    ? await Promise.all([fetching, takeScreenshot(shot, deps)])
    : [await fetching, undefined];
  const result: FetchResult = { ...fetched.result };
  const html = result.contentType === "html" ? (result.rawHtml ?? "") : undefined;
  const markdown = result.markdown ?? result.content;
  const warnings: string[] = [];
  const outcome: ScrapeOutcome = { ...fetched, result, credits: 0, tokens: 0, warnings };
  if (image) {
    outcome.screenshot = image.data.screenshot;
    result.screenshot = Buffer.from(image.image.data).toString("base64");
  }
  if (plan.screenshot && !shot) warnings.push("The screenshot was skipped (HTTP only).");
  if (plan.meta && html !== undefined) outcome.meta = pageMetaTags(html, result.url);

  const llmDeps = {
    config: deps.config,
    signal: deps.signal,
    apiBasePolicy: plan.llm.policy,
    log: deps.llmLog,
  };
  if (plan.extraction) {
    const page = { url: result.url, title: result.title, html: result.rawHtml ?? "", markdown };
    const { extractPage } = await import("../structured/index.ts");
    const extracted = await extractPage(page, plan.extraction, llmDeps);
    result.json = extracted.data;
    if (extracted.tokensUsed) result.extractTokensUsed = extracted.tokensUsed;
  }
  const text = { markdown, title: result.title };
  const [summary, branding, question] =
    plan.summary || plan.branding || plan.question
      ? await besideText(plan, text, html, result.url, deps, llmDeps)
      : [undefined, undefined, undefined];
  if (plan.attributes) {
    const { readAttributes } = await import("../structured/attributes.ts");
    result.attributes = readAttributes(result.rawHtml ?? "", plan.attributes);
  }
  if (plan.chunks) {
    // On the extraction threads when there are some: the tokenizer's CPU stays off the event loop.
    const chunk = deps.engines.chunk ?? (await import("../extract/pool.ts")).chunkInline;
    result.chunks = await chunk({
      markdown,
      page: { url: result.url, title: result.title },
      options: plan.chunks,
    });
  }
  if (plan.highlights) {
    const { pageHighlights } = await import("../ask/page.ts");
    result.highlights = pageHighlights(text, plan.highlights.query);
  }
  if (question) {
    outcome.question = question;
    result.answer = question.answer;
    result.answerMethod = question.method;
    if (question.tokensUsed) {
      result.answerTokensUsed = { input: question.tokensUsed.input, output: question.tokensUsed.output };
    }
  }
  if (summary) {
    outcome.summary = summary;
    result.summary = summary.summary;
    if (summary.tokensUsed) {
      result.summaryTokensUsed = { input: summary.tokensUsed.input, output: summary.tokensUsed.output };
    }
  }
  if (branding) {
    outcome.branding = branding;
    result.branding = branding as unknown as Record<string, unknown>;
  }
  if (plan.branding && html === undefined) {
    warnings.push(`Branding needs an HTML page; this one is ${result.contentType}.`);
  }
  const tracking = plan.changeTracking;
  if (tracking) {
    const { trackChanges } = await import("../changes/index.ts");
    outcome.changeTracking = await trackChanges(
      deps.store.snapshots,
      {
        accountId: request.accountId,
        url: parseTargetUrl(request.fetch.url).href,
        tag: tracking.tag,
        markdown,
        statusCode: result.statusCode,
        scrapedAt: (deps.now ?? Date.now)(),
      },
      { gitDiff: tracking.gitDiff, record: tracking.record },
    );
    result.changeTracking = outcome.changeTracking as unknown as Record<string, unknown>;
  }
  for (const field of plan.added) delete (result as Record<string, unknown>)[field];
  if (warnings.length) result.warning = [result.warning, ...warnings].filter(Boolean).join(" ");
  outcome.credits = pageCredits({ cache: fetched.cache, screenshotBeside: image !== undefined });
  outcome.tokens = pageTokens(result);
  return outcome;
}

/**
 * The one page operation every surface calls (POST and GET /v1/fetch, Firecrawl's scrape, MCP's
 * siphon_fetch, the CLI's fetch, the playground, batch and crawl pages, search with scraping):
 * fetches the page once (cache, escalation, SSRF, every format), takes a screenshot beside it
 * when one asks for a quality or a viewport, extracts into `json`, summarises, reads the
 * branding, attribute values, highlights and an answer to a question, and compares with the
 * previous scrape, as asked; and decides what it cost
 * (`credits`, pageCredits), with the cache state and any degradation. The whole of it answers
 * within the request's timeout, when it has one, or throws SiphonError timeout. Throws
 * invalid_request before fetching for what the request gets wrong, and the pipeline's and the
 * LLM module's SiphonErrors.
 */
export function scrape(request: ScrapeRequest, deps: ScrapeDeps): Promise<ScrapeOutcome> {
  // Not async: a known plan's run is answered as run's own promise, without another one around it.
  let planned: ScrapePlan | Promise<ScrapePlan>;
  try {
    planned = planOf(request, deps);
  } catch (error) {
    return Promise.reject(error);
  }
  return planned instanceof Promise
    ? planned.then((plan) => runInTime(plan, request, deps))
    : runInTime(planned, request, deps);
}

/** Runs the plan within the request's timeout, when it has one. */
function runInTime(plan: ScrapePlan, request: ScrapeRequest, deps: ScrapeDeps): Promise<ScrapeOutcome> {
  if (plan.timeoutMs === undefined) return run(plan, request, deps);
  return withDeadline(plan.timeoutMs, deps.signal, (signal) => run(plan, request, { ...deps, signal }));
}

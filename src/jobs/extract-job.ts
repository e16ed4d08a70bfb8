import type { Config } from "../config.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import type { LlmDeps } from "../llm/index.ts";
import type { ExtractInput, ExtractJobPoll, ExtractResult } from "../schemas/extract.ts";
import { DEFAULT_MAX_CONCURRENCY } from "../schemas/jobs.ts";
import type { JobItem, JobRecord, Store } from "../store/types.ts";
import { extractUrl } from "../structured/fetch.ts";
import { type ExtractRequest, extractRequest } from "../structured/index.ts";
import type { ExtractDeps } from "../structured/inline.ts";
import { serviceLlm } from "../summary/index.ts";
import { type JobOwner, newJob } from "./submit.ts";
import type { JobSurface, SurfaceSubmit } from "./surface.ts";
import { checkWebhookTarget } from "./webhooks.ts";

/** What POST /v1/extract was asked: one page answered at once, or several as a job. */
export type ExtractTargets = { url: string } | { urls: string[] };

/**
 * Reads `url` and `urls` of an extract request: exactly one of them, and a webhook only with
 * `urls` (a single page answers at once, with no job to report on).
 * Throws SiphonError invalid_request naming the fields.
 */
export function extractTargets(input: ExtractInput): ExtractTargets {
  if (input.url !== undefined && input.urls !== undefined) {
    throw new SiphonError("invalid_request", "Give url or urls, not both", {
      hint: "url extracts one page at once; urls (up to 100) starts a job that merges the pages.",
    });
  }
  if (input.urls !== undefined) return { urls: input.urls };
  if (input.url === undefined) {
    throw new SiphonError("invalid_request", "url or urls is required", {
      hint: 'e.g. {"url": "https://example.com/product", "schema": {…}}',
    });
  }
  if (input.webhook) {
    throw new SiphonError("invalid_request", "webhook needs urls: a single url answers at once", {
      hint: 'Send "urls": ["…"] to run the extraction as a job that calls the webhook.',
    });
  }
  return { url: input.url };
}

/** The checked extraction of an extract request (what, and with which LLM); throws invalid_request. */
export function extractRequestOf(input: ExtractInput): Promise<ExtractRequest> {
  return extractRequest(input, input);
}

/**
 * The checked extraction of an extract job: the request's own LLM fields, or, for a job another
 * surface started without any (`serviceLlm`), the operator's (SIPHON_LLM_*), whose base URL is
 * trusted as configuration (`policy` "trust"). Throws invalid_request as extractRequest does.
 */
export async function extractRequestFor(
  input: ExtractInput,
  surface: JobSurface | undefined,
  config: Config,
): Promise<{ request: ExtractRequest; policy?: LlmDeps["apiBasePolicy"] }> {
  const service = surface?.serviceLlm ? serviceLlm(config) : undefined;
  if (!service) return { request: await extractRequestOf(input) };
  const fields = {
    llmProvider: service.provider,
    llmApiKey: service.apiKey,
    llmModel: service.model,
    llmApiBase: service.apiBase,
  };
  return { request: await extractRequest(input, fields), policy: "trust" };
}

/**
 * Checks a several-URL extract request as far as it can be checked before running (the
 * extraction: schema, prompt, selectors and LLM fields; the webhook target) and stores it
 * queued as a job `extract_<uuid>` with one item per URL (duplicates once). URLs are checked
 * when each page is fetched, so a bad one fails as its own item. The LLM key is kept in the
 * stored input while the job runs (a job a dead server left is run again) and erased by the
 * runner when it ends, whatever the end. Another surface (`extra`) gives its own webhook and
 * may ask for the operator's LLM.
 * Throws SiphonError invalid_request, invalid_url or forbidden_url.
 */
export async function submitExtract(
  input: ExtractInput,
  owner: JobOwner,
  deps: { store: Store; config: Config; now: number },
  extra?: SurfaceSubmit,
): Promise<JobRecord> {
  const targets = extractTargets(input);
  if (!("urls" in targets)) throw new SiphonError("invalid_request", "An extraction job needs urls");
  await extractRequestFor(input, extra?.surface, deps.config);
  const webhook = extra ? extra.webhook : input.webhook;
  if (webhook) checkWebhookTarget(webhook.url, deps.config);
  const { webhook: _webhook, ...rest } = input;
  const stored = extra ? { ...rest, surface: extra.surface } : rest;
  const job = newJob("extract", owner, stored, webhook, deps.now);
  await deps.store.jobs.create(
    job,
    targets.urls.map((url) => ({ url, depth: 0 })),
  );
  return (await deps.store.jobs.get(job.id)) as JobRecord;
}

const isEmpty = (value: unknown) => value === null || value === undefined;

/**
 * Merges the data of several pages, given in the order of the request's urls: a field whose
 * first non-null value is an array gets every page's array for it, concatenated; any other
 * field (scalar or object) is the first page's non-null value; a field no page filled is null.
 */
export function mergeExtractions(pages: Record<string, unknown>[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const data of pages) {
    for (const [field, value] of Object.entries(data)) {
      const have = merged[field];
      if (Array.isArray(have)) {
        if (Array.isArray(value)) merged[field] = [...have, ...value];
      } else if (isEmpty(have)) merged[field] = Array.isArray(value) ? [...value] : (value ?? null);
    }
  }
  return merged;
}

/** One page of an extraction job as kept: its extraction, or `{url, error}`. */
export type ExtractPage = ExtractJobPoll["results"][number];

/** The pages that were extracted (failed ones left out), in the order given. */
const extracted = (pages: ExtractPage[]): ExtractResult[] =>
  pages.filter((page): page is ExtractResult => !("error" in page));

/** LLM tokens of every page, or undefined when no page used the LLM. */
function tokensOf(results: ExtractResult[]): { input: number; output: number } | undefined {
  const used = results.map((r) => r.tokensUsed).filter((t) => t !== undefined);
  if (!used.length) return undefined;
  return used.reduce((sum, t) => ({ input: sum.input + t.input, output: sum.output + t.output }), {
    input: 0,
    output: 0,
  });
}

/** The merged data of the pages (in the order of urls) and their LLM tokens, when any. */
export function extractSummary(pages: ExtractPage[]): {
  data: Record<string, unknown>;
  tokensUsed?: { input: number; output: number };
} {
  const results = extracted(pages);
  const tokensUsed = tokensOf(results);
  return { data: mergeExtractions(results.map((r) => r.data)), ...(tokensUsed ? { tokensUsed } : {}) };
}

/**
 * The finished items of an extraction job as its pages, in the order of the request's urls (the
 * store reads them in the order they finished): the merge takes a field from the first page in
 * that order, and the poll lists them so.
 */
export function pagesOf(job: Pick<JobRecord, "input">, items: JobItem[]): ExtractPage[] {
  const place = new Map<string, number>();
  for (const [i, url] of ((job.input as { urls?: string[] } | null)?.urls ?? []).entries()) {
    if (!place.has(url)) place.set(url, i);
  }
  const at = (item: JobItem) => place.get(item.url) ?? Number.MAX_SAFE_INTEGER;
  return [...items].sort((a, b) => at(a) - at(b)).map((item) => item.data as ExtractPage);
}

/** How a job whose pages all failed ends (the page pool's rule, for crawl and batch too). */
export const ALL_PAGES_FAILED = "Every page of the job failed";

/** The job state an extraction view reads. */
export type ExtractJobState = Pick<
  JobRecord,
  "status" | "total" | "completed" | "failed" | "creditsUsed" | "expiresAt" | "error"
>;

/** The poll's body but for what the poll adds: success, progress, next and the job's activity (src/jobs/activity.ts). */
export type ExtractJobViewBody = Omit<
  ExtractJobPoll,
  "success" | "progress" | "next" | "lastProgressAt" | "warning"
>;

/**
 * GET /v1/extract/:id from the job and all its pages (in the order of urls): state and
 * counters, the merged data once completed, and the per-page results from `skip` (at most
 * `limit`). Never the input, so never a key. `progress` and `next` are the transport's.
 */
export function extractJobView(
  job: ExtractJobState,
  pages: ExtractPage[],
  skip: number,
  limit: number,
): ExtractJobViewBody {
  const view: ExtractJobViewBody = {
    status: job.status,
    total: job.total,
    completed: job.completed + job.failed,
    failed: job.failed,
    creditsUsed: job.creditsUsed,
    expiresAt: job.expiresAt === null ? null : new Date(job.expiresAt).toISOString(),
    results: pages.slice(skip, skip + limit),
  };
  const summary = extractSummary(pages);
  if (job.status === "completed") view.data = summary.data;
  if (summary.tokensUsed) view.tokensUsed = summary.tokensUsed;
  if (job.error) view.error = job.error;
  return view;
}

/**
 * Extracts from several pages in this process (the CLI without a server), up to `parallel`
 * at once, duplicates once: the pages in the order of urls, each its extraction or `{url,
 * error}`, and the job state a job of them would have ended in.
 */
export async function extractMany(
  urls: string[],
  request: ExtractRequest,
  deps: ExtractDeps,
  parallel = DEFAULT_MAX_CONCURRENCY,
): Promise<{ job: ExtractJobState; pages: ExtractPage[] }> {
  const unique = [...new Set(urls)];
  const pages: ExtractPage[] = new Array(unique.length);
  let credits = 0;
  let next = 0;
  // A pool: each worker takes the next URL as soon as its page is done.
  const worker = async () => {
    for (let i = next++; i < unique.length; i = next++) {
      const url = unique[i] as string;
      try {
        const outcome = await extractUrl(url, request, deps);
        credits += outcome.credits;
        pages[i] = outcome.result;
      } catch (raw) {
        const error = toSiphonError(raw);
        pages[i] = { url, error: { type: error.type, message: error.message } };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, unique.length) }, worker));
  const failed = pages.filter((page) => "error" in page).length;
  const allFailed = failed === pages.length;
  const job: ExtractJobState = {
    status: allFailed ? "failed" : "completed",
    total: pages.length,
    completed: pages.length - failed,
    failed,
    creditsUsed: credits,
    expiresAt: null,
    error: allFailed ? ALL_PAGES_FAILED : null,
  };
  return { job, pages };
}

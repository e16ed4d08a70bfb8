import type { Config } from "../config.ts";
import { normalizeUrl } from "../crawl/normalize.ts";
import { sitemapUse } from "../crawl/sitemap.ts";
import { SiphonError } from "../errors.ts";
import { createSsrfGuard, parseAllowList } from "../fetch/ssrf.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { resolveFormats } from "../pipeline/formats.ts";
import { FetchBody, type FetchInput } from "../schemas/fetch.ts";
import { type BatchInput, type CrawlInput, ScrapeOptions } from "../schemas/jobs.ts";
import { validate } from "../schemas/validate.ts";
import type { JobRecord, NewJob, Store } from "../store/types.ts";
import { inlineRequest, isJsonFormat } from "../structured/inline.ts";
import { compilePatterns } from "./crawl-plan.ts";
import type { ScrapePages, SurfaceSubmit } from "./surface.ts";
import { checkWebhookTarget } from "./webhooks.ts";

/** Ids name their job's type (DECISIONS.md: agent jobs are `job_<uuid>`). */
/** The prefix of each job type's ids (crawl_<uuid>…): ids name their type. */
export const ID_PREFIX: Record<JobRecord["type"], string> = {
  crawl: "crawl_",
  batch: "batch_",
  agent: "job_",
  extract: "extract_",
  llmstxt: "llmstxt_",
};

/** Who a job belongs to: its account, and the API key it was started with (null: none). */
export interface JobOwner {
  accountId: string;
  keyId?: string | null;
}

/** A queued job of `type` with a fresh id, ready for the store. */
export function newJob(
  type: JobRecord["type"],
  owner: JobOwner,
  input: unknown,
  webhook: unknown,
  at: number,
): NewJob {
  const prefix = ID_PREFIX[type];
  return {
    id: `${prefix}${crypto.randomUUID()}`,
    type,
    status: "queued",
    accountId: owner.accountId,
    keyId: owner.keyId ?? null,
    input,
    webhook: webhook ?? null,
    error: null,
    createdAt: at,
    updatedAt: at,
    finishedAt: null,
    expiresAt: null,
  };
}

/**
 * Checks a job's per-page fetch options before the job exists, as fetchAndExtract reads them on
 * every page (src/structured/inline.ts): the formats other than json resolve, and the extraction
 * (`extract`, or one json formats entry) is one extractRequest accepts; LLM fields come with an
 * extraction. Every page would fail the same way: say so now, not once per page.
 * Throws SiphonError invalid_request.
 */
async function checkPageOptions(input: FetchInput): Promise<void> {
  resolveFormats({ ...input, formats: (input.formats ?? []).filter((entry) => !isJsonFormat(entry)) });
  await inlineRequest(input);
}

/** Pages that are scrapes are checked as their fetch is: the same rules, the same 400s. */
function checkScrapePages(pages: ScrapePages, url: string): Promise<void> {
  return checkPageOptions(validate(FetchBody, JSON.parse(JSON.stringify({ ...pages.fetch, url }))));
}

/**
 * Longest a submit waits on DNS to check its URLs. A name not answered by then is not refused
 * here: the guard checks it again when its page is fetched, as it checks every fetch.
 */
const SUBMIT_DNS_MS = 3_000;

/**
 * The URLs the SSRF guard refuses, each with its refusal (forbidden_url): localhost names,
 * internal addresses, and names that resolve to one, checked at submit as a fetch is at once.
 * A URL the rules refuse otherwise, a name that does not resolve, or does not in time, is not
 * in the answer: the job finds out when it fetches. Nothing is checked with SSRF protection off.
 */
export async function refusedUrls(
  urls: readonly string[],
  config: Config,
): Promise<Map<string, SiphonError>> {
  const refused = new Map<string, SiphonError>();
  if (config.disableSsrfProtection) return refused;
  const guard = createSsrfGuard({ enabled: true, allow: parseAllowList(config.ssrfAllow) });
  const signal = AbortSignal.timeout(SUBMIT_DNS_MS);
  await Promise.all(
    [...new Set(urls)].map(async (raw) => {
      let url: URL;
      try {
        url = parseTargetUrl(raw);
      } catch {
        return;
      }
      try {
        await guard.check(url, signal);
      } catch (error) {
        if (error instanceof SiphonError && error.type === "forbidden_url") refused.set(raw, error);
      }
    }),
  );
  return refused;
}

/** The stored input and webhook of a job another surface submits (`extra`), or the input's own. */
function surfaced<T extends object>(input: T, webhook: unknown, extra: SurfaceSubmit | undefined) {
  return extra
    ? { input: { ...input, surface: extra.surface }, webhook: extra.webhook }
    : { input: input as T, webhook };
}

/**
 * Checks a crawl request as far as it can be checked before running (start
 * URL rules, a start URL the SSRF guard refuses (refusedUrls), path patterns,
 * the page options with their extraction, webhook target) and stores it queued. Another
 * surface (`extra`) may make its pages scrapes and give its own webhook.
 * Throws SiphonError invalid_request, invalid_url or forbidden_url; a job that
 * is accepted is never lost.
 */
export function submitCrawl(
  input: CrawlInput,
  owner: JobOwner,
  deps: { store: Store; config: Config; now: number },
  extra?: SurfaceSubmit,
): Promise<JobRecord> {
  return createCrawlJob("crawl", input, owner, deps, extra);
}

/**
 * Checks and stores a job that crawls as `input` says: a crawl, or another type that runs a crawl
 * (llmstxt), which keeps its own request (`stored`) and builds the crawl from it when it runs.
 */
export async function createCrawlJob(
  type: "crawl" | "llmstxt",
  input: CrawlInput,
  owner: JobOwner,
  deps: { store: Store; config: Config; now: number },
  extra?: SurfaceSubmit,
  stored?: unknown,
): Promise<JobRecord> {
  const start = parseTargetUrl(input.url);
  compilePatterns(input.includePaths, "includePaths");
  compilePatterns(input.excludePaths, "excludePaths");
  // The crawl's own location and languages are its pages' (src/jobs/spec.ts): checked as a fetch's.
  const languages = typeof input.languages === "string" ? [input.languages] : input.languages;
  const own = JSON.parse(JSON.stringify({ location: input.location, languages }));
  if (input.scrapeOptions || Object.keys(own).length)
    await checkPageOptions(validate(FetchBody, { ...input.scrapeOptions, ...own, url: input.url }));
  if (extra?.surface.pages) await checkScrapePages(extra.surface.pages, input.url);
  const kept = surfaced(input, input.webhook, extra);
  if (kept.webhook) checkWebhookTarget((kept.webhook as { url: string }).url, deps.config);
  const refusal = (await refusedUrls([input.url], deps.config)).get(input.url);
  if (refusal) throw refusal;
  const job = newJob(
    type,
    owner,
    stored === undefined ? kept.input : surfaced(stored as object, undefined, extra).input,
    kept.webhook,
    deps.now,
  );
  // With sitemap "only" the crawl is the sitemaps' URLs, which the job finds when it runs.
  const first = sitemapUse(input) === "only" ? [] : [{ url: normalizeUrl(start) ?? start.href, depth: 0 }];
  await deps.store.jobs.create(job, first);
  return (await deps.store.jobs.get(job.id)) as JobRecord;
}

/** What a batch item's fetch takes from the batch body: every field scrapeOptions has (format and formats aside). */
const PAGE_FIELDS = Object.keys(ScrapeOptions.properties).filter(
  (key) => key !== "format" && key !== "formats",
);

/**
 * A batch's formats for each page: `format` first (it sets content), then the rest of `formats`;
 * markdown when neither is given, as batches have always had it.
 */
function pageFormats(format: string | undefined, formats: unknown[] | undefined): unknown[] {
  if (!format) return formats ?? ["markdown"];
  return [format, ...(formats ?? []).filter((entry) => entry !== format)];
}

/**
 * The fetch request of one page of a batch: the batch's page options (render, onlyMainContent,
 * includeTags, …, extract with the LLM fields) and its formats, checked as POST /v1/fetch's body.
 * Throws SiphonError invalid_request.
 */
export function batchPageInput(input: BatchInput, url: string): FetchInput {
  const given = input as Record<string, unknown>;
  const options: Record<string, unknown> = { url, formats: pageFormats(input.format, input.formats) };
  for (const key of PAGE_FIELDS) if (given[key] !== undefined) options[key] = given[key];
  // Absent fields stay absent (not undefined), as a request body would have them.
  return validate(FetchBody, JSON.parse(JSON.stringify(options)));
}

/**
 * Stores a batch queued, once its page options (formats, extraction, every page's fetch options)
 * are checked as each page's fetch will read them. URLs are checked when each page is fetched,
 * so an invalid one, or one the SSRF guard refuses, fails as its own item and never the whole job;
 * a batch whose every URL the guard refuses is refused (403) at once, as it could fetch nothing.
 * Another surface (`extra`) may make its pages scrapes and give its own webhook.
 * Throws SiphonError invalid_request or forbidden_url (every URL, the webhook target).
 */
export async function submitBatch(
  input: BatchInput,
  owner: JobOwner,
  deps: { store: Store; config: Config; now: number },
  extra?: SurfaceSubmit,
): Promise<JobRecord> {
  const pages = extra?.surface.pages;
  if (pages) await checkScrapePages(pages, "https://example.com/");
  else await checkPageOptions(batchPageInput(input, "https://example.com/"));
  const own = input.webhook ? { url: checkWebhookTarget(input.webhook, deps.config).href } : undefined;
  const stored = surfaced(input, own, extra);
  if (extra?.webhook) checkWebhookTarget(extra.webhook.url, deps.config);
  const refused = await refusedUrls(input.urls, deps.config);
  const first = refused.get(input.urls[0] ?? "");
  if (first && input.urls.every((url) => refused.has(url))) {
    throw new SiphonError(
      "forbidden_url",
      input.urls.length === 1 ? first.message : `Every URL of the batch is refused: ${first.message}`,
      { hint: first.hint },
    );
  }
  const job = newJob("batch", owner, stored.input, stored.webhook, deps.now);
  await deps.store.jobs.create(
    job,
    input.urls.map((url) => ({ url, depth: 0 })),
  );
  return (await deps.store.jobs.get(job.id)) as JobRecord;
}

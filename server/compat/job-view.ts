import { SiphonError } from "../../src/errors.ts";
import { jobActivity } from "../../src/jobs/activity.ts";
import {
  allResults,
  finishedCount,
  type JobInputs,
  jobOwner,
  readResults,
  startJob,
} from "../../src/jobs/read.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import { type JobSurface, type PageView, type SurfaceSubmit, surfaceOf } from "../../src/jobs/surface.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import type { JobItem, JobRecord, JobStatus, JobType } from "../../src/store/types.ts";
import { type Guard, identify } from "../guard.ts";
import { nextLink, callerJob as ownedJob, pollPaging } from "../job-http.ts";
import { authRequest, compatMetered, compatPlugin } from "./http.ts";
import { type Asked, toDocument } from "./scrape-map.ts";

/**
 * Firecrawl's view of siphon's jobs: crawl and batch polls with their `next` pages, errors and
 * the active crawls. Pages of the jobs a Firecrawl route started are kept as Firecrawl's
 * documents (`firecrawlPage`, the runner's page view for the surface), so a poll, a watcher and
 * a page webhook all show the same document.
 */

/** What a Firecrawl crawl or batch keeps beside each page's scrape: the formats asked. */
export interface FirecrawlPageView {
  asked: Asked;
}

/** A page of a Firecrawl-started crawl or batch as Firecrawl's document (metadata.sourceURL is the URL queued). */
export const firecrawlPage: PageView = ({ url, outcome, credits, at, view }) =>
  toDocument(outcome, (view as FirecrawlPageView).asked, {
    sourceURL: url,
    scrapeId: crypto.randomUUID(),
    creditsUsed: credits,
    now: at,
  });

/** Whether a Firecrawl route started the job. */
export const isFirecrawlJob = (job: JobRecord) => surfaceOf(job)?.name === "firecrawl";

/** Firecrawl's status of a crawl or batch: a job still to finish is "scraping". */
export function pagesStatus(status: JobStatus): "scraping" | "completed" | "failed" | "cancelled" {
  return status === "queued" || status === "processing" ? "scraping" : status;
}

/** Firecrawl's status of an extract or agent job: one still to finish is "processing". */
export function workStatus(status: JobStatus): "processing" | "completed" | "failed" | "cancelled" {
  return status === "queued" ? "processing" : status;
}

/** When the job's results expire: 24 h after it ends, so while it runs at least that long from now. */
export function expiresAt(guard: Guard, job: JobRecord): string {
  return new Date(job.expiresAt ?? guard.now() + guard.config.jobRetentionMs).toISOString();
}

/**
 * A finished page as Firecrawl's document: Firecrawl-started jobs keep it so; a page of a job
 * siphon's own API started (a crawl or batch item) gets Firecrawl's metadata keys beside its own.
 */
function documentOf(job: JobRecord, item: JobItem): Record<string, unknown> {
  const data = item.data as Record<string, unknown>;
  if (isFirecrawlJob(job)) return data;
  const { url, title, statusCode, metadata, ...rest } = data;
  return {
    ...rest,
    metadata: { ...(metadata as object), title, url, sourceURL: item.url, statusCode },
  };
}

/** The finished pages of a job that were scraped, as documents (failed ones are the errors endpoint's). */
export const documentsOf = (job: JobRecord, items: JobItem[]) =>
  items.filter((item) => item.state === "done").map((item) => documentOf(job, item));

/** A job of the caller's, as Firecrawl's routes find it (an empty Bearer, as Firecrawl clients send without a key, is no key). */
export function callerJob(guard: Guard, request: Request, id: string, type: JobType): Promise<JobRecord> {
  return ownedJob(guard, authRequest(request), id, type);
}

/**
 * Firecrawl's crawl or batch poll: status, total, completed (pages finished), creditsUsed,
 * expiresAt, data (the pages scraped in this page of results) and `next`, the absolute URL of
 * the following page, omitted on the last one (Firecrawl's clients follow it while it is there).
 */
export async function pagesPoll(
  guard: Guard,
  request: Request,
  job: JobRecord,
  query: Record<string, unknown>,
) {
  const { skip, limit } = pollPaging(query);
  const page = await readResults(guard.store, job, skip, limit);
  const body: Record<string, unknown> = {
    success: true,
    status: pagesStatus(job.status),
    total: job.total,
    completed: finishedCount(job),
    creditsUsed: job.creditsUsed,
    expiresAt: expiresAt(guard, job),
    data: documentsOf(job, page.items),
    ...jobActivity(job, guard.now(), guard.config.jobStallMs),
  };
  if (job.error) body.error = job.error;
  if (page.next !== null) body.next = nextLink(request, page.next, limit);
  return body;
}

/** Every finished page of a job, in the order they finished. */
export const finishedItems = (guard: Guard, job: JobRecord) => allResults(guard.store, job);

/**
 * Firecrawl's errors of a crawl or batch: `{errors: [{id, timestamp, url, code, error}],
 * robotsBlocked}`. siphon skips the URLs robots.txt disallows without recording them, so
 * robotsBlocked is empty.
 */
export async function pagesErrors(guard: Guard, job: JobRecord) {
  const items = await finishedItems(guard, job);
  const errors = items
    .filter((item) => item.state === "failed")
    .map((item, index) => {
      const failure = (item.data as { error?: { type?: string; message?: string } } | null)?.error;
      return {
        id: `${job.id}-${index}`,
        timestamp: null,
        url: item.url,
        code: failure?.type,
        error: item.error ?? failure?.message ?? "The page failed",
      };
    });
  return { success: true as const, errors, robotsBlocked: [] as string[] };
}

/** The caller's crawls still to finish: `{success, crawls: [{id, teamId, url, options}]}`. */
export async function activeCrawls(guard: Guard, request: Request) {
  const principal = await identify(guard, authRequest(request));
  const accountId = principal.account.id;
  const [processing, queued] = await Promise.all(
    (["processing", "queued"] as const).map((status) =>
      guard.store.jobs.list({ accountId, type: "crawl", status, limit: 1000 }),
    ),
  );
  const crawls = [...(processing ?? []), ...(queued ?? [])].map((job) => {
    const {
      url,
      surface: _surface,
      llmApiKey: _key,
      scrapeOptions: _options,
      webhook: _hook,
      ...options
    } = job.input as Record<string, unknown>;
    return { id: job.id, teamId: accountId, url, options };
  });
  return { success: true as const, crawls };
}

/** A job a Firecrawl route answers for on a path of another type (v1 batches on /v1/crawl/:id). */
export async function firecrawlBatch(guard: Guard, request: Request, id: string): Promise<JobRecord> {
  const job = await callerJob(guard, request, id, "batch");
  if (!isFirecrawlJob(job)) throw new SiphonError("not_found", `No crawl job ${id}`);
  return job;
}

/** What the Firecrawl job routes use: the core's deps and the job runner. */
export type JobDeps = FetchDeps & { runner: JobRunner };

/** The poll URL of a job a Firecrawl route started, on the request's own origin. */
export function pollUrl(request: Request, path: string, id: string): string {
  return `${new URL(request.url).origin}${path}/${id}`;
}

/**
 * GET `${base}/:id` (poll, as pagesPoll) and DELETE `${base}/:id` (cancel: {success, status})
 * of one kind of pages job, as Firecrawl v2 has them for crawls and batches. Not metered.
 */
export function pollAndCancelRoutes(
  base: string,
  type: "crawl" | "batch",
  docs: { what: string; poll: string },
  deps: JobDeps,
  guard: Guard,
) {
  return compatPlugin(`compat:${type}:poll`)
    .get(
      `${base}/:id`,
      async ({ params, query, request }) =>
        pagesPoll(guard, request, await callerJob(guard, request, params.id, type), query),
      { detail: { summary: `Poll a ${docs.what} (Firecrawl v2)`, description: docs.poll } },
    )
    .delete(
      `${base}/:id`,
      async ({ params, request }) => {
        await callerJob(guard, request, params.id, type);
        return { success: true as const, status: await deps.runner.cancel(params.id) };
      },
      { detail: { summary: `Cancel a ${docs.what} (Firecrawl v2): {success, status: cancelled}` } },
    );
}

/** A Firecrawl crawl or batch start, checked and shaped for siphon's start. */
export interface FirecrawlStart<K extends "crawl" | "batch"> {
  input: JobInputs[K];
  pages: JobSurface["pages"];
  webhook: SurfaceSubmit["webhook"];
  /**
   * Runs once the caller is admitted, before the job is started: the input as it is to start
   * (a batch leaves out the URLs it may ignore); throws a refusal.
   */
  admit?: (input: JobInputs[K], config: JobDeps["config"]) => Promise<JobInputs[K]>;
}

/**
 * Starts a Firecrawl crawl or batch as siphon's job (one request in the burst window; pages
 * are charged as fetched) and answers 200 `{success, id, url, ...extra}`, url polling it at
 * `${pollPath}/:id` on the request's own origin.
 */
export function startFirecrawlJob<K extends "crawl" | "batch">(
  type: K,
  pollPath: string,
  start: FirecrawlStart<K>,
  http: { deps: JobDeps; guard: Guard; request: Request; set: { headers: Record<string, string | number> } },
  extra: Record<string, unknown> = {},
) {
  const { deps, guard, request, set } = http;
  return compatMetered(guard, request, set, type, async (admission) => {
    const input = start.admit ? await start.admit(start.input, deps.config) : start.input;
    const job = await startJob(
      type,
      input,
      jobOwner(admission?.principal),
      { ...deps, now: guard.now() },
      { surface: { name: "firecrawl", pages: start.pages }, webhook: start.webhook },
    );
    return {
      body: { success: true as const, id: job.id, url: pollUrl(request, pollPath, job.id), ...extra },
      credits: 0,
    };
  });
}

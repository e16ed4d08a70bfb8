import { Elysia } from "elysia";
import { applyCrawlPrompt } from "../../src/crawl/prompt.ts";
import { jobActivity } from "../../src/jobs/activity.ts";
import { finishedCount, jobOwner, jobProgress, readResults, startJob } from "../../src/jobs/read.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { queryNumber } from "../../src/schemas/common.ts";
import { BatchBody, CrawlBody, JobsQuery } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { JobRecord } from "../../src/store/types.ts";
import { type Guard, identify, metered } from "../guard.ts";
import { nextLink, pollPaging } from "../job-http.ts";
import { jsonRequestBody } from "../openapi.ts";
import type { SharedJobRoutes } from "../shared-paths.ts";
import { jobEventStream } from "../sse.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** 0-100: pages finished of the job's total; 100 once completed or failed. */
export const progressOf = (job: JobRecord) => jobProgress(job).percent;

/** A job's progress as server-sent events (server/sse.ts), ended with a shutdown event when the server stops. */
export const eventStream = jobEventStream;

/** The poll response (SPEC), one page of results, with `next` until the last page. */
async function poll(guard: Guard, request: Request, job: JobRecord, query: Record<string, unknown>) {
  const { skip, limit } = pollPaging(query);
  const page = await readResults(guard.store, job, skip, limit);
  const progress = jobProgress(job);
  const body: Record<string, unknown> = {
    success: true,
    status: job.status,
    progress: progress.percent,
    total: job.total,
    completed: progress.finished,
    failed: job.failed,
    creditsUsed: job.creditsUsed,
    expiresAt: iso(job.expiresAt),
    data: page.items.map((item) => item.data),
    ...jobActivity(job, guard.now(), guard.config.jobStallMs),
  };
  if (job.error) body.error = job.error;
  if (page.next !== null) body.next = nextLink(request, page.next, limit);
  return body;
}

/**
 * siphon's crawl or batch on its paths (POST `path`, GET and DELETE `path/:id`), which it shares
 * with Firecrawl's v1: server/shared-paths.ts registers them and decides, per request, whether
 * these handlers or Firecrawl's answer.
 */
export function jobHandlers(
  type: "crawl" | "batch",
  path: string,
  deps: FetchDeps,
  guard: Guard,
  runner: JobRunner,
): SharedJobRoutes {
  return {
    start: {
      handler: ({ body, set, request }) =>
        metered(guard, request, set, type, async (admission) => {
          const at = guard.now();
          const owner = jobOwner(admission?.principal ?? (await identify(guard, request)));
          const start = { ...deps, runner, now: at };
          // A crawl's prompt becomes its options (with the request's LLM, else the operator's) before it is checked.
          const prompted =
            type === "crawl"
              ? await applyCrawlPrompt(body, {
                  config: deps.config,
                  signal: request.signal,
                  apiBasePolicy: "guard",
                  log: guard.log,
                })
              : { body, params: null };
          const job =
            type === "crawl"
              ? await startJob("crawl", validate(CrawlBody, prompted.body), owner, start)
              : await startJob("batch", validate(BatchBody, body), owner, start);
          set.status = 202;
          const self = new URL(request.url);
          const answer: Record<string, unknown> = {
            success: true,
            id: job.id,
            url: `${self.origin}${path}/${job.id}`,
          };
          if (prompted.params) answer.params = prompted.params;
          // The start is one request in the burst window; each page is charged as it is fetched.
          return { body: answer, credits: 0 };
        }),
      detail: {
        summary: type === "crawl" ? "Start a crawl" : "Start a batch scrape",
        requestBody: jsonRequestBody(type === "crawl" ? CrawlBody : BatchBody),
      },
    },
    poll: {
      handler: (job, request, query) =>
        request.headers.get("accept")?.includes("text/event-stream")
          ? eventStream(runner, job, request)
          : poll(guard, request, job, query),
      detail: {
        summary: `Poll a ${type} job (Accept: text/event-stream streams progress)`,
        description:
          "Results page with ?skip=&limit= (default 100), in the order pages finished, so reading on from " +
          "skip while the job runs never repeats or skips a page; `next` links the following page. " +
          "`lastProgressAt` says when the job last moved; `warning` appears while it is queued or processing " +
          "with no movement for SIPHON_JOB_STALL_MS (default 180 s). Not metered.",
      },
    },
    cancel: {
      handler: async (job) => ({ success: true, status: await runner.cancel(job.id) }),
      detail: { summary: `Cancel a ${type} job; a job already ended keeps its status` },
    },
  };
}

/** The job list (crawl, batch, agent and extract jobs); the jobs' own routes are in server/shared-paths.ts. */
export function jobRoutes(guard: Guard) {
  return new Elysia({ name: "routes:jobs" }).get(
    "/v1/jobs",
    async ({ query, request }) => {
      const filter = validate(JobsQuery, {
        ...query,
        limit: queryNumber(query.limit as string | undefined),
      });
      const principal = await identify(guard, request);
      const jobs = await guard.store.jobs.list({
        accountId: principal.account.id,
        type: filter.type,
        status: filter.status,
        limit: filter.limit,
      });
      return {
        success: true,
        count: jobs.length,
        jobs: jobs.map((job) => ({
          id: job.id,
          type: job.type,
          status: job.status,
          progress: progressOf(job),
          total: job.total,
          completed: finishedCount(job),
          creditsUsed: job.creditsUsed,
          createdAt: iso(job.createdAt),
          expiresAt: iso(job.expiresAt),
        })),
      };
    },
    {
      detail: {
        summary: "List your jobs",
        description:
          "type (crawl, batch, agent, extract), status, limit (default 50); newest first. Not metered.",
      },
    },
  );
}

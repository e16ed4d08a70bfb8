/**
 * The paths siphon's own API shares with Firecrawl's v1: POST /v1/crawl, /v1/batch/scrape,
 * /v1/map, /v1/extract and /v1/llmstxt, and GET and DELETE on their jobs. Each is registered once, here, and
 * this is the one place that decides which adapter answers a request: the native routes
 * (server/routes/) and the Firecrawl adapter (server/compat/) never import each other.
 *
 * - A POST whose body carries `origin` or `integration` is a Firecrawl client's (the JS SDK, its
 *   v1 client, firecrawl-mcp and firecrawl-cli all send origin; siphon's own API has no such key
 *   and refuses it): Firecrawl's adapter answers, in Firecrawl's shapes and errors.
 * - A GET or DELETE finds the caller's job as siphon does; failing that, a job a Firecrawl route
 *   started that Firecrawl's clients look for there (a batch on /v1/crawl/:id, a keyless client's
 *   job). A poll of a job a Firecrawl route started is Firecrawl's view; SSE (Accept:
 *   text/event-stream), which Firecrawl has not, and cancelling are siphon's for every job.
 */
import { Elysia } from "elysia";
import type { JobRunner } from "../src/jobs/runner.ts";
import type { FetchDeps } from "../src/pipeline/fetch-page.ts";
import type { JobRecord } from "../src/store/types.ts";
import { isFirecrawlJob } from "./compat/job-view.ts";
import {
  firecrawlErrors,
  firecrawlPoll,
  firecrawlPost,
  isFirecrawlBody,
  sharedJob,
} from "./compat/shared.ts";
import type { Guard } from "./guard.ts";
import { extractHandlers } from "./routes/extract.ts";
import { jobHandlers } from "./routes/jobs.ts";
import { llmstxtHandlers } from "./routes/llmstxt.ts";
import { mapHandler } from "./routes/map.ts";

/** What a start handler is given (Elysia's context, as far as the handlers read it). */
export interface StartContext {
  body: unknown;
  request: Request;
  set: { headers: Record<string, string | number>; status?: number | string };
}

/** A handler and its OpenAPI detail (siphon's: the document describes siphon's API). */
export interface SharedRoute<H> {
  handler: H;
  detail: Record<string, unknown>;
}

/** siphon's answers on the paths of one kind of job it shares with Firecrawl. */
export interface SharedJobRoutes {
  start: SharedRoute<(context: StartContext) => unknown>;
  poll: SharedRoute<(job: JobRecord, request: Request, query: Record<string, unknown>) => unknown>;
  cancel: SharedRoute<(job: JobRecord) => unknown>;
}

const wantsEvents = (request: Request) =>
  request.headers.get("accept")?.includes("text/event-stream") ?? false;

/** The shared paths of one kind of job: POST `path`, GET and DELETE `path/:id`. */
function jobPaths(
  kind: "crawl" | "batch" | "extract" | "llmstxt",
  path: string,
  native: SharedJobRoutes,
  deps: FetchDeps & { runner: JobRunner },
  guard: Guard,
) {
  return new Elysia({ name: `shared:${kind}` })
    .mapResponse(firecrawlErrors)
    .post(
      path,
      (context) =>
        isFirecrawlBody(context.body)
          ? firecrawlPost(kind, context.body, deps, guard, context.request, context.set)
          : native.start.handler(context),
      { detail: native.start.detail as never },
    )
    .get(
      `${path}/:id`,
      async ({ params, query, request }) => {
        const job = await sharedJob(guard, request, params.id, kind);
        return isFirecrawlJob(job) && !wantsEvents(request)
          ? firecrawlPoll(guard, request, job, query)
          : native.poll.handler(job, request, query);
      },
      { detail: native.poll.detail as never },
    )
    .delete(
      `${path}/:id`,
      async ({ params, request }) => native.cancel.handler(await sharedJob(guard, request, params.id, kind)),
      { detail: native.cancel.detail as never },
    );
}

/** Every path siphon's API shares with Firecrawl's v1, each registered once. */
export function sharedPathRoutes(
  deps: FetchDeps & { runner: JobRunner },
  guard: Guard,
  log?: (line: string) => void,
) {
  const { runner } = deps;
  const map = mapHandler(deps, guard);
  return new Elysia({ name: "shared-paths" })
    .use(jobPaths("crawl", "/v1/crawl", jobHandlers("crawl", "/v1/crawl", deps, guard, runner), deps, guard))
    .use(
      jobPaths(
        "batch",
        "/v1/batch/scrape",
        jobHandlers("batch", "/v1/batch/scrape", deps, guard, runner),
        deps,
        guard,
      ),
    )
    .use(jobPaths("extract", "/v1/extract", extractHandlers(deps, guard, log), deps, guard))
    .use(jobPaths("llmstxt", "/v1/llmstxt", llmstxtHandlers(deps, guard, runner), deps, guard))
    .use(
      new Elysia({ name: "shared:map" })
        .mapResponse(firecrawlErrors)
        .post(
          "/v1/map",
          (context) =>
            isFirecrawlBody(context.body)
              ? firecrawlPost("map", context.body, deps, guard, context.request, context.set)
              : map.handler(context),
          { detail: map.detail as never },
        ),
    );
}

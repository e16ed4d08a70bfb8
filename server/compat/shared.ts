import type { JobRecord, JobType } from "../../src/store/types.ts";
import type { Guard } from "../guard.ts";
import { callerJob } from "../job-http.ts";
import { startBatch } from "./batch.ts";
import { startCrawl } from "./crawl.ts";
import { extractPoll, startExtract } from "./extract.ts";
import { authRequest, rewriteError } from "./http.ts";
import { isFirecrawlJob, type JobDeps, pagesPoll } from "./job-view.ts";
import { firecrawlLlmstxtPoll, startFirecrawlLlmstxt } from "./llmstxt.ts";
import { firecrawlMap } from "./map.ts";

/**
 * The Firecrawl side of the paths siphon's own API shares with Firecrawl's v1 (POST /v1/crawl,
 * /v1/batch/scrape, /v1/map and /v1/extract, and GET/DELETE on their jobs). server/shared-paths.ts
 * registers those paths once and asks these which requests are Firecrawl's, with siphon's own
 * answers left exactly as they are:
 *
 * - a POST whose body carries `origin` or `integration` is a Firecrawl client's (the JS SDK,
 *   its v1 client, firecrawl-mcp and firecrawl-cli all send origin; siphon's own API has no such
 *   key and refuses it): it is served Firecrawl's way (200 start, Firecrawl's keys, webhooks
 *   and errors);
 * - a GET or DELETE on a job a Firecrawl route started answers Firecrawl's way, and
 *   /v1/crawl/:id also finds the batches a Firecrawl client started (the v1 client polls its
 *   batches there).
 */

/** Requests served Firecrawl's way on a shared path: their errors take Firecrawl's shape. */
const fromFirecrawl = new WeakSet<Request>();

/** Whether a POST body is a Firecrawl client's: a JSON object with `origin` or `integration`. */
export function isFirecrawlBody(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    (Object.hasOwn(body, "origin") || Object.hasOwn(body, "integration"))
  );
}

/**
 * A mapResponse hook for siphon's routes on shared paths: the app's error answer (format B) to
 * a Firecrawl client's request becomes Firecrawl's `{success: false, error, code, details?}` with
 * Firecrawl's status, every header kept; anything else passes untouched.
 */
export async function firecrawlErrors({
  request,
  response,
}: {
  request: Request;
  response: unknown;
}): Promise<Response | undefined> {
  return fromFirecrawl.has(request) ? rewriteError({ response }) : undefined;
}

type SetHeaders = { headers: Record<string, string | number> };

/**
 * Serves a Firecrawl client's POST on a shared v1 path (crawl, batch, map, extract) the way
 * /v2 serves it, but in v1's shapes (isFirecrawlBody says whose a POST is).
 */
export function firecrawlPost(
  route: "crawl" | "batch" | "map" | "extract" | "llmstxt",
  body: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: SetHeaders,
): Promise<unknown> {
  fromFirecrawl.add(request);
  const run = () => {
    switch (route) {
      case "crawl":
        return startCrawl(1, body, deps, guard, request, set);
      case "batch":
        return startBatch(1, body, deps, guard, request, set);
      case "map":
        return firecrawlMap(1, body, deps, guard, request, set);
      case "extract":
        return startExtract(body, deps, guard, request, set);
      case "llmstxt":
        return startFirecrawlLlmstxt(body, deps, guard, request, set);
    }
  };
  // Refusals thrown before the first await are the app's errors all the same.
  return Promise.resolve().then(run);
}

/**
 * A job a Firecrawl route started that Firecrawl's clients look for on a shared path where
 * siphon's own lookup did not find it: a batch on /v1/crawl/:id (the v1 client polls its batches
 * there), or one found with the empty Bearer a Firecrawl client without a key sends. Null when
 * there is none: the shared path then answers siphon's own refusal.
 */
export async function firecrawlSharedJob(
  guard: Guard,
  request: Request,
  id: string,
  type: JobType,
): Promise<JobRecord | null> {
  const keyless = authRequest(request);
  const types: JobType[] = type === "crawl" ? ["crawl", "batch"] : [type];
  for (const candidate of types) {
    if (candidate === type && keyless === request) continue;
    const job = await callerJob(guard, keyless, id, candidate).catch(() => null);
    if (job && isFirecrawlJob(job)) return job;
  }
  return null;
}

/** A poll on a shared path of a job a Firecrawl route started: Firecrawl's view of it. */
export function firecrawlPoll(
  guard: Guard,
  request: Request,
  job: JobRecord,
  query: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (job.type === "llmstxt") return Promise.resolve(firecrawlLlmstxtPoll(guard, job));
  return job.type === "extract" ? extractPoll(guard, job) : pagesPoll(guard, request, job, query);
}

/**
 * The job a GET or DELETE on a shared path is about: the caller's job of the path's type as
 * siphon finds it; else one a Firecrawl route started that Firecrawl's clients look for there
 * (firecrawlSharedJob); else siphon's own refusal.
 */
export async function sharedJob(
  guard: Guard,
  request: Request,
  id: string,
  type: JobType,
): Promise<JobRecord> {
  try {
    return await callerJob(guard, request, id, type);
  } catch (refusal) {
    const job = await firecrawlSharedJob(guard, request, id, type);
    if (job) return job;
    throw refusal;
  }
}

import { Elysia } from "elysia";
import { toSiphonError } from "../../src/errors.ts";
import { finishedCount, isEnded } from "../../src/jobs/read.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { JobItem, JobRecord, JobType } from "../../src/store/types.ts";
import type { Guard } from "../guard.ts";
import { GOING_AWAY_CODE, holdOpen } from "../shutdown.ts";
import { callerJob, documentsOf, expiresAt, finishedItems, pagesStatus } from "./job-view.ts";
import { sharedJob } from "./shared.ts";

/**
 * Firecrawl's crawl watcher over a WebSocket, as its SDKs open it (`watcher()`, v1's
 * `crawlUrlAndWatch`): GET /v1/crawl/:id, /v2/crawl/:id and /v2/batch/scrape/:id with
 * `Upgrade: websocket` and the key as the subprotocol. Messages are Firecrawl's: one `catchup`
 * `{status, total, completed, creditsUsed, expiresAt, data: [documents so far]}`, a `document`
 * for each page scraped after it, then the socket closes with `{"type":"done"}` as its reason
 * (a failed job: `{"type":"error","error"}`). A job that is not the caller's closes with code
 * 1008 and `{"type":"error","error":"Job not found"}`, a bad key with 3000. When the server
 * shuts down, every watch closes with 1001 (going away) and an error saying so: the v2 SDK's
 * watcher then polls, and the job goes on once the server is back.
 */

/** How often a watch looks for pages when no event of the runner wakes it. */
const CHECK_MS = 1000;
/** A close reason is at most 123 bytes (RFC 6455). */
const MAX_REASON_BYTES = 123;

type Send = (message: Record<string, unknown>) => void;
type Close = (code: number, message: Record<string, unknown>) => void;

/**
 * The request as auth reads it: the subprotocol (the key Firecrawl's watchers send) as a Bearer
 * key. Bun's upgrade names the first subprotocol back in the handshake, as the clients require.
 */
function keyed(request: Request): Request {
  const protocol = request.headers.get("sec-websocket-protocol")?.split(",")[0]?.trim();
  if (!protocol) return request;
  const headers = new Headers(request.headers);
  headers.set("authorization", `Bearer ${protocol}`);
  return new Request(request.url, { headers });
}

/** Firecrawl's error message, cut so that it fits a close reason (at most 123 bytes). */
function errorMessage(error: string): Record<string, unknown> {
  const fits = (text: string) =>
    Buffer.byteLength(JSON.stringify({ type: "error", error: text })) <= MAX_REASON_BYTES;
  let text = error;
  for (let keep = error.length - 1; !fits(text) && keep > 0; keep--) text = `${error.slice(0, keep)}…`;
  return { type: "error", error: text };
}

/** The close reason of a watch the server's shutdown ends (at most 123 bytes). */
const GOING_AWAY = { type: "error", error: "siphon is shutting down; follow the job again once it is back" };

/** The end of a watch: done, or the failure of a job that failed. */
const endOf = (job: JobRecord) =>
  job.status === "failed" ? errorMessage(job.error ?? "The job failed") : { type: "done" };

/**
 * Follows a job for one socket: catchup, then each page as it is scraped, then the end. Returns
 * the function that stops it (the socket closed).
 */
function watch(guard: Guard, runner: JobRunner, first: JobRecord, send: Send, close: Close): () => void {
  let stopped = false;
  let wake = () => {};
  const sent = new Set<string>();
  const unsubscribe = runner.subscribe(first.id, () => wake());
  const stop = () => {
    stopped = true;
    unsubscribe();
    wake();
  };
  /** The pages scraped that this socket has not been sent yet, as documents. */
  const fresh = (job: JobRecord, items: JobItem[]) => {
    const unsent = items.filter((item) => item.state === "done" && !sent.has(item.url));
    for (const item of unsent) sent.add(item.url);
    return documentsOf(job, unsent);
  };
  void (async () => {
    const items = await finishedItems(guard, first);
    send({
      type: "catchup",
      data: {
        success: true,
        status: pagesStatus(first.status),
        total: first.total,
        completed: finishedCount(first),
        creditsUsed: first.creditsUsed,
        expiresAt: expiresAt(guard, first),
        data: fresh(first, items),
      },
    });
    let job = first;
    while (!stopped && !isEnded(job)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CHECK_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped) return;
      job = (await guard.store.jobs.get(job.id)) ?? job;
      for (const document of fresh(job, await finishedItems(guard, job)))
        send({ type: "document", data: document });
    }
    if (!stopped) close(1000, endOf(job));
  })().catch((error) => {
    if (!stopped) close(1011, errorMessage(toSiphonError(error).message));
  });
  return stop;
}

/** The job a watch is about, as the poll on the same path finds it. */
function jobFor(path: string, guard: Guard, request: Request, id: string): Promise<JobRecord> {
  if (path === "/v1/crawl/:id") return sharedJob(guard, request, id, "crawl");
  const type: JobType = path.startsWith("/v2/batch") ? "batch" : "crawl";
  return callerJob(guard, request, id, type);
}

/** The watcher routes: WebSocket upgrades on the crawl and batch poll paths (their GETs stay the polls). */
export function watchRoutes(guard: Guard, runner: JobRunner) {
  const stops = new WeakMap<object, () => void>();
  let app = new Elysia({ name: "compat:ws" });
  for (const path of ["/v1/crawl/:id", "/v2/crawl/:id", "/v2/batch/scrape/:id"]) {
    app = app.ws(path, {
      open(ws) {
        const { params, request } = ws.data as unknown as { params: { id: string }; request: Request };
        const close: Close = (code, message) => ws.close(code, JSON.stringify(message));
        jobFor(path, guard, keyed(request), params.id).then(
          (job) => {
            if (ws.readyState !== 1) return;
            const send: Send = (message) => {
              if (ws.readyState === 1) ws.send(JSON.stringify(message));
            };
            const stopWatch = watch(guard, runner, job, send, close);
            const release = holdOpen(() => {
              stopWatch();
              if (ws.readyState === 1) close(GOING_AWAY_CODE, GOING_AWAY);
            });
            stops.set(ws.raw, () => {
              stopWatch();
              release();
            });
          },
          (raw) => {
            const error = toSiphonError(raw);
            const auth = error.type === "unauthorized" || error.type === "invalid_token";
            close(auth ? 3000 : 1008, errorMessage(auth ? error.message : "Job not found"));
          },
        );
      },
      close(ws) {
        stops.get(ws.raw)?.();
        stops.delete(ws.raw);
      },
    }) as unknown as typeof app;
  }
  return app;
}

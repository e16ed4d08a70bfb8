import { EventEmitter } from "node:events";
import type { Plan } from "../auth/plans.ts";
import { accountTier } from "../auth/principal.ts";
import { weekStart } from "../auth/week.ts";
import type { Config } from "../config.ts";
import { HostScheduler, hostKey } from "../crawl/hosts.ts";
import { toSiphonError } from "../errors.ts";
import type { Engines } from "../pipeline/fetch-page.ts";
import { fetchPage } from "../pipeline/fetch-page.ts";
import type { FetchInput } from "../schemas/fetch.ts";
import type { JobItem, JobRecord, JobStatus, Store } from "../store/types.ts";
import { type CrawlPlan, planCrawl } from "./crawl-plan.ts";
import { type JobSpec, jobSpec } from "./spec.ts";
import type { WebhookConfig, WebhookSender } from "./webhooks.ts";

/** Progress events of a job, for SSE (DECISIONS.md "Jobs"). */
export type JobEvent =
  | { type: "page"; url: string; title: string }
  | { type: "progress"; status: JobStatus; completed: number; total: number }
  | { type: "done"; status: JobStatus; completed: number; total: number };

export interface RunnerDeps {
  config: Config;
  store: Store;
  engines: Engines;
  plans: Map<string, Plan>;
  webhooks: WebhookSender;
  now?: () => number;
}

/** Runs async jobs in this process; every step is persisted, so a new runner resumes what a dead one left. */
export interface JobRunner {
  /** Starts running a job that was just created (queued). */
  submit(id: string): void;
  /** Picks up every queued or processing job (after a restart). */
  resume(): Promise<number>;
  /** Cancels a queued or processing job; returns the job's status afterwards (terminal ones unchanged). */
  cancel(id: string): Promise<JobStatus | null>;
  /** Follows a job's events; returns the unsubscribe function. */
  subscribe(id: string, listener: (event: JobEvent) => void): () => void;
  /** Stops the loops; unfinished jobs stay processing and resume on the next start. */
  close(): Promise<void>;
}

/** What every page of one running job shares. */
interface JobRun {
  job: JobRecord;
  spec: JobSpec;
  plan: CrawlPlan | undefined;
  queued: Set<string>;
}

/** Pending items read at most when looking past busy hosts for one that may start. */
const FRONTIER_WINDOW = 200;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Creates the runner. Jobs fetch pages through the same pipeline as /v1/fetch. */
export function createJobRunner(deps: RunnerDeps): JobRunner {
  const now = deps.now ?? Date.now;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let closed = false;

  const emit = (id: string, event: JobEvent) => events.emit(id, event);
  // The sender keeps one job's events in order per hook object, so each job keeps one object.
  const hooks = new Map<string, WebhookConfig | undefined>();
  const hook = (job: JobRecord) => {
    if (!hooks.has(job.id)) hooks.set(job.id, (job.webhook ?? undefined) as WebhookConfig | undefined);
    return hooks.get(job.id);
  };
  const notify = (
    job: JobRecord,
    event: "started" | "page" | "completed" | "failed",
    data: Record<string, unknown>,
  ) => {
    const target = hook(job);
    if (target) deps.webhooks.send(target, event, { jobId: job.id, ...data });
  };

  /**
   * Past the weekly quota pages run HTTP-only, like any request (DECISIONS.md "Plans and limits");
   * an unlimited plan (the local account's by default) never does.
   */
  async function httpOnly(accountId: string): Promise<boolean> {
    const account = await deps.store.accounts.getAccount(accountId);
    const tier = account ? accountTier(account, deps.config) : "free";
    const plan = deps.plans.get(tier) ?? deps.plans.get("free");
    if (!plan || plan.unlimited) return false;
    return (await deps.store.usage.weeklyCredits(accountId, weekStart(now()))) >= plan.weeklyQuota;
  }

  async function processItem(run: JobRun, url: string, depth: number, signal: AbortSignal) {
    const { job, spec, plan, queued } = run;
    try {
      const input = spec.pageInput(url) as FetchInput;
      const outcome = await fetchPage(input, {
        config: deps.config,
        store: deps.store,
        engines: deps.engines,
        signal,
        now,
        httpOnly: await httpOnly(job.accountId),
      });
      const credits = outcome.cache.hit ? 0 : 1;
      const data = spec.item(outcome.result);
      await deps.store.jobs.finishItem(job.id, url, { state: "done", data, credits });
      if (credits) await deps.store.usage.addCredits(job.accountId, weekStart(now()), credits);
      if (plan && depth < spec.maxDepth) {
        // The store ignores URLs it has; skipping those this run already queued saves it the writes.
        const items: { url: string; depth: number }[] = [];
        for (const link of outcome.result.links) {
          const url = plan.follow(link);
          if (url && !queued.has(url)) {
            queued.add(url);
            items.push({ url, depth: depth + 1 });
          }
        }
        if (items.length) await deps.store.jobs.addItems(job.id, items, spec.limit);
      }
      emit(job.id, { type: "page", url: outcome.result.url, title: outcome.result.title });
      notify(job, "page", { url: outcome.result.url, title: outcome.result.title, ...data });
    } catch (raw) {
      if (signal.aborted) return; // cancelled or closing: the item stays pending
      const error = toSiphonError(raw);
      await deps.store.jobs.finishItem(job.id, url, {
        state: "failed",
        data: { url, error: { type: error.type, message: error.message } },
        error: error.message,
        credits: 0,
      });
    }
  }

  async function progress(id: string) {
    // Read only for someone following the job: the loop calls this on every page finished.
    if (!events.listenerCount(id)) return;
    const job = await deps.store.jobs.get(id);
    if (job)
      emit(id, {
        type: "progress",
        status: job.status,
        completed: job.completed + job.failed,
        total: job.total,
      });
  }

  async function run(id: string, signal: AbortSignal): Promise<void> {
    const fresh = await deps.store.jobs.transition(id, ["queued"], "processing", {}, now());
    let job = await deps.store.jobs.get(id);
    if (job?.status !== "processing") return;
    const spec = jobSpec(job);
    if (fresh) notify(job, "started", { type: job.type });
    const engine = await deps.engines.get("simple");
    const plan = spec.crawl
      ? await planCrawl(spec.crawl, engine, deps.config.userAgent, signal).catch(() => undefined)
      : undefined;
    // Sitemap URLs are one hop from the start, so they only join when the crawl may go a hop.
    if (plan && fresh && spec.maxDepth >= 1) {
      const seeds = await plan.seeds(spec.limit, signal).catch(() => []);
      await deps.store.jobs.addItems(
        id,
        seeds.map((url) => ({ url, depth: 1 })),
        spec.limit,
      );
    }
    // Per host: at most SIPHON_CRAWL_HOST_CONCURRENCY pages at once, and with a delay (the crawl's, or
    // the start host's robots.txt Crawl-delay) one page at a time with the delay after each.
    const startHost = plan ? hostKey(plan.start.href) : "";
    const hosts = new HostScheduler({
      perHost: deps.config.crawlHostConcurrency,
      delayMs: (host) => Math.max(spec.delayMs, host === startHost ? (plan?.delayMs ?? 0) : 0),
      now,
    });
    const parallel = spec.parallel;
    // queued: URLs this run has handed to the store (it dedups too; this only spares it repeated writes).
    const jobRun: JobRun = { job, spec, plan, queued: new Set() };
    await progress(id);
    // A pool, not rounds: when one page finishes the next starts, so a slow page never idles the other slots.
    const inFlight = new Map<string, Promise<void>>();
    while (!signal.aborted) {
      let waiting: JobItem[] = [];
      if (inFlight.size < parallel) {
        // A small window first; a wider one when busy hosts hold the front of the frontier.
        for (const size of [parallel + inFlight.size, FRONTIER_WINDOW + inFlight.size]) {
          const pending = await deps.store.jobs.pending(id, size);
          waiting = pending.filter((it) => !inFlight.has(it.url));
          for (const it of hosts.take(waiting, parallel - inFlight.size)) {
            const work = processItem(jobRun, it.url, it.depth, signal).finally(() => {
              inFlight.delete(it.url);
              hosts.finished(it.url);
            });
            inFlight.set(it.url, work);
          }
          if (inFlight.size >= parallel || pending.length < size) break;
        }
        if (inFlight.size === 0 && waiting.length === 0) break;
      }
      const wait = hosts.waitMs(waiting);
      if (inFlight.size === 0) await sleep(wait ?? 0, signal);
      else if (wait === null) await Promise.race(inFlight.values());
      else await Promise.race([...inFlight.values(), sleep(wait, signal)]);
      await progress(id);
    }
    await Promise.all(inFlight.values());
    if (signal.aborted) return;
    job = (await deps.store.jobs.get(id)) as JobRecord;
    const status: JobStatus = job.completed === 0 && job.failed > 0 ? "failed" : "completed";
    const at = now();
    const error = status === "failed" ? "Every page of the job failed" : undefined;
    const ended = await deps.store.jobs.transition(
      id,
      ["processing"],
      status,
      {
        error,
        finishedAt: at,
        expiresAt: at + deps.config.jobRetentionMs,
      },
      at,
    );
    if (!ended) return;
    if (status === "completed") notify(job, "completed", { total: job.total, completed: job.completed });
    else notify(job, "failed", { error });
    emit(id, { type: "done", status, completed: job.completed + job.failed, total: job.total });
  }

  function start(id: string): void {
    if (closed || running.has(id)) return;
    const abort = new AbortController();
    const done = run(id, abort.signal)
      .catch(async (raw) => {
        // An unexpected failure ends the job as failed rather than leaving it processing forever.
        const error = toSiphonError(raw);
        const at = now();
        await deps.store.jobs
          .transition(
            id,
            ["queued", "processing"],
            "failed",
            { error: error.message, finishedAt: at, expiresAt: at + deps.config.jobRetentionMs },
            at,
          )
          .catch(() => {});
      })
      .finally(() => {
        running.delete(id);
        hooks.delete(id);
      });
    running.set(id, { abort, done });
  }

  const sweep = setInterval(() => void deps.store.jobs.deleteExpired(now()).catch(() => {}), 3_600_000);
  sweep.unref?.();

  return {
    submit: start,
    async resume() {
      await deps.store.jobs.deleteExpired(now());
      const jobs = await deps.store.jobs.unfinished();
      for (const job of jobs) start(job.id);
      return jobs.length;
    },
    async cancel(id) {
      const at = now();
      const cancelled = await deps.store.jobs.transition(
        id,
        ["queued", "processing"],
        "cancelled",
        {
          finishedAt: at,
          expiresAt: at + deps.config.jobRetentionMs,
        },
        at,
      );
      const job = await deps.store.jobs.get(id);
      if (cancelled && job) {
        running.get(id)?.abort.abort();
        emit(id, {
          type: "done",
          status: "cancelled",
          completed: job.completed + job.failed,
          total: job.total,
        });
      }
      return job?.status ?? null;
    },
    subscribe(id, listener) {
      events.on(id, listener);
      return () => events.off(id, listener);
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const { abort } of running.values()) abort.abort();
      await Promise.all([...running.values()].map((r) => r.done));
      await deps.webhooks.drain();
    },
  };
}

import { createHash } from "node:crypto";
import { type Job, Queue, WaitingError, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { Config } from "../config.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import type { Engines } from "../pipeline/engines.ts";
import { KEY_PREFIX, type RedisConnection } from "../store/redis-connection.ts";
import { redisOf } from "../store/redis-store.ts";
import type { Store } from "../store/types.ts";
import { serverRunnerDeps } from "./index.ts";
import { processItem } from "./kinds/pages.ts";
import type { JobContext } from "./kinds/types.ts";
import { createPageRuns, type Held, held, stop } from "./queue-held.ts";
import { redisEventBus } from "./queue-redis-events.ts";
import { createJobExecutor, type JobRunner, type RunnerDeps, within } from "./runner.ts";

/** What a `siphon serve` process runs: HTTP only, jobs only, or both. */
export type Role = "api" | "worker" | "all";
export const ROLES: readonly Role[] = ["api", "worker", "all"];

export interface QueueOptions {
  role: Role;
  /** Units of work (pages, agent runs) this process runs at once, and jobs it coordinates at once. */
  concurrency: number;
  /** A unit whose worker stopped renewing its claim goes back to the queue after about this long, ms. */
  stallMs: number;
  /** How often unfinished jobs are checked for a queue entry (lost with Redis, never enqueued), ms. */
  reconcileMs?: number;
}

/** BullMQ's keys live under siphon's prefix too. */
const BULL_PREFIX = `${KEY_PREFIX}bull`;
/** One entry per job: the run that keeps its frontier (page jobs) or does its one unit (agent). */
const JOBS_QUEUE = "jobs";
/** One entry per page of a crawl, batch or extract job. */
const PAGES_QUEUE = "pages";
/** Cancellations, to whichever process holds the job's work. */
const CONTROL = `${KEY_PREFIX}job-control`;
/** A job's finished pages, to the process coordinating it: `c` or `f` (completed, failed) and the entry id. */
const PAGES_DONE = `${KEY_PREFIX}job-pages:`;
/** A dispatched page whose completion was not heard of for this long is looked up in the queue. */
const CHECK_AFTER_MS = 3_000;
/** A page that failed in the queue (the store away) is sent again after this pause. */
const RETRY_PAGE_MS = 1_000;
/**
 * Longest a shutdown waits on Redis when not told its grace; past it, what is still held comes
 * back after the stall timeout.
 */
const CLOSE_WAIT_MS = 10_000;

/** The time left before `until` (ms since epoch), never negative. */
const leftUntil = (until: number) => Math.max(0, until - Date.now());

/** A page's queue entry id: one per job and URL, so the same page is never queued twice at once. */
export function pageEntryId(jobId: string, url: string): string {
  return `${jobId}-${createHash("sha1").update(url).digest("hex").slice(0, 20)}`;
}

/**
 * A client for BullMQ: it must wait out a disconnection rather than fail
 * (maxRetriesPerRequest null), reconnecting every second at most.
 */
function bullConnection(url: string, name: string): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), 1_000),
    connectionName: name,
  });
  client.on("error", () => {});
  return client;
}

/**
 * The job runner of hosted mode, on Redis with BullMQ: any process submits,
 * cancels and follows jobs; worker processes run them.
 *
 * - A job is one entry of the jobs queue, claimed by one worker at a time.
 *   For a page job (crawl, batch, extract) that worker keeps the frontier and
 *   the per-host limits, as the single-process runner does, runs pages
 *   itself while it has room and sends the rest to the pages queue, which
 *   every worker takes from (see runHere); an agent job is
 *   its one unit of work. A claim a worker stops renewing (killed, hung) goes
 *   back to the queue after the stall timeout, and the page is run again by
 *   another worker: its outcome is recorded once, however often it finishes.
 * - Events go through Redis pub/sub (queue-redis-events.ts); a cancel moves
 *   the job in the store and is published, so whichever process holds its
 *   work stops it.
 * - Graceful shutdown hands held work back to the queue at once; every few
 *   seconds workers put unfinished jobs of the store back in the queue when
 *   their entry is gone (Redis lost its data, Redis was down at submit), so
 *   no accepted job is lost.
 */
export async function createQueuedRunner(
  deps: RunnerDeps,
  redis: RedisConnection,
  options: QueueOptions,
): Promise<JobRunner> {
  const url = redis.url;
  const events = await redisEventBus(redis, deps.store);
  const executor = createJobExecutor({ ...deps, events });
  const log = deps.log ?? (() => {});
  const working = options.role !== "api";
  const connections: Redis[] = [];
  const connect = (name: string) => {
    const client = bullConnection(url, name);
    connections.push(client);
    return client;
  };
  const producer = connect("siphon-queue");
  const jobsQueue = new Queue(JOBS_QUEUE, { connection: producer, prefix: BULL_PREFIX });
  const pagesQueue = new Queue(PAGES_QUEUE, { connection: producer, prefix: BULL_PREFIX });
  for (const queue of [jobsQueue, pagesQueue]) queue.on("error", () => {});
  let closing = false;

  const enqueue = (id: string) =>
    jobsQueue.add("run", { id }, { jobId: id, removeOnComplete: true, removeOnFail: true });
  const cancel = async (id: string) => {
    const { cancelled, status } = await executor.cancel(id);
    if (cancelled) await redis.run((r) => r.publish(CONTROL, id)).catch(() => {});
    return status;
  };
  /**
   * Closes the queues, their connections and the event bus, once held work is handed back, by
   * `until` (ms since epoch) whatever Redis does.
   */
  const closeQueues = async (until: number) => {
    // Redis away: BullMQ would wait for it forever.
    await within(Promise.all([jobsQueue.close(), pagesQueue.close()]), leftUntil(until));
    for (const client of connections) client.disconnect();
    await within(deps.webhooks.drain(), leftUntil(until));
    await within(events.close(), leftUntil(until));
  };
  const deadline = (options?: { graceMs?: number }) => Date.now() + (options?.graceMs ?? 2 * CLOSE_WAIT_MS);
  const common = {
    submit(id: string) {
      // A job the queue cannot take now stays queued in the store: a worker enqueues it once Redis is back.
      void enqueue(id).catch(() => {});
    },
    cancel,
    subscribe: events.subscribe,
    setPageView: executor.setPageView,
  } satisfies Partial<JobRunner>;

  if (!working) {
    return {
      ...common,
      resume: async () => 0,
      async close(closeOptions) {
        closing = true;
        await closeQueues(deadline(closeOptions));
      },
    };
  }

  /** Coordinators (entries of the jobs queue) this process runs, by job id. */
  const coordinating = new Map<string, Held>();
  /** Page jobs this process runs pages of. */
  const pageRuns = createPageRuns(deps.store, executor, CHECK_AFTER_MS);

  /** Whoever is told the page finished: the coordinator's dispatch, by page entry id. */
  const waiters = new Map<string, { done: () => void; since: number }>();
  /**
   * Cancellations and the finished pages of the jobs this process coordinates, on one subscribed
   * connection. A page's end is published by the worker that ran it, on its job's channel, after
   * BullMQ removed its entry (so the page can be queued again under the same id); only the
   * coordinating process hears it, where a QueueEvents stream would have every worker read every
   * event of every page.
   */
  const control = connect("siphon-control");
  await control.subscribe(CONTROL).catch(() => {});
  control.on("message", (channel: string, message: string) => {
    if (channel !== CONTROL) return pageDone(message);
    events.flush?.(message);
    const work = coordinating.get(message);
    if (work) stop(work, "cancel");
    pageRuns.cancel(message);
  });
  function pageDone(message: string) {
    const waiter = waiters.get(message.slice(1));
    if (!waiter) return;
    // A page that failed in the queue (the store away) is sent again after a pause.
    if (message.startsWith("f")) setTimeout(waiter.done, RETRY_PAGE_MS);
    else waiter.done();
  }
  const publishDone = (entry: Job<{ id: string }> | undefined, state: "c" | "f") => {
    if (entry?.id)
      void redis.run((r) => r.publish(PAGES_DONE + entry.data.id, state + entry.id)).catch(() => {});
  };

  /**
   * Pages running in this process: its coordinators' own (`local`) and those taken from the pages
   * queue (`taken`); together at most `budget`, the process's concurrency.
   */
  const budget = options.concurrency;
  let local = 0;
  let taken = 0;
  /** The pages queue's share of the budget: what local pages leave, never less than one slot. */
  const shareQueue = () => {
    pagesWorker.concurrency = Math.max(1, budget - local);
  };
  /**
   * A page of a job coordinated here runs here while the process has room: it spares the page the
   * queue's round trips (adding, claiming and completing an entry, its events, its completion
   * message), which cost more CPU than the rest of the page's work outside extraction. One slot
   * is always left to the queue, so pages that other coordinators send keep moving; a job whose
   * pages outnumber the room here spreads over the queue as before. Such a page is as safe as a
   * queued one: it stays pending in the store until finished, so when this process dies its
   * coordinator's entry goes back to the queue and the next coordinator sends it again.
   */
  const runHere = async (here: () => Promise<void>) => {
    local++;
    shareQueue();
    try {
      await here();
    } finally {
      local--;
      shareQueue();
    }
  };

  /**
   * Runs a page here when there is room (see runHere), else sends it to the pages queue; resolves
   * once it finished, failed, or its entry is gone.
   */
  const dispatch =
    (id: string, signal: AbortSignal, resumed: boolean): JobContext["dispatch"] =>
    (pageUrl, depth, here) => {
      const roomHere = () => local < budget - 1 && local + taken < budget;
      if (!roomHere()) return queuePage(id, signal, pageUrl, depth);
      if (!resumed) return runHere(here);
      // Taken over from another coordinator (shut down, lost): a page it queued may still be in the
      // queue, to run there; waiting on that entry (queuePage adds nothing then) runs the page once.
      return pagesQueue.getJob(pageEntryId(id, pageUrl)).then(
        (entry) => (!entry && roomHere() ? runHere(here) : queuePage(id, signal, pageUrl, depth)),
        () => queuePage(id, signal, pageUrl, depth),
      );
    };

  const queuePage = (id: string, signal: AbortSignal, pageUrl: string, depth: number) =>
    new Promise<void>((resolve) => {
      const entry = pageEntryId(id, pageUrl);
      const done = () => {
        waiters.delete(entry);
        signal.removeEventListener("abort", done);
        resolve();
      };
      waiters.set(entry, { done, since: Date.now() });
      signal.addEventListener("abort", done, { once: true });
      pagesQueue
        .add(
          "page",
          { id, url: pageUrl, depth },
          { jobId: entry, removeOnComplete: true, removeOnFail: true },
        )
        .catch(() => setTimeout(done, RETRY_PAGE_MS));
    });

  // A completion message lost (pub/sub is at most once, Redis away) is looked up instead.
  const checker = setInterval(async () => {
    const now = Date.now();
    for (const [entry, waiter] of waiters) {
      if (now - waiter.since < CHECK_AFTER_MS) continue;
      waiter.since = now;
      const state = await pagesQueue.getJobState(entry).catch(() => null);
      if (state === "unknown" || state === "completed" || state === "failed") waiter.done();
    }
  }, CHECK_AFTER_MS);
  checker.unref?.();

  /** Runs a job's coordinator here; hands it back to the queue when this process shuts down. */
  async function coordinate(entry: Job<{ id: string }>, token?: string): Promise<void> {
    const id = entry.data.id;
    // Another entry of a job this process already runs (re-enqueued after Redis lost it): one is enough.
    if (coordinating.has(id)) return;
    const work = held();
    coordinating.set(id, work);
    await control.subscribe(PAGES_DONE + id).catch(() => {});
    try {
      await executor.run(id, work.abort.signal, {
        // A job that was processing already (not fresh) was started by another coordinator,
        // whose queued pages may remain.
        adapt: (ctx) => ({ ...ctx, dispatch: dispatch(id, work.abort.signal, !ctx.fresh) }),
      });
    } catch (raw) {
      // The store away: the job stays as it is and is enqueued again once it is back.
      if (!work.abort.signal.aborted && toSiphonError(raw).type !== "store_unavailable")
        await executor.fail(id, raw).catch(() => {});
    } finally {
      coordinating.delete(id);
      executor.forget(id);
      void control.unsubscribe(PAGES_DONE + id).catch(() => {});
    }
    if (work.reason === "shutdown") await handBack(entry, token);
  }

  /** Puts a claimed entry back in the queue for another worker, now. */
  async function handBack(entry: Job, token?: string): Promise<never> {
    await entry.moveToWait(token);
    throw new WaitingError();
  }

  /** Runs one page of the queue here; hands it back to the queue when this process shuts down. */
  async function page(entry: Job<{ id: string; url: string; depth: number }>, token?: string): Promise<void> {
    taken++;
    try {
      const { id, url: pageUrl, depth } = entry.data;
      const cached = pageRuns.of(id);
      const run = await cached.run;
      if (!run || cached.held.abort.signal.aborted) {
        if (cached.held.reason === "shutdown") await handBack(entry, token);
        return;
      }
      await processItem(run, pageUrl, depth);
      // The page's event goes out before the page is reported done: the job's done event comes later.
      events.flush?.(id);
      // Followers hear of the page from its coordinator, which ticks once it hears the page is done.
      if (cached.held.reason === "shutdown") await handBack(entry, token);
    } finally {
      taken--;
    }
  }

  const workerOptions = {
    prefix: BULL_PREFIX,
    concurrency: options.concurrency,
    lockDuration: options.stallMs,
    stalledInterval: Math.max(500, Math.floor(options.stallMs / 2)),
    // A unit that keeps losing its worker is still a unit to do: it never fails for stalling.
    maxStalledCount: 1_000,
  };
  const pagesWorker = new Worker<{ id: string; url: string; depth: number }>(
    PAGES_QUEUE,
    (entry, token) => page(entry, token),
    { ...workerOptions, connection: connect("siphon-worker-pages") },
  );
  // After the pages worker, whose share of the budget a coordinator's first page sets.
  const jobsWorker = new Worker<{ id: string }>(JOBS_QUEUE, (entry, token) => coordinate(entry, token), {
    ...workerOptions,
    connection: connect("siphon-worker-jobs"),
  });
  for (const worker of [jobsWorker, pagesWorker]) worker.on("error", () => {});
  pagesWorker.on("completed", (entry) => publishDone(entry, "c"));
  pagesWorker.on("failed", (entry) => publishDone(entry, "f"));
  // Redis lost the entry (restarted empty): another worker may run the job from its re-enqueued entry.
  jobsWorker.on("lockRenewalFailed", (ids: string[]) => {
    for (const id of ids) {
      const work = coordinating.get(id);
      if (work) stop(work, "lost");
    }
  });

  /** Puts every unfinished job of the store in the queue unless it is there already; answers how many there are. */
  async function reconcile(): Promise<number> {
    const jobs = await deps.store.jobs.unfinished();
    for (const job of jobs) if (!coordinating.has(job.id) && !closing) await enqueue(job.id);
    return jobs.length;
  }
  const reconciler = setInterval(
    () => void reconcile().catch(() => {}),
    options.reconcileMs ?? Math.min(5_000, options.stallMs),
  );
  reconciler.unref?.();
  const sweep = setInterval(
    () => void deps.store.jobs.deleteExpired((deps.now ?? Date.now)()).catch(() => {}),
    3_600_000,
  );
  sweep.unref?.();

  async function closeAll(workers: Worker[], until: number) {
    closing = true;
    clearInterval(checker);
    clearInterval(reconciler);
    clearInterval(sweep);
    // Stop taking work, then hand what is held back to the queue.
    const stopped = Promise.all(workers.map((w) => w.close()));
    for (const work of coordinating.values()) stop(work, "shutdown");
    pageRuns.stopAll("shutdown");
    // With Redis away the workers cannot hand back: what they hold comes back after the stall timeout.
    // Most of the grace goes to handing back; the queues and the event bus close in what is left.
    const handBackBy = Date.now() + Math.floor(leftUntil(until) * 0.6);
    if (!(await within(stopped, leftUntil(handBackBy))))
      for (const client of connections) client.disconnect();
    await within(control.quit(), Math.min(1_000, leftUntil(until)));
    await closeQueues(until);
  }

  return {
    ...common,
    async resume() {
      await deps.store.jobs.deleteExpired((deps.now ?? Date.now)());
      const count = await reconcile();
      if (count) log(`${count} unfinished job(s) in the queue`);
      return count;
    },
    close: (closeOptions) => closeAll([jobsWorker, pagesWorker], deadline(closeOptions)),
  };
}

/**
 * The queued runner of a server process on `store`'s Redis (REDIS_URL), with its webhook sender:
 * `role` and the concurrency and stall timeout of the config. Throws invalid_request when the
 * store has no Redis.
 */
export async function startQueuedRunner(
  config: Config,
  store: Store,
  engines: Engines,
  options: { role: Role; now?: () => number; log?: (message: string) => void },
): Promise<JobRunner> {
  const redis = redisOf(store);
  if (!redis)
    throw new SiphonError("invalid_request", `--role ${options.role} needs REDIS_URL`, {
      hint: "Set REDIS_URL (and DATABASE_URL) on every process, or run one process with --role all.",
    });
  return createQueuedRunner(serverRunnerDeps(config, store, engines, options), redis, {
    role: options.role,
    concurrency: Math.max(1, config.workerConcurrency),
    stallMs: config.queueStallMs,
  });
}

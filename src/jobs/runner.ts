import { chargeLaterWork } from "../auth/meter.ts";
import type { Plan } from "../auth/plans.ts";
import { accountTier } from "../auth/principal.ts";
import { weekStart } from "../auth/week.ts";
import type { Config } from "../config.ts";
import { toSiphonError } from "../errors.ts";
import type { Engines } from "../pipeline/engines.ts";
import type { JobRecord, JobStatus, Store } from "../store/types.ts";
import { JOB_KINDS } from "./kinds/index.ts";
import type { JobContext, JobEnd, JobEvent, JobKind } from "./kinds/types.ts";
import { type JobEventBus, localEventBus } from "./queue-events.ts";
import { keptQuotaRead } from "./quota-read.ts";
import { finishedCount } from "./read.ts";
import { withoutSecrets } from "./secrets.ts";
import { type JobSurface, type PageView, surfaceOf } from "./surface.ts";
import type { WebhookConfig, WebhookSender } from "./webhooks.ts";

export type { JobEvent } from "./kinds/types.ts";

export interface RunnerDeps {
  config: Config;
  store: Store;
  engines: Engines;
  plans: Map<string, Plan>;
  webhooks: WebhookSender;
  now?: () => number;
  /** Warnings for the operator (failed LLM calls of agent jobs); never keys or bodies. */
  log?: (line: string) => void;
  /** Job kinds by type; default JOB_KINDS (tests replace one). */
  kinds?: Partial<typeof JOB_KINDS>;
  /** How job events reach followers; default: within this process. */
  events?: JobEventBus;
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
  /**
   * Stops the loops and hands running work back: unfinished jobs stay processing (or return to
   * the queue) and resume on the next start. Waits at most `graceMs` (default: as long as it
   * takes) for running work to stop and webhooks to be delivered.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /**
   * Keeps the pages of jobs another API surface started in its shape (src/jobs/surface.ts): the
   * surface registers its view when its routes are built, before any job of its runs.
   */
  setPageView(surface: JobSurface["name"], view: PageView): void;
}

/**
 * Runs jobs wherever it is asked to: what every job shares (status transitions, cancel, retention,
 * events and webhooks) around each job's kind (src/jobs/kinds), which does its unit of work. The
 * local runner below and the queue (src/jobs/queue.ts) decide where and when a job runs.
 */
export interface JobExecutor {
  readonly events: JobEventBus;
  /**
   * Runs a queued job, or picks up a processing one, to its end; returns early (recording nothing
   * more) when `signal` aborts. A queue adapts the job's context (`options.adapt`): where its pages
   * run (JobContext.dispatch), its quota reads.
   */
  run(id: string, signal: AbortSignal, options?: RunOptions): Promise<void>;
  /** Ends a job failed when its run broke outside its kind (the store, loading the kind). */
  fail(id: string, raw: unknown): Promise<void>;
  /** The context of a processing job, for running one of its units here (a page, on a worker). */
  context(job: JobRecord, signal: AbortSignal): JobContext;
  /** Moves a queued or processing job to cancelled and tells its followers; false when it was not. */
  cancel(id: string): Promise<{ cancelled: boolean; status: JobStatus | null }>;
  /** Forgets what the executor kept for a job this process no longer runs (its webhook order). */
  forget(id: string): void;
  setPageView(surface: JobSurface["name"], view: PageView): void;
}

/** How a queue runs a job. */
export interface RunOptions {
  /** Adapts the job's context before its kind runs: where its pages go, what it keeps. */
  adapt?: (ctx: JobContext) => JobContext;
}

/** Waits for `work` at most `ms` (its failure counts as its end); answers whether it ended in time. */
export function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  if (!Number.isFinite(ms))
    return work.then(
      () => true,
      () => true,
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, ms));
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Creates the executor of `deps`; see JobExecutor. */
export function createJobExecutor(deps: RunnerDeps): JobExecutor {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const kindOf = (job: JobRecord): Promise<JobKind> => (deps.kinds?.[job.type] ?? JOB_KINDS[job.type])();
  const events = deps.events ?? localEventBus(deps.store);
  const pageViews = new Map<JobSurface["name"], PageView>();

  const emit = events.emit;
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

  /**
   * The patch of a terminal transition: retention, and the input as the kind keeps it once
   * ended, without the caller's secrets whatever the kind (every job type's LLM key).
   */
  function ending(kind: JobKind, job: JobRecord, at: number, error?: string, result?: unknown) {
    return {
      error,
      result,
      finishedAt: at,
      expiresAt: at + deps.config.jobRetentionMs,
      input: withoutSecrets(kind.endedInput ? kind.endedInput(job.input) : job.input),
    };
  }

  function context(job: JobRecord, fresh: boolean, signal: AbortSignal) {
    const id = job.id;
    const surface = surfaceOf(job);
    const ctx: JobContext = {
      job,
      fresh,
      signal,
      config: deps.config,
      store: deps.store,
      engines: deps.engines,
      now,
      emit: (event) => emit(id, event),
      progress: () => events.changed(id),
      notify: (event, data) => notify(job, event, data),
      // Read at most once a second for the job's pages in this process, whatever runs them.
      httpOnly: keptQuotaRead(() => httpOnly(job.accountId), now),
      pageView: surface ? pageViews.get(surface.name) : undefined,
      charge: (credits, tokens) =>
        chargeLaterWork(deps.store, {
          accountId: job.accountId,
          keyId: job.keyId ?? null,
          route: job.type,
          credits,
          tokens,
          at: now(),
        }),
      log,
    };
    return ctx;
  }

  async function run(id: string, signal: AbortSignal, options: RunOptions = {}) {
    const fresh = await deps.store.jobs.transition(id, ["queued"], "processing", {}, now());
    const job = await deps.store.jobs.get(id);
    if (job?.status !== "processing") return;
    const kind = await kindOf(job);
    if (fresh) notify(job, "started", { type: job.type });
    const made = context(job, fresh, signal);
    const ctx = options.adapt ? options.adapt(made) : made;
    let end: JobEnd | null;
    try {
      end = await kind.run(ctx);
    } catch (raw) {
      if (signal.aborted) return;
      // An unexpected failure ends the job as failed rather than leaving it processing forever.
      end = { status: "failed", error: toSiphonError(raw).message };
    }
    if (!end || signal.aborted) return;
    // Page events this process holds go out before the job reads as ended anywhere: a follower
    // that reads the ended job (a tick, a resync) ends its stream there.
    events.flush?.(id);
    const counts = (await deps.store.jobs.get(id)) as JobRecord;
    const at = now();
    const ended = await deps.store.jobs.transition(
      id,
      ["processing"],
      end.status,
      ending(kind, job, at, end.error, end.result),
      at,
    );
    if (!ended) return;
    if (end.status === "completed")
      notify(job, "completed", { total: counts.total, completed: counts.completed, ...end.completed });
    else notify(job, "failed", { error: end.error });
    emit(id, {
      type: "done",
      status: end.status,
      completed: finishedCount(counts),
      total: counts.total,
    });
  }

  /** Ends a job failed when its run broke outside its kind (the store, loading the kind). */
  async function fail(id: string, raw: unknown) {
    const job = await deps.store.jobs.get(id);
    if (!job) return;
    const at = now();
    const kind = await kindOf(job).catch(() => ({}) as JobKind);
    await deps.store.jobs.transition(
      id,
      ["queued", "processing"],
      "failed",
      ending(kind, job, at, toSiphonError(raw).message),
      at,
    );
  }

  return {
    events,
    run,
    fail,
    context: (job, signal) => context(job, false, signal),
    async cancel(id) {
      const before = await deps.store.jobs.get(id);
      if (!before) return { cancelled: false, status: null };
      const at = now();
      const cancelled = await deps.store.jobs.transition(
        id,
        ["queued", "processing"],
        "cancelled",
        ending(await kindOf(before), before, at),
        at,
      );
      const job = await deps.store.jobs.get(id);
      if (cancelled && job)
        emit(id, {
          type: "done",
          status: "cancelled",
          completed: finishedCount(job),
          total: job.total,
        });
      return { cancelled, status: job?.status ?? null };
    },
    forget(id) {
      hooks.delete(id);
    },
    setPageView(surface, view) {
      pageViews.set(surface, view);
    },
  };
}

/**
 * Creates the runner of a single process: jobs run here, every step persisted, so a new runner
 * resumes what a dead one left.
 */
export function createJobRunner(deps: RunnerDeps): JobRunner {
  const now = deps.now ?? Date.now;
  const executor = createJobExecutor(deps);
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let closed = false;

  function start(id: string): void {
    if (closed || running.has(id)) return;
    const abort = new AbortController();
    const done = executor
      .run(id, abort.signal)
      .catch((raw) => executor.fail(id, raw).catch(() => {}))
      .finally(() => {
        running.delete(id);
        executor.forget(id);
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
      const { cancelled, status } = await executor.cancel(id);
      if (cancelled) running.get(id)?.abort.abort();
      return status;
    },
    subscribe: (id, listener) => executor.events.subscribe(id, listener),
    setPageView: (surface, view) => executor.setPageView(surface, view),
    async close(options = {}) {
      closed = true;
      clearInterval(sweep);
      const until = Date.now() + (options.graceMs ?? Number.POSITIVE_INFINITY);
      // Aborted, a job's pages still running stay pending in the store and are fetched again on resume.
      for (const { abort } of running.values()) abort.abort();
      await within(Promise.all([...running.values()].map((r) => r.done)), until - Date.now());
      await within(deps.webhooks.drain(), until - Date.now());
    },
  };
}

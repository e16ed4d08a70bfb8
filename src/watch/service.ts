import { chargeLaterWork } from "../auth/meter.ts";
import type { Plan } from "../auth/plans.ts";
import { loadPlans } from "../auth/plans.ts";
import { accountTier } from "../auth/principal.ts";
import { weekStart } from "../auth/week.ts";
import type { Config } from "../config.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import {
  checkWebhookTarget,
  createWebhookSender,
  type WebhookConfig,
  type WebhookEvent,
  type WebhookSender,
} from "../jobs/webhooks.ts";
import type { Engines } from "../pipeline/engines.ts";
import { MAX_WATCHES_PER_ACCOUNT, type WatchCreateInput, type WatchPatchInput } from "../schemas/watch.ts";
import type { Store, WatchCheckRecord, WatchPatch, WatchRecord } from "../store/types.ts";
import { type CheckRun, runCheck } from "./check.ts";
import {
  checkWatchUrl,
  createInterval,
  DEFAULT_OPTIONS,
  mergeOptions,
  requestedInterval,
  watchOptions,
  watchWebhook,
} from "./options.ts";
import { dueFrom } from "./schedule.ts";
import { checkView } from "./view.ts";

/** How long a claim on a watch holds: past it, a check that never finished (a dead process) is free again. */
export const CLAIM_LEASE_MS = 10 * 60_000;
/** The longest one check may take (within the lease, so a slow check never overlaps another). */
const CHECK_DEADLINE_MS = 3 * 60_000;
/** How often a manual check asks again for a watch another process is checking. */
const CLAIM_RETRY_MS = 250;
/** How long a manual check waits for another process's check of the same watch. */
const CLAIM_WAIT_MS = 30_000;

/** What the watch service needs. */
export interface WatchDeps {
  config: Config;
  store: Store;
  engines: Engines;
  now?: () => number;
  /** Warnings for the operator (failed checks of scheduled watches); never secrets. */
  log?: (line: string) => void;
  /** Delivers `changed` webhooks; one of the service's own when absent. */
  webhooks?: WebhookSender;
}

/**
 * A watch's webhook as stored: a job webhook's config, and the surface whose notifier describes
 * its checks (absent: siphon's own `changed` event).
 */
export type WatchHook = WebhookConfig & { surface?: string };

/**
 * How a surface's webhooks tell of a recorded check: the events to send and their data (the
 * Firecrawl-compatible API sends monitor.page and monitor.check.completed after every check).
 */
export type WatchNotifier = (
  watch: WatchRecord,
  check: WatchCheckRecord,
) => { event: WebhookEvent; data: Record<string, unknown> }[];

/** What a surface may give beside the request: a webhook it built (its target is checked here). */
export interface SurfaceOptions {
  webhook?: WatchHook | null;
}

/** Options of a manual check. */
export interface CheckNowOptions {
  /** Over the weekly quota: plain HTTP only (the route's admission says). */
  httpOnly?: boolean;
  signal?: AbortSignal;
}

/**
 * Watches: create, read, change and delete them, and check them (now, or as the scheduler
 * claims them). Every read and write names the owning account: another account's watch is
 * not found. Checks of one watch never overlap, in this process or across processes.
 */
export interface WatchService {
  /** Throws SiphonError invalid_request, invalid_url or forbidden_url for a watch that could never be checked. */
  create(input: WatchCreateInput, accountId: string, surface?: SurfaceOptions): Promise<WatchRecord>;
  list(accountId: string, limit: number, offset: number): Promise<WatchRecord[]>;
  /** Throws SiphonError not_found. */
  get(id: string, accountId: string): Promise<WatchRecord>;
  /**
   * Applies a PATCH. A new url or new fetch options or noise rules reset the baseline (the next
   * check records a new one, soon); resuming a watch makes it due when its interval has passed.
   * Throws like create, and not_found.
   */
  update(
    id: string,
    accountId: string,
    patch: WatchPatchInput,
    surface?: SurfaceOptions,
  ): Promise<WatchRecord>;
  /** Deletes a watch and its history. Throws not_found. */
  remove(id: string, accountId: string): Promise<void>;
  /** A watch's checks, newest first. */
  history(watch: WatchRecord, limit: number, offset?: number): Promise<WatchCheckRecord[]>;
  /**
   * Checks a watch now (paused ones too) and returns the recorded check. When a check of it is
   * running in this process, that check's result is the answer; when another process holds it,
   * this waits for it. Throws not_found; the check's own SiphonError when the page could not be
   * read (the failed check is recorded first); rate_limited when the other process never lets go.
   */
  checkNow(id: string, accountId: string, options?: CheckNowOptions): Promise<WatchCheckRecord>;
  /**
   * Runs a check the scheduler claimed with `token`, charging the watch's account a credit
   * when it read the page. Never throws.
   */
  runClaimed(watch: WatchRecord, token: string, signal: AbortSignal): Promise<void>;
  /** Lets a surface describe the checks of watches whose webhook names it (WatchHook.surface). */
  setNotifier(surface: string, notifier: WatchNotifier): void;
  /** Waits for webhook deliveries in flight. */
  close(): Promise<void>;
}

/** Creates the watch service. */
export function createWatchService(deps: WatchDeps): WatchService {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const webhooks = deps.webhooks ?? createWebhookSender(deps.config, { now, log });
  const plans: Map<string, Plan> = loadPlans(deps.config);
  const watches = deps.store.watches;
  // Checks running in this process, by watch: a manual check joins one the scheduler runs.
  const running = new Map<string, Promise<CheckRun>>();
  const notifiers = new Map<string, WatchNotifier>();

  async function owned(id: string, accountId: string): Promise<WatchRecord> {
    const watch = await watches.get(id);
    if (!watch || watch.accountId !== accountId) {
      throw new SiphonError("not_found", `No watch ${id}`, { hint: "List your watches with GET /v1/watch." });
    }
    return watch;
  }

  /** Past the weekly quota a scheduled check reads plain HTTP only, like a job's pages. */
  async function httpOnly(accountId: string): Promise<boolean> {
    const account = await deps.store.accounts.getAccount(accountId);
    const tier = account ? accountTier(account, deps.config) : "free";
    const plan = plans.get(tier) ?? plans.get("free");
    if (!plan || plan.unlimited) return false;
    return (await deps.store.usage.weeklyCredits(accountId, weekStart(now()))) >= plan.weeklyQuota;
  }

  /** siphon's own webhook: a `changed` event when a check found a change. */
  const changedEvent: WatchNotifier = (watch, check) => {
    if (check.status !== "changed") return [];
    const view = checkView(check);
    const data = {
      watchId: watch.id,
      url: watch.url,
      name: watch.name,
      checkId: view.id,
      checkedAt: view.checkedAt,
      previousFingerprint: view.previousFingerprint,
      currentFingerprint: view.currentFingerprint,
      summary: view.summary,
      addedText: view.addedText,
      removedText: view.removedText,
      diff: view.diff,
    };
    return [{ event: "changed", data }];
  };

  function notify(watch: WatchRecord, run: CheckRun) {
    const hook = watch.webhook as WatchHook | null;
    if (!run.recorded || !hook) return;
    const describe = (hook.surface && notifiers.get(hook.surface)) || changedEvent;
    for (const { event, data } of describe(watch, run.check)) webhooks.send(hook, event, data);
  }

  /** The webhook a request or a surface gives, its target checked; undefined when neither gives one. */
  function webhookOf(
    input: WatchCreateInput | WatchPatchInput,
    surface: SurfaceOptions | undefined,
  ): WatchHook | null | undefined {
    if (surface?.webhook !== undefined) {
      if (surface.webhook) checkWebhookTarget(surface.webhook.url, deps.config);
      return surface.webhook;
    }
    if (input.webhook === undefined) return undefined;
    return input.webhook ? watchWebhook(input.webhook, deps.config) : null;
  }

  /** Runs a claimed check, known to this process while it runs, and sends its webhook. */
  function start(
    watch: WatchRecord,
    token: string,
    trigger: WatchCheckRecord["trigger"],
    options: CheckNowOptions,
  ): Promise<CheckRun> {
    const signal = AbortSignal.any(
      [AbortSignal.timeout(CHECK_DEADLINE_MS), options.signal].filter((s): s is AbortSignal => !!s),
    );
    const run = runCheck(watch, token, trigger, {
      ...deps,
      now,
      signal,
      cancel: options.signal,
      httpOnly: options.httpOnly,
    })
      .catch(async (raw) => {
        // The store failed: give the claim back rather than hold the watch for a lease.
        await watches.release(watch.id, token).catch(() => {});
        throw raw;
      })
      .then((done) => {
        notify(watch, done);
        return done;
      })
      .finally(() => running.delete(watch.id));
    running.set(watch.id, run);
    return run;
  }

  async function claim(
    id: string,
    signal?: AbortSignal,
  ): Promise<{ watch: WatchRecord; token: string } | CheckRun> {
    const waitUntil = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const inProcess = running.get(id);
      if (inProcess) return inProcess;
      const token = crypto.randomUUID();
      const watch = await watches.claim(id, now(), { token, until: now() + CLAIM_LEASE_MS });
      if (watch) return { watch, token };
      if (Date.now() >= waitUntil || signal?.aborted) {
        throw new SiphonError("rate_limited", `A check of watch ${id} is already running`, {
          hint: "Retry in a few seconds.",
          headers: { "retry-after": "5" },
        });
      }
      await Bun.sleep(CLAIM_RETRY_MS);
    }
  }

  return {
    async create(input, accountId, surface) {
      const url = await checkWatchUrl(input.url, deps.config);
      const options = mergeOptions(DEFAULT_OPTIONS, input);
      const intervalMinutes = createInterval(input, deps.config);
      const webhook = webhookOf(input, surface) ?? null;
      if ((await watches.count(accountId)) >= MAX_WATCHES_PER_ACCOUNT) {
        throw new SiphonError(
          "invalid_request",
          `An account may have at most ${MAX_WATCHES_PER_ACCOUNT} watches`,
          {
            hint: "Delete watches you no longer need (DELETE /v1/watch/:id).",
          },
        );
      }
      const at = now();
      const watch: WatchRecord = {
        id: `watch_${crypto.randomUUID()}`,
        accountId,
        url,
        name: input.name ?? null,
        status: input.status ?? "active",
        intervalMinutes,
        options,
        webhook,
        lastFingerprint: null,
        baseline: null,
        lastCheckedAt: null,
        lastChangedAt: null,
        lastError: null,
        changeCount: 0,
        checkCount: 0,
        // Due at once: the first check records the baseline.
        nextCheckAt: at,
        revision: 0,
        createdAt: at,
        updatedAt: at,
      };
      await watches.create(watch);
      return watch;
    },

    list: (accountId, limit, offset) => watches.list(accountId, limit, offset),

    get: owned,

    async update(id, accountId, input, surface) {
      const watch = await owned(id, accountId);
      const at = now();
      const patch: WatchPatch = {};
      if (input.url !== undefined) {
        const url = await checkWatchUrl(input.url, deps.config);
        if (url !== watch.url) patch.url = url;
      }
      const before = watchOptions(watch.options);
      const options = mergeOptions(before, input);
      if (JSON.stringify(options) !== JSON.stringify(before)) patch.options = options;
      if (input.name !== undefined) patch.name = input.name;
      const webhook = webhookOf(input, surface);
      if (webhook !== undefined) patch.webhook = webhook;
      const interval = requestedInterval(input, deps.config) ?? watch.intervalMinutes;
      const status = input.status ?? (watch.status === "paused" ? "paused" : watch.status);
      if (interval !== watch.intervalMinutes) patch.intervalMinutes = interval;
      if (input.status !== undefined && input.status !== watch.status) patch.status = input.status;
      if (patch.url !== undefined || patch.options !== undefined) {
        // What a check reads changed: the old baseline compares with nothing now.
        Object.assign(patch, { revision: true, lastFingerprint: null, baseline: null, nextCheckAt: at });
      } else if (patch.intervalMinutes !== undefined || (patch.status !== undefined && status !== "paused")) {
        patch.nextCheckAt = dueFrom(watch.lastCheckedAt, interval, at);
      }
      if (Object.keys(patch).length === 0) return watch;
      const updated = await watches.update(id, patch, at);
      if (!updated) throw new SiphonError("not_found", `No watch ${id}`);
      return updated;
    },

    async remove(id, accountId) {
      await owned(id, accountId);
      await watches.delete(id);
    },

    history: (watch, limit, offset = 0) => watches.checks(watch.id, limit, offset),

    async checkNow(id, accountId, options = {}) {
      await owned(id, accountId);
      const claimed = await claim(id, options.signal);
      const run = "check" in claimed ? claimed : await start(claimed.watch, claimed.token, "manual", options);
      if (!run.recorded) {
        if (options.signal?.aborted && run.error) throw run.error;
        throw new SiphonError("not_found", `Watch ${id} was deleted or changed while it was checked`, {
          hint: "A changed watch records a new baseline at its next check; check it again.",
        });
      }
      if (run.error) throw run.error;
      return run.check;
    },

    async runClaimed(watch, token, signal) {
      try {
        const done = await start(watch, token, "scheduled", {
          signal,
          httpOnly: await httpOnly(watch.accountId),
        });
        // Like a job's page: the account pays for a page read, not for a check that could not read it.
        if (done.recorded && !done.error) {
          await chargeLaterWork(deps.store, {
            accountId: watch.accountId,
            keyId: null,
            route: "watch",
            credits: 1,
            at: done.check.checkedAt,
          });
        }
        if (done.error && done.recorded) log(`watch ${watch.id}: check failed: ${done.error.message}`);
      } catch (raw) {
        log(`watch ${watch.id}: check not recorded: ${toSiphonError(raw).message}`);
      }
    },

    setNotifier(name, notifier) {
      notifiers.set(name, notifier);
    },

    async close() {
      await Promise.allSettled([...running.values()]);
      await webhooks.drain();
    },
  };
}

import type { Store } from "../store/types.ts";
import { CLAIM_LEASE_MS, type WatchService } from "./service.ts";

/** How often the scheduler looks for due watches when no check just finished. */
export const DEFAULT_TICK_MS = 5_000;

/**
 * Runs due watch checks: in `siphon serve` with role all (the single process) or worker (each
 * worker of a hosted cluster runs one), never in an API-only process. Claiming is the store's
 * compare-and-set, so several schedulers on one store never run the same check.
 */
export interface WatchScheduler {
  /** Starts looking for due watches: now (catching up on overdue ones), then every tick. */
  start(): void;
  /** Claims and starts as many due checks as there are free slots now; resolves with how many started. */
  tick(): Promise<number>;
  /** Resolves once no check this scheduler started is running. */
  idle(): Promise<void>;
  /** Stops ticking and aborts running checks (their claims are given back); resolves when they have ended. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  store: Store;
  now?: () => number;
  /** Most checks at once (SIPHON_WATCH_CONCURRENCY). */
  concurrency: number;
  tickMs?: number;
  log?: (line: string) => void;
}

/**
 * Creates a scheduler over `service`. No thundering herd: at most `concurrency` checks run at
 * once, the most overdue first, and each check's next time carries a per-watch jitter (see
 * nextCheckAt). After a restart each overdue watch is checked once, not once per missed
 * interval, since a check schedules the next from its own time. A watch is never checked twice
 * at once: a claim is a compare-and-set in the store, held for CLAIM_LEASE_MS at most.
 */
export function createWatchScheduler(service: WatchService, options: SchedulerOptions): WatchScheduler {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const concurrency = Math.max(1, options.concurrency);
  const running = new Set<Promise<void>>();
  const abort = new AbortController();
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking: Promise<number> | null = null;
  let stopped = false;

  async function claimAndStart(): Promise<number> {
    const free = concurrency - running.size;
    if (stopped || free <= 0) return 0;
    const token = crypto.randomUUID();
    const due = await options.store.watches.claimDue(now(), free, { token, until: now() + CLAIM_LEASE_MS });
    for (const watch of due) {
      const run: Promise<void> = service.runClaimed(watch, token, abort.signal).finally(() => {
        running.delete(run);
        // A slot is free: the next due watch need not wait for the timer.
        if (!stopped) void tick();
      });
      running.add(run);
    }
    return due.length;
  }

  function tick(): Promise<number> {
    // One claim at a time: overlapping ticks would only compete for the same rows.
    if (!ticking) {
      ticking = claimAndStart()
        .catch((error) => {
          log(`watch scheduler: ${(error as Error)?.message ?? String(error)}`);
          return 0;
        })
        .finally(() => {
          ticking = null;
        });
    }
    return ticking;
  }

  return {
    start() {
      if (stopped || timer) return;
      timer = setInterval(() => void tick(), options.tickMs ?? DEFAULT_TICK_MS);
      timer.unref?.();
      void tick();
    },
    tick,
    async idle() {
      while (running.size > 0 || ticking) {
        await Promise.allSettled([...running, ticking]);
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      abort.abort();
      await Promise.allSettled([...running, ticking]);
    },
  };
}

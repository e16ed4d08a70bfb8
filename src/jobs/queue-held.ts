import type { Store } from "../store/types.ts";
import { type JobRun, openPageRun } from "./kinds/pages.ts";
import type { JobExecutor } from "./runner.ts";

export type StopReason = "cancel" | "shutdown" | "lost";

/** Work this process holds for one job: aborted, with a reason, on cancel, shutdown or lost claim. */
export interface Held {
  abort: AbortController;
  reason: StopReason | null;
}

export const held = (): Held => ({ abort: new AbortController(), reason: null });

/** Aborts `work` for `reason`; the first reason stays. */
export function stop(work: Held, reason: StopReason): void {
  if (work.reason) return;
  work.reason = reason;
  work.abort.abort();
}

/** A job's page run in this process: what its pages share here (robots.txt, limits), and its abort. */
export interface PageRun {
  held: Held;
  /** null when the job is not processing: its pages are skipped. */
  run: Promise<JobRun | null>;
}

/** How long a page run is kept once no page of its job arrived, ms. */
const FORGET_AFTER_MS = 60_000;
/**
 * The page runs of a worker process, one per job it runs pages of. A run is read again from the
 * store every `checkAfterMs` (a job cancelled or ended while its control message was lost stops
 * here) and forgotten a minute after its last page (its robots.txt read again if needed).
 */
export function createPageRuns(store: Store, executor: JobExecutor, checkAfterMs: number) {
  const runs = new Map<string, PageRun & { checkedAt: number; usedAt: number }>();
  const drop = (id: string, entry: PageRun) => {
    if (runs.get(id) === entry) runs.delete(id);
  };

  const idle = setInterval(() => {
    const now = Date.now();
    for (const [id, entry] of runs)
      if (now - entry.usedAt > FORGET_AFTER_MS) {
        runs.delete(id);
        executor.forget(id);
      }
  }, FORGET_AFTER_MS / 2);
  idle.unref?.();

  return {
    /** The job's page run here, opened on its first page. */
    of(id: string): PageRun {
      const now = Date.now();
      let entry = runs.get(id);
      if (entry && now - entry.checkedAt > checkAfterMs) {
        entry.checkedAt = now;
        const current = entry;
        void store.jobs.get(id).then(
          (job) => {
            if (job?.status !== "processing") {
              stop(current.held, "cancel");
              drop(id, current);
            }
          },
          () => {},
        );
      }
      if (!entry) {
        const work = held();
        const run = store.jobs
          .get(id)
          .then((job) =>
            job?.status === "processing" ? openPageRun(executor.context(job, work.abort.signal)) : null,
          );
        const created = { held: work, run, checkedAt: now, usedAt: now };
        entry = created;
        runs.set(id, created);
        // A failed read is not remembered: the next page reads again.
        run.then(
          (value) => {
            if (value === null) drop(id, created);
          },
          () => drop(id, created),
        );
      }
      entry.usedAt = now;
      return entry;
    },
    /** Stops the job's pages here (cancelled). */
    cancel(id: string): void {
      const entry = runs.get(id);
      if (!entry) return;
      stop(entry.held, "cancel");
      runs.delete(id);
    },
    /** Stops every page run here for `reason`, and the sweep. */
    stopAll(reason: StopReason): void {
      clearInterval(idle);
      for (const entry of runs.values()) stop(entry.held, reason);
    },
  };
}

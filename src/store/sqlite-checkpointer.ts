import type { Database } from "bun:sqlite";
import { type BunWorker, threadEntry } from "../thread-entry.ts";

/**
 * Checkpoints of a SQLite file in WAL mode, run on a thread of their own.
 *
 * SQLite copies the WAL back into the database file (a checkpoint) inside
 * the commit that takes the WAL past `wal_autocheckpoint` pages, and with
 * `synchronous = NORMAL` a checkpoint waits on two fsyncs: 6-15 ms in which
 * the event loop does nothing, 25-40 times in a 2,000-page crawl. Once a
 * process has written enough to matter (`START_AFTER` large writes: a crawl's
 * pages, cached pages), a thread with its own connection runs a passive
 * checkpoint (it never blocks a writer) every `MIN_IDLE_MS` while the WAL
 * grows, and less often while it does not. Its fsyncs are waited on there.
 * The WAL starts over when a writer finds it wholly copied: after a burst of
 * writes, or at the latest when the event loop's own automatic checkpoint,
 * moved to `NET_PAGES`, finds only what the thread has not copied yet (a few
 * pages' worth, so a short stall). Durability is SQLite's as before: the same
 * fsyncs, on another thread.
 */

/** Large writes (a page's result, a cached page) before the thread starts: a one-shot command never starts it. */
export const START_AFTER = 64;
/** SQLite's automatic checkpoint without the thread: WAL pages (4 KB each). */
const DEFAULT_PAGES = 1_000;
/** The event loop's automatic checkpoint while the thread runs. */
export const NET_PAGES = 10_000;
/** A caught-up thread looks again after this long, doubling while nothing is written, up to `MAX_IDLE_MS`. */
export const MIN_IDLE_MS = 25;
export const MAX_IDLE_MS = 1_000;
/** How long close() waits for the thread to close its connection before ending it. */
const STOP_WAIT_MS = 2_000;

/** What `PRAGMA wal_checkpoint(PASSIVE)` answers: WAL frames in all, and copied so far. */
export interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

/** Messages to the thread. */
export type CheckpointerMessage = { path: string } | { stop: true };

/**
 * How long the thread waits before its next checkpoint, from the pass just run and the one
 * before: after a pass that copied anything, the shortest pause (a few pages' worth of frames
 * then go in one pass, with one pair of fsyncs); after one that found nothing new (or was held
 * back by a reader's snapshot), twice the last pause, up to the longest.
 */
export function nextPause(pass: CheckpointRow, before: CheckpointRow | null, lastPause: number): number {
  const moved = before === null || pass.log !== before.log || pass.checkpointed !== before.checkpointed;
  if (moved) return MIN_IDLE_MS;
  return Math.min(Math.max(lastPause * 2, MIN_IDLE_MS), MAX_IDLE_MS);
}

export interface Checkpointer {
  /** Counts a large write; the thread starts at the `START_AFTER`th. */
  wrote(): void;
  /** Stops the thread once it has closed its connection: before the store closes its own. */
  close(): Promise<void>;
}

/** The checkpointer of the file at `path`, opened as `sqlite`; it starts on its own once writes add up. */
export function walCheckpointer(sqlite: Database, path: string): Checkpointer {
  let writes = 0;
  /** The thread while it runs, and when it has stopped (closed its connection, failed or ended). */
  let running: { worker: BunWorker; stopped: Promise<void> } | undefined;

  const start = () => {
    let worker: BunWorker;
    try {
      const entry = threadEntry(import.meta.url, "src/store/sqlite-checkpoint-thread.ts");
      worker = new Worker(entry) as BunWorker;
    } catch {
      return; // no thread: SQLite's own checkpoints go on as before
    }
    worker.unref();
    // A thread that fails (its file gone, say) hands checkpoints back to the event loop.
    const handBack = () => {
      try {
        sqlite.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_PAGES}`);
      } catch {
        // the store is closed already
      }
    };
    const stopped = new Promise<void>((resolve) => {
      worker.addEventListener("message", (event: MessageEvent<{ failed: boolean }>) => {
        if (event.data.failed) handBack();
        resolve();
      });
      worker.addEventListener("error", () => {
        handBack();
        resolve();
      });
      worker.addEventListener("close", () => resolve());
    });
    running = { worker, stopped };
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${NET_PAGES}`);
    worker.postMessage({ path } satisfies CheckpointerMessage);
  };

  return {
    wrote() {
      if (++writes === START_AFTER) start();
    },
    async close() {
      if (!running) return;
      const { worker, stopped } = running;
      running = undefined;
      worker.postMessage({ stop: true } satisfies CheckpointerMessage);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stopped, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(timer);
      worker.terminate();
    },
  };
}

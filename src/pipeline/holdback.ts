import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Writes a metered request must not keep unless it is paid for. A fresh page goes into the cache
 * only once the request's credit is recorded: were the usage store down after the page was
 * fetched, the request fails, and a cached page would make its retry a free hit. The metering
 * edge runs the request inside `holdingWrites`; the pipeline hands its cache writes to
 * `holdWrite`, which queues them there and runs them at once anywhere else (jobs, the CLI).
 */

interface Holdback {
  writes: (() => Promise<void>)[];
  /** False once released: a write that comes later (work the request started) runs at once. */
  open: boolean;
}

const storage = new AsyncLocalStorage<Holdback>();

/** What `holdingWrites` answers: the value, and the decision about the writes it held. */
export interface Held<T> {
  value: T;
  /** Runs the held writes (keep: the request was paid for) or drops them; failures of a write are ignored. */
  release(keep: boolean): Promise<void>;
}

/**
 * Runs `work` with the writes it hands to `holdWrite` held until `release`. When `work` throws,
 * its writes are dropped and the error is rethrown.
 */
export async function holdingWrites<T>(work: () => Promise<T>): Promise<Held<T>> {
  const holdback: Holdback = { writes: [], open: true };
  let value: T;
  try {
    value = await storage.run(holdback, work);
  } catch (error) {
    holdback.open = false;
    holdback.writes.length = 0;
    throw error;
  }
  return {
    value,
    async release(keep) {
      holdback.open = false;
      const writes = holdback.writes.splice(0);
      if (!keep) return;
      // A write that fails costs the next request a fetch, not this one its answer.
      await Promise.all(writes.map((write) => write().catch(() => {})));
    },
  };
}

/**
 * Runs `write` now, or, inside `holdingWrites`, once the request is paid for. Either way a write
 * that fails is dropped: it costs the next request a fetch, not this one its answer.
 */
export async function holdWrite(write: () => Promise<void>): Promise<void> {
  const holdback = storage.getStore();
  if (holdback?.open) holdback.writes.push(write);
  else await write().catch(() => {});
}

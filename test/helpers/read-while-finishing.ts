import type { Store } from "../../src/store/types.ts";

/**
 * Pages through a job's results by offset while `finishing` is still finishing its items, as a
 * poller would, until a read after `finishing` settled comes back empty; answers every URL read,
 * in the order read. A store that skips or repeats a place shows here as a missing or repeated URL.
 * Between reads it lets the event loop turn, as a poller waiting on its next request does: the
 * stores standing in for other processes share this one's loop, and SQLite's commit their writes
 * at the end of a turn (src/store/sqlite-turn-writes.ts).
 */
export async function readWhileFinishing(
  store: Store,
  jobId: string,
  finishing: Promise<unknown>,
  pageSize: number,
): Promise<string[]> {
  const seen: string[] = [];
  let done = false;
  void finishing.then(() => {
    done = true;
  });
  for (;;) {
    const last = done;
    const items = await store.jobs.results(jobId, seen.length, pageSize);
    seen.push(...items.map((item) => item.url));
    if (last && items.length === 0) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await finishing;
  return seen;
}

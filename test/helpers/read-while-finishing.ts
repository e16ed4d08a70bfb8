import type { Store } from "../../src/store/types.ts";

/**
 * Pages through a job's results by offset while `finishing` is still finishing its items, as a
 * poller would, until a read after `finishing` settled comes back empty; answers every URL read,
 * in the order read. A store that skips or repeats a place shows here as a missing or repeated URL.
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
  }
  await finishing;
  return seen;
}

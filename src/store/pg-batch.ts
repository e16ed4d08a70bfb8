/** Most calls one statement carries: a crawl's worker has tens of pages in flight, not hundreds. */
const MOST_AT_ONCE = 100;

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Calls under one key (a job, an account's week) that arrive while a statement of that key is in
 * flight wait for it and then go together in the next one: one statement, one round trip and one
 * row lock for many writes, where each used to queue on the same row lock. A call alone goes at
 * once; each call resolves once its own statement has committed (or rejects with its error), so
 * nothing is reported written before it is. `run` answers one result per item, in order.
 */
export function grouped<I, R>(
  run: (key: string, items: I[]) => Promise<R[]>,
): (key: string, item: I) => Promise<R> {
  const queues = new Map<string, Waiting<I, R>[]>();

  async function drain(key: string, queue: Waiting<I, R>[]) {
    while (queue.length) {
      const batch = queue.splice(0, MOST_AT_ONCE);
      try {
        const results = await run(
          key,
          batch.map((w) => w.item),
        );
        for (const [i, w] of batch.entries()) w.resolve(results[i] as R);
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    queues.delete(key);
  }

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      const queue = queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      const fresh = [{ item, resolve, reject }];
      queues.set(key, fresh);
      void drain(key, fresh);
    });
}

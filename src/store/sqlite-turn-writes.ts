import type { Database } from "bun:sqlite";

interface Queued {
  write(): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A queue of writes committed together; `flush` runs what is queued now (before the store closes). */
export interface TurnWriter {
  <T>(write: () => T): Promise<T>;
  flush(): void;
}

/**
 * The writes asked for in one turn of the event loop, committed together (SQLite's side of what
 * pg-batch.ts does for PostgreSQL). A crawl's pages finish a few at a time and each finish is a
 * transaction of its own (the item's row and result, the job's counts, the links it adds);
 * committed one by one, every commit wrote again the database pages they share (the job's row,
 * the items' index), 17 WAL frames a page, each a system call. Queued here, the writes of one turn
 * run in order at its end (setImmediate), each in a savepoint of one IMMEDIATE transaction, and
 * each caller's promise settles once that transaction has committed: a caller goes on only with
 * its write committed, as before; a write that throws rolls back alone and rejects its caller; a
 * commit that fails rejects every caller of the batch, none of whose writes then happened.
 */
export function turnWriter(sqlite: Database): TurnWriter {
  let queue: Queued[] = [];
  // Called inside the batch's transaction, a transaction function runs in a savepoint.
  const alone = sqlite.transaction((write: () => unknown) => write());
  const batch = sqlite.transaction((writes: Queued[]) =>
    writes.map((queued) => {
      try {
        return { ok: true, value: alone(queued.write) };
      } catch (error) {
        return { ok: false, value: error };
      }
    }),
  );
  const flush = () => {
    const writes = queue;
    queue = [];
    if (writes.length === 0) return;
    let outcomes: { ok: boolean; value: unknown }[];
    try {
      outcomes = batch.immediate(writes);
    } catch (error) {
      for (const queued of writes) queued.reject(error);
      return;
    }
    for (const [i, queued] of writes.entries()) {
      const outcome = outcomes[i] as { ok: boolean; value: unknown };
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(outcome.value);
    }
  };
  const write = <T>(run: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ write: run, resolve: resolve as (value: unknown) => void, reject });
    });
  return Object.assign(write, { flush });
}

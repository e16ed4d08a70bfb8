import { eq, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import type { PgConnection } from "./pg-connection.ts";
import { cacheEntries } from "./pg-schema.ts";
import type { CacheLimits } from "./sqlite-cache.ts";
import type { CacheEntry, CacheStore } from "./types.ts";

/** Reading an entry records the access at most this often, so a hot entry is not a write per hit. */
const TOUCH_EVERY_MS = 60_000;
/** Expired entries are swept at most this often (on writes). */
const SWEEP_EVERY_MS = 60_000;
/** Other processes write too: the size this process keeps is read again from the table this often. */
const RECOUNT_EVERY_MS = 10_000;
/** Eviction brings the cache down to this share of the cap, so it does not run on every write. */
const EVICT_TO = 0.9;
/** An advisory lock key of siphon's own: one process evicts at a time, the others carry on. */
const EVICT_LOCK = 0x5195_0002;

/**
 * The cache in PostgreSQL, shared by every process on the database: the same
 * rule as SQLite's (least recently used entries evicted past the cap, entries
 * past the longest age swept on writes). Each process keeps an estimate of
 * the total size (read from the table, plus its own writes, read again every
 * 10 s); when the estimate passes the cap, one process at a time counts
 * exactly and evicts in one statement.
 */
export function pgCache(pg: PgConnection, limits: CacheLimits): CacheStore {
  let bytes: number | undefined;
  let countedAt = Number.NEGATIVE_INFINITY;
  let lastSweep = 0;

  const used = async (db: BunSQLDatabase): Promise<number> => {
    const now = performance.now();
    if (bytes === undefined || now - countedAt >= RECOUNT_EVERY_MS) {
      const [row] = (await db.execute(
        sql`SELECT coalesce(sum(size), 0) AS total FROM cache_entries`,
      )) as unknown as { total: unknown }[];
      bytes = Number(row?.total ?? 0);
      countedAt = now;
    }
    return bytes;
  };

  /** Deletes the least recently used entries until the cache is under EVICT_TO of the cap. */
  const evict = (db: BunSQLDatabase) =>
    db.transaction(async (tx) => {
      const [lock] = (await tx.execute(
        sql`SELECT pg_try_advisory_xact_lock(${EVICT_LOCK}) AS locked`,
      )) as unknown as { locked: boolean }[];
      // Another process is evicting: it brings the shared table under the cap for everyone.
      if (!lock?.locked) {
        bytes = undefined;
        return;
      }
      const target = Math.floor(limits.maxBytes * EVICT_TO);
      // Oldest first, a running total of sizes; a row goes while the rows before it do not yet free enough.
      const [row] = (await tx.execute(sql`
        WITH total AS (SELECT coalesce(sum(size), 0) AS t FROM cache_entries),
        ranked AS (
          SELECT key, size, sum(size) OVER (ORDER BY accessed_at, created_at, key ROWS UNBOUNDED PRECEDING) AS running
          FROM cache_entries
        ),
        gone AS (
          DELETE FROM cache_entries c USING ranked r, total
          WHERE c.key = r.key AND r.running - r.size < total.t - ${target}::bigint
          RETURNING c.size
        )
        SELECT (SELECT t FROM total) - coalesce((SELECT sum(size) FROM gone), 0) AS left`)) as unknown as {
        left: unknown;
      }[];
      bytes = Number(row?.left ?? 0);
      countedAt = performance.now();
    });

  return {
    get<T>(key: string, now: number): Promise<CacheEntry<T> | null> {
      return pg.run(async (db) => {
        const [row] = await db
          .select({
            value: cacheEntries.value,
            body: cacheEntries.body,
            createdAt: cacheEntries.createdAt,
            accessedAt: cacheEntries.accessedAt,
          })
          .from(cacheEntries)
          .where(eq(cacheEntries.key, key));
        if (!row || now - row.createdAt > limits.maxAgeMs) return null;
        let value: T;
        try {
          value = JSON.parse(row.value) as T;
        } catch {
          return null;
        }
        if (now - row.accessedAt >= TOUCH_EVERY_MS)
          await db.update(cacheEntries).set({ accessedAt: now }).where(eq(cacheEntries.key, key));
        return { value, body: row.body ? new Uint8Array(row.body) : null, createdAt: row.createdAt };
      });
    },
    set<T>(key: string, url: string, entry: { value: T; body?: Uint8Array; createdAt: number }) {
      return pg.run(async (db) => {
        const json = JSON.stringify(entry.value);
        const size = json.length + (entry.body?.byteLength ?? 0) + key.length + url.length;
        // An entry bigger than the whole cache would evict everything and then itself.
        if (size > limits.maxBytes) return;
        const before = await used(db);
        const [row] = (await db.execute(sql`
          WITH old AS (SELECT size FROM cache_entries WHERE key = ${key})
          INSERT INTO cache_entries (key, url, value, body, size, created_at, accessed_at)
          VALUES (${key}, ${url}, ${json}, ${entry.body ?? null}, ${size}, ${entry.createdAt}::bigint, ${entry.createdAt}::bigint)
          ON CONFLICT (key) DO UPDATE SET url = excluded.url, value = excluded.value, body = excluded.body,
            size = excluded.size, created_at = excluded.created_at, accessed_at = excluded.accessed_at
          RETURNING (SELECT size FROM old) AS replaced`)) as unknown as { replaced: unknown }[];
        bytes = before - Number(row?.replaced ?? 0) + size;
        if (entry.createdAt - lastSweep >= SWEEP_EVERY_MS) {
          lastSweep = entry.createdAt;
          const [swept] = (await db.execute(sql`
            WITH gone AS (DELETE FROM cache_entries WHERE created_at < ${entry.createdAt - limits.maxAgeMs}::bigint RETURNING size)
            SELECT coalesce(sum(size), 0) AS freed FROM gone`)) as unknown as { freed: unknown }[];
          bytes -= Number(swept?.freed ?? 0);
        }
        if (bytes > limits.maxBytes) {
          // The estimate may hold other processes' deletions: count exactly before evicting.
          countedAt = Number.NEGATIVE_INFINITY;
          if ((await used(db)) > limits.maxBytes) await evict(db);
        }
      });
    },
  };
}

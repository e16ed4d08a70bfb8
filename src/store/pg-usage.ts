import { sql } from "drizzle-orm";
import { grouped } from "./pg-batch.ts";
import type { PgConnection } from "./pg-connection.ts";
import { requestLog, usageWeeks } from "./pg-schema.ts";
import type { RequestLogEntry, UsageStore } from "./types.ts";

const FLUSH_EVERY_MS = 200;
const FLUSH_AT_ROWS = 500;
/** Rows kept while the database is away; past this, the oldest are dropped (statistics only). */
const MAX_PENDING_ROWS = 10_000;

export interface PgUsage extends UsageStore {
  /** Writes buffered request-log rows now (the store calls it on close). */
  flush(): Promise<void>;
}

/** Requests of one key (or keyless account), route and status within one second, as SQLite's. */
interface LogRow extends RequestLogEntry {
  count: number;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/**
 * Usage in PostgreSQL, shared by every process on the database. Burst windows
 * live in burst_windows, one row per subject checked and counted by one
 * upsert (the row lock orders concurrent requests, so no process overshoots a
 * limit); weekly credits are one upsert per account and week at a time (charges made
 * meanwhile go together in the next). The request log is buffered and
 * written every 200 ms, one row per key, route, status and second, as on
 * SQLite: it feeds statistics, and the window of a subject that never takes
 * slots (an unlimited plan's).
 */
export function pgUsage(pg: PgConnection): PgUsage {
  const pending = new Map<string, LogRow>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Flushes run one after another, so one that returns has written everything logged before it. */
  let writing: Promise<void> = Promise.resolve();

  const keyOf = (e: RequestLogEntry) =>
    `${e.keyId ?? e.accountId}\u0000${e.route}\u0000${e.status}\u0000${Math.floor(e.at / 1000)}`;

  const add = (key: string, row: LogRow) => {
    const into = pending.get(key);
    if (!into) {
      if (pending.size >= MAX_PENDING_ROWS) {
        const oldest = pending.keys().next().value;
        if (oldest !== undefined) pending.delete(oldest);
      }
      pending.set(key, row);
      return;
    }
    into.count += row.count;
    into.durationMs += row.durationMs;
    into.credits += row.credits;
    into.tokens = (into.tokens ?? 0) + (row.tokens ?? 0);
    into.at = Math.max(into.at, row.at);
  };

  const write = async () => {
    if (!pending.size) return;
    const rows = [...pending.entries()];
    pending.clear();
    try {
      await pg.run((db) =>
        db.insert(requestLog).values(
          rows.map(([, r]) => ({
            accountId: r.accountId,
            keyId: r.keyId,
            route: r.route,
            status: r.status,
            durationMs: Math.round(r.durationMs),
            credits: r.credits,
            at: r.at,
            count: r.count,
            tokens: r.tokens ?? 0,
          })),
        ),
      );
    } catch (error) {
      // Kept for the next flush: the database may be back by then.
      for (const [key, row] of rows) add(key, row);
      schedule();
      throw error;
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const run = writing.then(write);
    writing = run.catch(() => {});
    return run;
  };

  function schedule() {
    if (timer) return;
    // unref: a pending flush must not keep a finished CLI run alive; close() flushes what is left.
    timer = setTimeout(() => void flush().catch(() => {}), FLUSH_EVERY_MS);
    timer.unref?.();
  }

  /** The logged requests of `subject` after `cutoff`: how many, and the time of the oldest row. */
  const logged = async (subject: string, cutoff: number) => {
    await flush();
    const [kind, id = ""] = subject.split(/:(.*)/s);
    const who = kind === "key" ? sql`key_id = ${id}` : sql`account_id = ${id} AND key_id IS NULL`;
    return pg.run(async (db) => {
      const [row] = (await db.execute(
        sql`SELECT coalesce(sum(count), 0) AS used, min(at) AS oldest FROM request_log WHERE ${who} AND at > ${cutoff}::bigint`,
      )) as unknown as { used: unknown; oldest: unknown }[];
      return { used: num(row?.used), oldest: row?.oldest === null ? null : num(row?.oldest) };
    });
  };

  /**
   * Charges to one account's week made here while one of its upserts runs go together in the
   * next, each answered with the total after it (a crawl's pages all charge the same row).
   */
  const charge = grouped<number, number>(async (key, batch) => {
    const [accountId = "", week = "0"] = key.split("\u0000");
    const credits = batch.reduce((sum, c) => sum + c, 0);
    const total = await pg.run(async (db) => {
      const [row] = await db
        .insert(usageWeeks)
        .values({ accountId, weekStart: Number(week), credits })
        .onConflictDoUpdate({
          target: [usageWeeks.accountId, usageWeeks.weekStart],
          set: { credits: sql`${usageWeeks.credits} + excluded.credits` },
        })
        .returning({ credits: usageWeeks.credits });
      return row?.credits ?? credits;
    });
    return batch.map(() => total);
  });

  return {
    takeBurstSlot(subject, now, windowMs, limit) {
      const cutoff = now - windowMs;
      const kept = sql`ARRAY(SELECT t FROM unnest(w.times) AS t WHERE t > ${cutoff}::bigint ORDER BY t)`;
      return pg.run(async (db) => {
        const [row] = (await db.execute(sql`
          INSERT INTO burst_windows AS w (subject, times, admitted)
          VALUES (${subject}, CASE WHEN ${limit}::int > 0 THEN ARRAY[${now}::bigint] ELSE '{}'::bigint[] END, ${limit}::int > 0)
          ON CONFLICT (subject) DO UPDATE SET
            admitted = cardinality(${kept}) < ${limit}::int,
            times = CASE WHEN cardinality(${kept}) < ${limit}::int THEN ${kept} || ${now}::bigint ELSE ${kept} END
          RETURNING admitted, cardinality(times) AS used, (SELECT min(t) FROM unnest(times) AS t) AS oldest`)) as unknown as {
          admitted: boolean;
          used: unknown;
          oldest: unknown;
        }[];
        if (!row) throw new Error("burst window upsert returned no row");
        const used = num(row.used);
        return {
          allowed: row.admitted,
          used,
          oldestExpiresAt: used && row.oldest !== null ? num(row.oldest) + windowMs : now,
        };
      });
    },
    async peekBurst(subject, now, windowMs) {
      const cutoff = now - windowMs;
      const window = await pg.run(async (db) => {
        const [row] = (await db.execute(sql`
          SELECT (SELECT count(*) FROM unnest(times) AS t WHERE t > ${cutoff}::bigint) AS used,
                 (SELECT min(t) FROM unnest(times) AS t WHERE t > ${cutoff}::bigint) AS oldest
          FROM burst_windows WHERE subject = ${subject}`)) as unknown as { used: unknown; oldest: unknown }[];
        return row ? { used: num(row.used), oldest: row.oldest === null ? null : num(row.oldest) } : null;
      });
      // A subject that never took a slot (an unlimited plan's) is seen through its logged requests.
      const { used, oldest } = window ?? (await logged(subject, cutoff));
      return { used, oldestExpiresAt: used && oldest !== null ? oldest + windowMs : now };
    },
    addCredits: (accountId, weekStart, credits) => charge(`${accountId}\u0000${weekStart}`, credits),
    weeklyCredits(accountId, weekStart) {
      return pg.run(async (db) => {
        const [row] = (await db.execute(
          sql`SELECT credits FROM usage_weeks WHERE account_id = ${accountId} AND week_start = ${weekStart}::bigint`,
        )) as unknown as { credits: unknown }[];
        return num(row?.credits);
      });
    },
    logRequest(entry) {
      add(keyOf(entry), { ...entry, count: entry.count ?? 1 });
      if (pending.size >= FLUSH_AT_ROWS) void flush().catch(() => {});
      else schedule();
    },
    async stats(accountId) {
      await flush();
      return pg.run(async (db) => {
        const [row] = (await db.execute(sql`
          SELECT coalesce(sum(count), 0) AS total,
                 coalesce(sum(CASE WHEN status < 400 THEN count ELSE 0 END), 0) AS ok,
                 coalesce(sum(duration_ms)::float8 / nullif(sum(count), 0), 0) AS avg
          FROM request_log WHERE account_id = ${accountId}`)) as unknown as Record<string, unknown>[];
        const total = num(row?.total);
        return {
          totalRequests: total,
          successRate: total ? Math.round((num(row?.ok) / total) * 1000) / 10 : 100,
          avgResponseTime: Math.round(num(row?.avg)),
        };
      });
    },
    async daily(accountId, since) {
      await flush();
      return pg.run(async (db) => {
        const rows = (await db.execute(sql`
          SELECT (at / 86400000) * 86400000 AS day, sum(count) AS requests,
                 sum(CASE WHEN status < 400 THEN count ELSE 0 END) AS succeeded
          FROM request_log WHERE account_id = ${accountId} AND at >= ${since}::bigint
          GROUP BY at / 86400000 ORDER BY day`)) as unknown as Record<string, unknown>[];
        return rows.map((row) => ({
          day: num(row.day),
          requests: num(row.requests),
          succeeded: num(row.succeeded),
        }));
      });
    },
    async periods(accountId, since, byKey) {
      await flush();
      return pg.run(async (db) => {
        // The week of `at`: 1970-01-01 was a Thursday, so weeks from Monday start 3 days before its multiples of 7.
        const week = sql`(((at + 259200000) / 604800000) * 604800000 - 259200000)`;
        const rows = (await db.execute(
          byKey
            ? sql`SELECT ${week} AS start, key_id, sum(credits) AS credits, sum(tokens) AS tokens
                  FROM request_log WHERE account_id = ${accountId} AND at >= ${since}::bigint
                  GROUP BY 1, key_id ORDER BY 1, key_id NULLS FIRST`
            : sql`SELECT ${week} AS start, sum(credits) AS credits, sum(tokens) AS tokens
                  FROM request_log WHERE account_id = ${accountId} AND at >= ${since}::bigint
                  GROUP BY 1 ORDER BY 1`,
        )) as unknown as Record<string, unknown>[];
        return rows.map((row) => ({
          start: num(row.start),
          ...(byKey ? { keyId: (row.key_id as string | null) ?? null } : {}),
          credits: num(row.credits),
          tokens: num(row.tokens),
        }));
      });
    },
    flush,
  };
}

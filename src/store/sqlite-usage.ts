import type { Database } from "bun:sqlite";
import { BurstWindows } from "./burst-window.ts";
import { type DataVersion, ReadMemo } from "./read-memo.ts";
import type { TurnWriter } from "./sqlite-turn-writes.ts";
import type { RequestLogEntry, UsageStore } from "./types.ts";

const FLUSH_EVERY_MS = 200;
const FLUSH_AT_ROWS = 500;

export interface SqliteUsage extends UsageStore {
  /** Writes buffered rows now (the store calls it on close). */
  flush(): void;
}

/**
 * Requests of one key (or keyless account), route and status within one
 * second: durations and credits summed, `at` the last request's time.
 */
interface LogRow extends RequestLogEntry {
  count: number;
}

/**
 * Usage in SQLite. A write commit costs 50-90 µs, more than the rest of a
 * cached request, and a row per request would cost an insert and two index
 * updates each, so the request log is buffered and written every 200 ms with
 * one row per key, route, status and second (a count, summed durations and
 * credits, the time of the last request). The burst window is exact and
 * lives in this process's memory; it is loaded from the request log on first
 * use, each row counting its requests at its last request's time (so a
 * restarted window frees slots no earlier than the exact one would), and
 * other processes reading the file (`siphon usage`) see it at most 200 ms
 * late. Several server processes sharing one limit use the Redis store
 * instead. Weekly credits are never buffered (the quota must never lose a
 * credit): each charge commits before its call resolves, with the other writes
 * asked for in the same turn (`writes`, shared with the job store: a crawl's
 * charges share the commits of its pages' outcomes, not one each).
 */
export function sqliteUsage(sqlite: Database, version: DataVersion, writes: TurnWriter): SqliteUsage {
  const windows = new BurstWindows();
  const weeklyMemo = new ReadMemo<number>(version);
  const pendingLog = new Map<string, LogRow>();
  /** The row the last request went to, while it is pending. */
  let lastRow: LogRow | null = null;
  /** The memo key of the last weekly read, kept so a busy account's reads build no string. */
  let lastWeekly = { accountId: "", weekStart: Number.NaN, key: "" };

  // Every admitted request has one request-log row, so the log is also the burst window's record.
  const keyWindow = sqlite.prepare<{ at: number; count: number }, [string, number]>(
    "SELECT at, count FROM request_log WHERE key_id = ?1 AND at > ?2 ORDER BY at",
  );
  const accountWindow = sqlite.prepare<{ at: number; count: number }, [string, number]>(
    "SELECT at, count FROM request_log WHERE account_id = ?1 AND key_id IS NULL AND at > ?2 ORDER BY at",
  );
  const insertLog = sqlite.prepare(
    "INSERT INTO request_log (account_id, key_id, route, status, duration_ms, credits, at, count, tokens) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  );
  const addCredits = sqlite.prepare<{ credits: number }, [string, number, number]>(
    "INSERT INTO usage_weeks (account_id, week_start, credits) VALUES (?1, ?2, ?3) " +
      "ON CONFLICT (account_id, week_start) DO UPDATE SET credits = credits + ?3 RETURNING credits",
  );
  const weekly = sqlite.prepare<{ credits: number }, [string, number]>(
    "SELECT credits FROM usage_weeks WHERE account_id = ?1 AND week_start = ?2",
  );
  const stats = sqlite.prepare<{ total: number; ok: number; avg: number }, [string]>(
    "SELECT coalesce(sum(count), 0) AS total, coalesce(sum((status < 400) * count), 0) AS ok, " +
      "coalesce(sum(duration_ms) * 1.0 / sum(count), 0) AS avg FROM request_log WHERE account_id = ?1",
  );

  const daily = sqlite.prepare<{ day: number; requests: number; succeeded: number }, [string, number]>(
    "SELECT (at / 86400000) * 86400000 AS day, sum(count) AS requests, sum((status < 400) * count) AS succeeded " +
      "FROM request_log WHERE account_id = ?1 AND at >= ?2 GROUP BY at / 86400000 ORDER BY day",
  );

  // The week of `at`: 1970-01-01 was a Thursday, so weeks from Monday start 3 days before its multiples of 7.
  const WEEK = "(((at + 259200000) / 604800000) * 604800000 - 259200000)";
  const periods = sqlite.prepare<{ start: number; credits: number; tokens: number }, [string, number]>(
    `SELECT ${WEEK} AS start, sum(credits) AS credits, sum(tokens) AS tokens FROM request_log ` +
      `WHERE account_id = ?1 AND at >= ?2 GROUP BY start ORDER BY start`,
  );
  const keyPeriods = sqlite.prepare<
    { start: number; keyId: string | null; credits: number; tokens: number },
    [string, number]
  >(
    `SELECT ${WEEK} AS start, key_id AS keyId, sum(credits) AS credits, sum(tokens) AS tokens FROM request_log ` +
      `WHERE account_id = ?1 AND at >= ?2 GROUP BY start, key_id ORDER BY start, key_id`,
  );

  const flush = sqlite.transaction(() => {
    for (const e of pendingLog.values()) {
      insertLog.run(
        e.accountId,
        e.keyId,
        e.route,
        e.status,
        e.durationMs,
        e.credits,
        e.at,
        e.count,
        e.tokens ?? 0,
      );
    }
    pendingLog.clear();
    lastRow = null;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (pendingLog.size >= FLUSH_AT_ROWS) return flushNow();
    // unref: a pending flush must not keep a finished CLI run alive; close() flushes what is left.
    if (timer) return;
    timer = setTimeout(flushNow, FLUSH_EVERY_MS);
    timer.unref?.();
  };
  function flushNow() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pendingLog.size) flush.immediate();
  }

  /** The request times the log holds for `subject` within the window, oldest first. */
  const loggedTimes = (subject: string, now: number, windowMs: number) => {
    flushNow();
    const [kind, id = ""] = subject.split(/:(.*)/s);
    const times: number[] = [];
    for (const row of (kind === "key" ? keyWindow : accountWindow).all(id, now - windowMs))
      for (let i = 0; i < row.count; i++) times.push(row.at);
    return times;
  };
  const windowOf = (subject: string, now: number, windowMs: number) => {
    if (!windows.has(subject)) windows.load(subject, loggedTimes(subject, now, windowMs));
  };

  return {
    takeBurstSlot(subject, now, windowMs, limit) {
      windowOf(subject, now, windowMs);
      return windows.take(subject, now, windowMs, limit);
    },
    async peekBurst(subject, now, windowMs) {
      if (windows.has(subject)) return windows.peek(subject, now, windowMs);
      // Not kept: only admissions update a window, and a subject that takes no slots (an unlimited
      // plan's) would otherwise be shown as it was at its first look.
      const logged = new BurstWindows();
      logged.load(subject, loggedTimes(subject, now, windowMs));
      return logged.peek(subject, now, windowMs);
    },
    addCredits: (accountId, weekStart, credits) =>
      writes(() => {
        const total = addCredits.get(accountId, weekStart, credits)?.credits ?? credits;
        weeklyMemo.set(`${accountId}:${weekStart}`, total);
        return total;
      }),
    weeklyCredits(accountId, weekStart) {
      if (accountId !== lastWeekly.accountId || weekStart !== lastWeekly.weekStart)
        lastWeekly = { accountId, weekStart, key: `${accountId}:${weekStart}` };
      return weeklyMemo.get(lastWeekly.key, () => weekly.get(accountId, weekStart)?.credits ?? 0);
    },
    logRequest(entry) {
      const second = Math.floor(entry.at / 1000);
      // A busy key's requests land in the row of the one before: no key to build or look up.
      let row = lastRow;
      if (
        row === null ||
        row.keyId !== entry.keyId ||
        row.accountId !== entry.accountId ||
        row.route !== entry.route ||
        row.status !== entry.status ||
        Math.floor(row.at / 1000) !== second
      ) {
        // A key belongs to one account, so the key id alone tells keyed rows apart.
        const key = `${entry.keyId ?? entry.accountId}\u0000${entry.route}\u0000${entry.status}\u0000${second}`;
        row = pendingLog.get(key) ?? null;
        if (row === null) {
          row = { ...entry, count: 0, durationMs: 0, credits: 0, tokens: 0 };
          pendingLog.set(key, row);
        }
        lastRow = row;
      }
      row.count += entry.count ?? 1;
      row.durationMs += entry.durationMs;
      row.credits += entry.credits;
      row.tokens = (row.tokens ?? 0) + (entry.tokens ?? 0);
      row.at = Math.max(row.at, entry.at);
      schedule();
    },
    async stats(accountId) {
      flushNow();
      const row = stats.get(accountId);
      const total = row?.total ?? 0;
      return {
        totalRequests: total,
        successRate: total ? Math.round(((row?.ok ?? 0) / total) * 1000) / 10 : 100,
        avgResponseTime: Math.round(row?.avg ?? 0),
      };
    },
    async daily(accountId, since) {
      flushNow();
      return daily.all(accountId, since);
    },
    async periods(accountId, since, byKey) {
      flushNow();
      return byKey ? keyPeriods.all(accountId, since) : periods.all(accountId, since);
    },
    flush: flushNow,
  };
}

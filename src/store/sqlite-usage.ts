import type { Database } from "bun:sqlite";
import { BurstWindows } from "./burst-window.ts";
import { type DataVersion, ReadMemo } from "./read-memo.ts";
import type { RequestLogEntry, UsageStore } from "./types.ts";

const FLUSH_EVERY_MS = 200;
const FLUSH_AT_ROWS = 500;

export interface SqliteUsage extends UsageStore {
  /** Writes buffered rows now (the store calls it on close). */
  flush(): void;
}

/**
 * Usage in SQLite. A write commit costs 50-90 µs, more than the rest of a
 * cached request, so request-log rows are buffered and written together
 * every 200 ms. The burst window is exact and lives in this process's
 * memory; it is loaded from the request log on first use (each admitted
 * request has one row), so a restart keeps it, and other processes reading
 * the file (`siphon usage`) see it at most 200 ms late.
 * Several server processes sharing one limit use the Redis store instead.
 * Weekly credits are written at once: the quota must never lose a credit.
 */
export function sqliteUsage(sqlite: Database, version: DataVersion): SqliteUsage {
  const windows = new BurstWindows();
  const weeklyMemo = new ReadMemo<number>(version);
  const pendingLog: RequestLogEntry[] = [];

  // Every admitted request has one request-log row, so the log is also the burst window's record.
  const keyWindow = sqlite.prepare<{ at: number }, [string, number]>(
    "SELECT at FROM request_log WHERE key_id = ?1 AND at > ?2 ORDER BY at",
  );
  const accountWindow = sqlite.prepare<{ at: number }, [string, number]>(
    "SELECT at FROM request_log WHERE account_id = ?1 AND key_id IS NULL AND at > ?2 ORDER BY at",
  );
  const insertLog = sqlite.prepare(
    "INSERT INTO request_log (account_id, key_id, route, status, duration_ms, credits, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  );
  const addCredits = sqlite.prepare<{ credits: number }, [string, number, number]>(
    "INSERT INTO usage_weeks (account_id, week_start, credits) VALUES (?1, ?2, ?3) " +
      "ON CONFLICT (account_id, week_start) DO UPDATE SET credits = credits + ?3 RETURNING credits",
  );
  const weekly = sqlite.prepare<{ credits: number }, [string, number]>(
    "SELECT credits FROM usage_weeks WHERE account_id = ?1 AND week_start = ?2",
  );
  const stats = sqlite.prepare<{ total: number; ok: number; avg: number }, [string]>(
    "SELECT count(*) AS total, coalesce(sum(status < 400), 0) AS ok, coalesce(avg(duration_ms), 0) AS avg " +
      "FROM request_log WHERE account_id = ?1",
  );

  const flush = sqlite.transaction(() => {
    for (const e of pendingLog.splice(0)) {
      insertLog.run(e.accountId, e.keyId, e.route, e.status, e.durationMs, e.credits, e.at);
    }
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (pendingLog.length >= FLUSH_AT_ROWS) return flushNow();
    // unref: a pending flush must not keep a finished CLI run alive; close() flushes what is left.
    timer ??= setTimeout(flushNow, FLUSH_EVERY_MS);
    timer.unref?.();
  };
  function flushNow() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pendingLog.length) flush.immediate();
  }

  const windowOf = (subject: string, now: number, windowMs: number) => {
    if (windows.has(subject)) return;
    flushNow();
    const [kind, id = ""] = subject.split(/:(.*)/s);
    const rows = (kind === "key" ? keyWindow : accountWindow).all(id, now - windowMs);
    windows.load(
      subject,
      rows.map((r) => r.at),
    );
  };

  return {
    async takeBurstSlot(subject, now, windowMs, limit) {
      windowOf(subject, now, windowMs);
      return windows.take(subject, now, windowMs, limit);
    },
    async peekBurst(subject, now, windowMs) {
      windowOf(subject, now, windowMs);
      return windows.peek(subject, now, windowMs);
    },
    async addCredits(accountId, weekStart, credits) {
      const total = addCredits.get(accountId, weekStart, credits)?.credits ?? credits;
      weeklyMemo.set(`${accountId}:${weekStart}`, total);
      return total;
    },
    async weeklyCredits(accountId, weekStart) {
      return weeklyMemo.get(
        `${accountId}:${weekStart}`,
        () => weekly.get(accountId, weekStart)?.credits ?? 0,
      );
    },
    async logRequest(entry) {
      pendingLog.push(entry);
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
    flush: flushNow,
  };
}

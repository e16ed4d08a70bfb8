import type { Database } from "bun:sqlite";
import { and, eq, sql } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { requestLog, usageWeeks } from "./sqlite-schema.ts";
import type { UsageStore } from "./types.ts";

/**
 * Usage in SQLite. The burst window runs in an IMMEDIATE transaction, so the
 * count and the insert are one step even when a CLI and a server share the
 * file; bun:sqlite is synchronous, so requests in one process cannot
 * interleave between them either.
 */
export function sqliteUsage(db: BunSQLiteDatabase, sqlite: Database): UsageStore {
  const prune = sqlite.prepare("DELETE FROM burst_events WHERE subject = ?1 AND at <= ?2");
  const window = sqlite.prepare<{ used: number; oldest: number | null }, [string, number]>(
    "SELECT count(*) AS used, min(at) AS oldest FROM burst_events WHERE subject = ?1 AND at > ?2",
  );
  const insert = sqlite.prepare("INSERT INTO burst_events (subject, at) VALUES (?1, ?2)");

  const peek = (subject: string, now: number, windowMs: number) => {
    const row = window.get(subject, now - windowMs);
    const used = row?.used ?? 0;
    return { used, oldestExpiresAt: row?.oldest != null ? row.oldest + windowMs : now };
  };

  const take = sqlite.transaction((subject: string, now: number, windowMs: number, limit: number) => {
    prune.run(subject, now - windowMs);
    const before = peek(subject, now, windowMs);
    if (before.used >= limit) return { allowed: false, ...before };
    insert.run(subject, now);
    return { allowed: true, ...peek(subject, now, windowMs) };
  });

  return {
    async takeBurstSlot(subject, now, windowMs, limit) {
      return take.immediate(subject, now, windowMs, limit);
    },
    async peekBurst(subject, now, windowMs) {
      return peek(subject, now, windowMs);
    },
    async addCredits(accountId, weekStart, credits) {
      const row = db
        .insert(usageWeeks)
        .values({ accountId, weekStart, credits })
        .onConflictDoUpdate({
          target: [usageWeeks.accountId, usageWeeks.weekStart],
          set: { credits: sql`${usageWeeks.credits} + ${credits}` },
        })
        .returning({ credits: usageWeeks.credits })
        .get();
      return row?.credits ?? credits;
    },
    async weeklyCredits(accountId, weekStart) {
      const row = db
        .select({ credits: usageWeeks.credits })
        .from(usageWeeks)
        .where(and(eq(usageWeeks.accountId, accountId), eq(usageWeeks.weekStart, weekStart)))
        .get();
      return row?.credits ?? 0;
    },
    async logRequest(entry) {
      db.insert(requestLog).values(entry).run();
    },
    async stats(accountId) {
      const row = db
        .select({
          total: sql<number>`count(*)`,
          ok: sql<number>`coalesce(sum(case when ${requestLog.status} < 400 then 1 else 0 end), 0)`,
          avg: sql<number>`coalesce(avg(${requestLog.durationMs}), 0)`,
        })
        .from(requestLog)
        .where(eq(requestLog.accountId, accountId))
        .get();
      const total = row?.total ?? 0;
      return {
        totalRequests: total,
        successRate: total ? Math.round((row!.ok / total) * 1000) / 10 : 100,
        avgResponseTime: Math.round(row?.avg ?? 0),
      };
    },
  };
}

import type { Database } from "bun:sqlite";
import { type TurnWriter, turnWriter } from "./sqlite-turn-writes.ts";
import type { JobItem, JobRecord, JobStore } from "./types.ts";

interface JobRow {
  id: string;
  type: string;
  status: string;
  account_id: string;
  key_id: string | null;
  input: string;
  webhook: string | null;
  total: number;
  completed: number;
  failed: number;
  credits_used: number;
  error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  expires_at: number | null;
  result: string | null;
}

interface ItemRow {
  url: string;
  depth: number;
  state: string;
  data: string | null;
  error: string | null;
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function job(row: JobRow): JobRecord {
  return {
    id: row.id,
    type: row.type as JobRecord["type"],
    status: row.status as JobRecord["status"],
    accountId: row.account_id,
    keyId: row.key_id,
    input: parse(row.input),
    webhook: parse(row.webhook),
    total: row.total,
    completed: row.completed,
    failed: row.failed,
    creditsUsed: row.credits_used,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
    result: parse(row.result),
  };
}

const item = (row: ItemRow): JobItem => ({
  url: row.url,
  depth: row.depth,
  state: row.state as JobItem["state"],
  data: parse(row.data),
  error: row.error,
});

/**
 * Jobs in SQLite with raw prepared statements: every state change is one
 * statement or one transaction, committed before its call resolves, so a
 * SIGKILL loses nothing that was reported done. A page's writes (its links,
 * its outcome) share a commit with the other pages' of the same turn
 * (sqlite-turn-writes.ts); `flushWrites` commits what is queued (on close).
 */
export function sqliteJobs(
  sqlite: Database,
  queued: TurnWriter = turnWriter(sqlite),
): JobStore & { flushWrites(): void } {
  // Every call that is not queued first commits what is: it sees, and comes after, every write asked before it.
  const flush = queued.flush;
  const insertJob = sqlite.prepare(
    "INSERT INTO jobs (id, type, status, account_id, input, webhook, total, created_at, updated_at, finished_at, expires_at, error, key_id) " +
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?12, ?7, ?8, ?9, ?10, ?11, ?13)",
  );
  const insertItem = sqlite.prepare(
    "INSERT OR IGNORE INTO job_items (job_id, url, depth, state) VALUES (?1, ?2, ?3, 'pending')",
  );
  const bumpTotal = sqlite.prepare("UPDATE jobs SET total = total + ?2 WHERE id = ?1");
  const totalOf = sqlite.prepare<{ total: number }, [string]>("SELECT total FROM jobs WHERE id = ?1");
  const byId = sqlite.prepare<JobRow, [string]>("SELECT * FROM jobs WHERE id = ?1");
  const pendingItems = sqlite.prepare<ItemRow, [string, number]>(
    "SELECT url, depth, state, data, error FROM job_items WHERE job_id = ?1 AND state = 'pending' ORDER BY depth, id LIMIT ?2",
  );
  const finish = sqlite.prepare(
    // The next place among the job's finished items: the transaction is IMMEDIATE (one writer at a
    // time), so no two items of a job get one place.
    "UPDATE job_items SET state = ?3, data = ?4, error = ?5, " +
      "seq = (SELECT coalesce(max(seq), 0) + 1 FROM job_items WHERE job_id = ?1) " +
      "WHERE job_id = ?1 AND url = ?2 AND state = 'pending'",
  );
  const count = sqlite.prepare(
    "UPDATE jobs SET completed = completed + ?2, failed = failed + ?3, credits_used = credits_used + ?4, updated_at = ?5 WHERE id = ?1",
  );
  const results = sqlite.prepare<ItemRow, [string, number, number]>(
    "SELECT url, depth, state, data, error FROM job_items WHERE job_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
  );
  const storeResult = sqlite.prepare(
    "UPDATE jobs SET result = ?2, credits_used = credits_used + ?3, completed = completed + 1, updated_at = ?4 " +
      "WHERE id = ?1 AND status = 'processing'",
  );
  const unfinished = sqlite.prepare<JobRow, []>(
    "SELECT * FROM jobs WHERE status IN ('queued', 'processing') ORDER BY created_at",
  );

  // These two run inside a transaction of their caller's (create's, or the turn writer's savepoint).
  const addItems = (jobId: string, items: { url: string; depth: number }[], cap: number) => {
    let room = cap - (totalOf.get(jobId)?.total ?? 0);
    let added = 0;
    for (const it of items) {
      if (room <= 0) break;
      if (insertItem.run(jobId, it.url, it.depth).changes) {
        added++;
        room--;
      }
    }
    if (added) bumpTotal.run(jobId, added);
    return added;
  };

  const finishItem = (
    jobId: string,
    url: string,
    state: string,
    data: string | null,
    error: string | null,
    credits: number,
  ): boolean => {
    // Only a pending item counts: a page finished twice (a retry after a crash) is counted once.
    if (!finish.run(jobId, url, state, data, error).changes) return false;
    count.run(jobId, state === "done" ? 1 : 0, state === "failed" ? 1 : 0, credits, Date.now());
    return true;
  };

  return {
    async create(j, items) {
      flush();
      sqlite
        .transaction(() => {
          insertJob.run(
            j.id,
            j.type,
            j.status,
            j.accountId,
            JSON.stringify(j.input),
            j.webhook === null || j.webhook === undefined ? null : JSON.stringify(j.webhook),
            j.createdAt,
            j.updatedAt,
            j.finishedAt,
            j.expiresAt,
            j.error,
            j.total ?? 0,
            j.keyId ?? null,
          );
          addItems(j.id, items, Number.MAX_SAFE_INTEGER);
        })
        .immediate();
    },
    async get(id) {
      flush();
      const row = byId.get(id);
      return row ? job(row) : null;
    },
    async list({ accountId, type, status, limit }) {
      flush();
      const where = ["account_id = ?1"];
      const params: (string | number)[] = [accountId];
      if (type) {
        params.push(type);
        where.push(`type = ?${params.length}`);
      }
      if (status) {
        params.push(status);
        where.push(`status = ?${params.length}`);
      }
      params.push(limit);
      const sql = `SELECT * FROM jobs WHERE ${where.join(" AND ")} ORDER BY created_at DESC LIMIT ?${params.length}`;
      return sqlite
        .prepare<JobRow, (string | number)[]>(sql)
        .all(...params)
        .map(job);
    },
    async transition(id, from, to, patch = {}, at = Date.now()) {
      flush();
      const marks = from.map((_, i) => `?${i + 6}`).join(", ");
      const input = patch.input === undefined ? null : JSON.stringify(patch.input);
      const result = sqlite
        .prepare(
          `UPDATE jobs SET status = ?2, updated_at = ?3, error = coalesce(?4, error), finished_at = coalesce(?5, finished_at), ` +
            `expires_at = coalesce(?${from.length + 6}, expires_at), input = coalesce(?${from.length + 7}, input), ` +
            `result = coalesce(?${from.length + 8}, result) ` +
            `WHERE id = ?1 AND status IN (${marks})`,
        )
        .run(
          id,
          to,
          at,
          patch.error ?? null,
          patch.finishedAt ?? null,
          ...from,
          patch.expiresAt ?? null,
          input,
          patch.result === undefined ? null : JSON.stringify(patch.result),
        );
      return result.changes > 0;
    },
    async setResult(id, result, credits, at = Date.now()) {
      flush();
      return storeResult.run(id, JSON.stringify(result ?? null), credits, at).changes > 0;
    },
    addItems(jobId, items, cap) {
      return queued(() => addItems(jobId, items, cap));
    },
    async pending(jobId, limit) {
      flush();
      return pendingItems.all(jobId, limit).map(item);
    },
    finishItem(jobId, url, outcome) {
      const data = outcome.data === undefined ? null : JSON.stringify(outcome.data);
      return queued(() =>
        finishItem(jobId, url, outcome.state, data, outcome.error ?? null, outcome.credits),
      );
    },
    async results(jobId, skip, limit) {
      flush();
      return results.all(jobId, skip, limit).map(item);
    },
    async unfinished() {
      flush();
      return unfinished.all().map(job);
    },
    flushWrites: flush,
    async deleteExpired(now) {
      flush();
      return sqlite
        .transaction(() => {
          sqlite
            .prepare("DELETE FROM job_items WHERE job_id IN (SELECT id FROM jobs WHERE expires_at < ?1)")
            .run(now);
          return sqlite.prepare("DELETE FROM jobs WHERE expires_at < ?1").run(now).changes;
        })
        .immediate();
    },
  };
}

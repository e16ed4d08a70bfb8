import type { Database } from "bun:sqlite";
import type { WatchCheckRecord, WatchPatch, WatchRecord, WatchStore } from "./types.ts";

interface WatchRow {
  id: string;
  account_id: string;
  url: string;
  name: string | null;
  status: string;
  interval_minutes: number;
  options: string;
  webhook: string | null;
  last_fingerprint: string | null;
  baseline: string | null;
  last_checked_at: number | null;
  last_changed_at: number | null;
  last_error: string | null;
  change_count: number;
  check_count: number;
  next_check_at: number;
  revision: number;
  created_at: number;
  updated_at: number;
}

interface CheckRow {
  id: string;
  watch_id: string;
  checked_at: number;
  trigger: string;
  status: string;
  fingerprint: string | null;
  previous_fingerprint: string | null;
  summary: string;
  added_text: string;
  removed_text: string;
  diff: string | null;
  status_code: number | null;
  error: string | null;
}

const WATCH_COLUMNS =
  "id, account_id, url, name, status, interval_minutes, options, webhook, last_fingerprint, baseline, " +
  "last_checked_at, last_changed_at, last_error, change_count, check_count, next_check_at, revision, " +
  "created_at, updated_at";
const CHECK_COLUMNS =
  "id, watch_id, checked_at, trigger, status, fingerprint, previous_fingerprint, summary, added_text, " +
  "removed_text, diff, status_code, error";

const watch = (row: WatchRow): WatchRecord => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  name: row.name,
  status: row.status as WatchRecord["status"],
  intervalMinutes: row.interval_minutes,
  options: JSON.parse(row.options),
  webhook: row.webhook === null ? null : JSON.parse(row.webhook),
  lastFingerprint: row.last_fingerprint,
  baseline: row.baseline,
  lastCheckedAt: row.last_checked_at,
  lastChangedAt: row.last_changed_at,
  lastError: row.last_error,
  changeCount: row.change_count,
  checkCount: row.check_count,
  nextCheckAt: row.next_check_at,
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const check = (row: CheckRow): WatchCheckRecord => ({
  id: row.id,
  watchId: row.watch_id,
  checkedAt: row.checked_at,
  trigger: row.trigger as WatchCheckRecord["trigger"],
  status: row.status as WatchCheckRecord["status"],
  fingerprint: row.fingerprint,
  previousFingerprint: row.previous_fingerprint,
  summary: row.summary,
  addedText: JSON.parse(row.added_text),
  removedText: JSON.parse(row.removed_text),
  diff: row.diff,
  statusCode: row.status_code,
  error: row.error,
});

/** Patch fields and their columns; JSON ones are serialised. */
const PATCH_COLUMNS: [keyof Omit<WatchPatch, "revision">, string, boolean][] = [
  ["url", "url", false],
  ["name", "name", false],
  ["status", "status", false],
  ["intervalMinutes", "interval_minutes", false],
  ["options", "options", true],
  ["webhook", "webhook", true],
  ["nextCheckAt", "next_check_at", false],
  ["lastFingerprint", "last_fingerprint", false],
  ["baseline", "baseline", false],
];

/**
 * Watches in SQLite. A claim is one UPDATE ... RETURNING guarded by the lease (SQLite runs a
 * write statement alone), so two processes on one file never claim the same watch; recording
 * a check (state, history row, trim, release) is one transaction guarded by the claim token.
 */
export function sqliteWatches(sqlite: Database): WatchStore {
  const insert = sqlite.query(
    `INSERT INTO watches (${WATCH_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)`,
  );
  const byId = sqlite.query<WatchRow, [string]>(`SELECT ${WATCH_COLUMNS} FROM watches WHERE id = ?1`);
  const byAccount = sqlite.query<WatchRow, [string, number, number]>(
    `SELECT ${WATCH_COLUMNS} FROM watches WHERE account_id = ?1 ORDER BY created_at, id LIMIT ?2 OFFSET ?3`,
  );
  const countOf = sqlite.query<{ n: number }, [string]>(
    "SELECT COUNT(*) AS n FROM watches WHERE account_id = ?1",
  );
  const remove = sqlite.query("DELETE FROM watches WHERE id = ?1");
  const removeChecks = sqlite.query("DELETE FROM watch_checks WHERE watch_id = ?1");
  const claimOne = sqlite.query<WatchRow, [string, number, string, number]>(
    "UPDATE watches SET claim_token = ?3, claimed_until = ?4 " +
      "WHERE id = ?1 AND (claimed_until IS NULL OR claimed_until <= ?2) " +
      `RETURNING ${WATCH_COLUMNS}`,
  );
  const claimMany = sqlite.query<WatchRow, [number, number, string, number]>(
    "UPDATE watches SET claim_token = ?3, claimed_until = ?4 WHERE id IN (" +
      "SELECT id FROM watches WHERE status != 'paused' AND next_check_at <= ?1 " +
      "AND (claimed_until IS NULL OR claimed_until <= ?1) ORDER BY next_check_at, id LIMIT ?2) " +
      `RETURNING ${WATCH_COLUMNS}`,
  );
  const release = sqlite.query(
    "UPDATE watches SET claim_token = NULL, claimed_until = NULL WHERE id = ?1 AND claim_token = ?2",
  );
  const finish = sqlite.query(
    "UPDATE watches SET " +
      "status = CASE WHEN status = 'paused' THEN 'paused' ELSE ?4 END, " +
      "last_error = ?5, " +
      "last_fingerprint = CASE WHEN ?6 IS NULL THEN last_fingerprint ELSE ?6 END, " +
      "baseline = CASE WHEN ?6 IS NULL THEN baseline ELSE ?7 END, " +
      "last_checked_at = ?8, " +
      "last_changed_at = CASE WHEN ?9 THEN ?8 ELSE last_changed_at END, " +
      "change_count = change_count + ?9, check_count = check_count + 1, " +
      "next_check_at = CASE WHEN interval_minutes = ?10 THEN ?11 ELSE next_check_at END, " +
      "claim_token = NULL, claimed_until = NULL, updated_at = ?8 " +
      "WHERE id = ?1 AND claim_token = ?2 AND revision = ?3",
  );
  const insertCheck = sqlite.query(
    `INSERT INTO watch_checks (${CHECK_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
  );
  const trim = sqlite.query(
    "DELETE FROM watch_checks WHERE watch_id = ?1 AND seq NOT IN " +
      "(SELECT seq FROM watch_checks WHERE watch_id = ?1 ORDER BY seq DESC LIMIT ?2)",
  );
  const history = sqlite.query<CheckRow, [string, number, number]>(
    `SELECT ${CHECK_COLUMNS} FROM watch_checks WHERE watch_id = ?1 ORDER BY seq DESC LIMIT ?2 OFFSET ?3`,
  );
  const oneCheck = sqlite.query<CheckRow, [string, string]>(
    `SELECT ${CHECK_COLUMNS} FROM watch_checks WHERE watch_id = ?1 AND id = ?2`,
  );

  const deleteWatch = sqlite.transaction((id: string) => {
    removeChecks.run(id);
    return remove.run(id).changes > 0;
  });
  const record = sqlite.transaction(
    (
      id: string,
      token: string,
      revision: number,
      state: Parameters<WatchStore["finishCheck"]>[3],
      c: WatchCheckRecord,
      keep: number,
    ): boolean => {
      const done = finish.run(
        id,
        token,
        revision,
        state.status,
        state.lastError,
        state.fingerprint?.lastFingerprint ?? null,
        state.fingerprint?.baseline ?? null,
        state.checkedAt,
        state.changed ? 1 : 0,
        state.intervalMinutes,
        state.nextCheckAt,
      );
      if (done.changes === 0) {
        release.run(id, token);
        return false;
      }
      insertCheck.run(
        c.id,
        c.watchId,
        c.checkedAt,
        c.trigger,
        c.status,
        c.fingerprint,
        c.previousFingerprint,
        c.summary,
        JSON.stringify(c.addedText),
        JSON.stringify(c.removedText),
        c.diff,
        c.statusCode,
        c.error,
      );
      trim.run(id, Math.max(1, keep));
      return true;
    },
  );

  return {
    async create(w) {
      insert.run(
        w.id,
        w.accountId,
        w.url,
        w.name,
        w.status,
        w.intervalMinutes,
        JSON.stringify(w.options),
        w.webhook === null || w.webhook === undefined ? null : JSON.stringify(w.webhook),
        w.lastFingerprint,
        w.baseline,
        w.lastCheckedAt,
        w.lastChangedAt,
        w.lastError,
        w.changeCount,
        w.checkCount,
        w.nextCheckAt,
        w.revision,
        w.createdAt,
        w.updatedAt,
      );
    },
    async get(id) {
      const row = byId.get(id);
      return row ? watch(row) : null;
    },
    async list(accountId, limit, offset) {
      return byAccount.all(accountId, Math.max(0, limit), Math.max(0, offset)).map(watch);
    },
    async count(accountId) {
      return countOf.get(accountId)?.n ?? 0;
    },
    async update(id, patch, at) {
      const sets = ["updated_at = ?"];
      const values: (string | number | null)[] = [at];
      for (const [field, column, json] of PATCH_COLUMNS) {
        if (!(field in patch)) continue;
        const value = patch[field];
        sets.push(`${column} = ?`);
        values.push(
          json
            ? value === null || value === undefined
              ? null
              : JSON.stringify(value)
            : (value as string | number | null),
        );
      }
      if (patch.revision) sets.push("revision = revision + 1");
      // Built from the fixed column table above; only values are bound.
      const row = sqlite
        .query<WatchRow, (string | number | null)[]>(
          `UPDATE watches SET ${sets.join(", ")} WHERE id = ? RETURNING ${WATCH_COLUMNS}`,
        )
        .get(...values, id);
      return row ? watch(row) : null;
    },
    async delete(id) {
      return deleteWatch(id);
    },
    async claim(id, now, c) {
      const row = claimOne.get(id, now, c.token, c.until);
      return row ? watch(row) : null;
    },
    async claimDue(now, limit, c) {
      if (limit <= 0) return [];
      const rows = claimMany.all(now, limit, c.token, c.until);
      // RETURNING gives no order: most overdue first, as claimed.
      return rows.map(watch).sort((a, b) => a.nextCheckAt - b.nextCheckAt || a.id.localeCompare(b.id));
    },
    async release(id, token) {
      release.run(id, token);
    },
    async finishCheck(id, token, revision, state, c, keep) {
      return record(id, token, revision, state, c, keep);
    },
    async checks(watchId, limit, offset) {
      return history.all(watchId, Math.max(0, limit), Math.max(0, offset)).map(check);
    },
    async getCheck(watchId, checkId) {
      const row = oneCheck.get(watchId, checkId);
      return row ? check(row) : null;
    },
  };
}

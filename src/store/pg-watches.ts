import { and, asc, desc, eq, inArray, isNull, lte, ne, notInArray, or, sql } from "drizzle-orm";
import type { PgConnection } from "./pg-connection.ts";
import { watchChecks, watches } from "./pg-schema.ts";
import type { WatchCheckRecord, WatchClaim, WatchPatch, WatchRecord, WatchStore } from "./types.ts";

type WatchRow = typeof watches.$inferSelect;
type CheckRow = typeof watchChecks.$inferSelect;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const bytesOf = (text: string | null | undefined): Uint8Array | null =>
  text === null || text === undefined ? null : encoder.encode(text);
const textOf = (bytes: Uint8Array | null): string | null => (bytes === null ? null : decoder.decode(bytes));
const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/**
 * Text PostgreSQL can hold: a NUL (which a text column refuses) becomes U+FFFD, as an HTML
 * parser reads it. Only for short text a person reads (names, summaries, errors); page content
 * (baselines, diffs) is kept as bytes, and JSON escapes NUL itself.
 */
const readable = <T extends string | null>(text: T): T =>
  (text === null ? text : text.replaceAll("\0", "\uFFFD")) as T;

const watch = (row: WatchRow): WatchRecord => ({
  id: row.id,
  accountId: row.accountId,
  url: row.url,
  name: row.name,
  status: row.status as WatchRecord["status"],
  intervalMinutes: row.intervalMinutes,
  options: JSON.parse(row.options),
  webhook: row.webhook === null ? null : JSON.parse(row.webhook),
  lastFingerprint: row.lastFingerprint,
  baseline: textOf(row.baseline),
  lastCheckedAt: row.lastCheckedAt,
  lastChangedAt: row.lastChangedAt,
  lastError: row.lastError,
  changeCount: row.changeCount,
  checkCount: row.checkCount,
  nextCheckAt: row.nextCheckAt,
  revision: row.revision,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const check = (row: CheckRow): WatchCheckRecord => ({
  id: row.id,
  watchId: row.watchId,
  checkedAt: row.checkedAt,
  trigger: row.trigger as WatchCheckRecord["trigger"],
  status: row.status as WatchCheckRecord["status"],
  fingerprint: row.fingerprint,
  previousFingerprint: row.previousFingerprint,
  summary: row.summary,
  addedText: JSON.parse(row.addedText),
  removedText: JSON.parse(row.removedText),
  diff: textOf(row.diff),
  statusCode: row.statusCode,
  error: row.error,
});

/** A watch's columns a patch writes; JSON and content fields are encoded as stored. */
function patchColumns(patch: WatchPatch): Partial<typeof watches.$inferInsert> {
  const set: Partial<typeof watches.$inferInsert> = {};
  if ("url" in patch && patch.url !== undefined) set.url = patch.url;
  if ("name" in patch) set.name = readable(patch.name ?? null);
  if ("status" in patch && patch.status !== undefined) set.status = patch.status;
  if ("intervalMinutes" in patch && patch.intervalMinutes !== undefined)
    set.intervalMinutes = patch.intervalMinutes;
  if ("options" in patch) set.options = JSON.stringify(patch.options ?? null);
  if ("webhook" in patch) set.webhook = json(patch.webhook);
  if ("nextCheckAt" in patch && patch.nextCheckAt !== undefined) set.nextCheckAt = patch.nextCheckAt;
  if ("lastFingerprint" in patch) set.lastFingerprint = patch.lastFingerprint ?? null;
  if ("baseline" in patch) set.baseline = bytesOf(patch.baseline);
  return set;
}

/** Not held by a claim at `now`: never claimed, released, or its holder's lease has passed. */
const unclaimed = (now: number) => or(isNull(watches.claimedUntil), lte(watches.claimedUntil, now));

/**
 * Watches in PostgreSQL, shared by every API and worker process. A claim is one UPDATE guarded
 * by the lease; claimDue's UPDATE takes the rows its subquery locked FOR UPDATE SKIP LOCKED, so
 * workers claiming at once each take other watches (a row another is claiming is skipped, and
 * one claimed meanwhile is re-read and no longer due). Recording a check (state, history row,
 * trim, release) is one transaction guarded by the claim token and the revision.
 */
export function pgWatches(pg: PgConnection): WatchStore {
  const claimSet = (c: WatchClaim) => ({ claimToken: c.token, claimedUntil: c.until });
  const release = (id: string, token: string) =>
    pg.run(async (db) => {
      await db
        .update(watches)
        .set({ claimToken: null, claimedUntil: null })
        .where(and(eq(watches.id, id), eq(watches.claimToken, token)));
    });

  return {
    create: (w) =>
      pg.run(async (db) => {
        await db.insert(watches).values({
          id: w.id,
          accountId: w.accountId,
          url: w.url,
          name: readable(w.name),
          status: w.status,
          intervalMinutes: w.intervalMinutes,
          options: JSON.stringify(w.options ?? null),
          webhook: json(w.webhook),
          lastFingerprint: w.lastFingerprint,
          baseline: bytesOf(w.baseline),
          lastCheckedAt: w.lastCheckedAt,
          lastChangedAt: w.lastChangedAt,
          lastError: readable(w.lastError),
          changeCount: w.changeCount,
          checkCount: w.checkCount,
          nextCheckAt: w.nextCheckAt,
          revision: w.revision,
          createdAt: w.createdAt,
          updatedAt: w.updatedAt,
        });
      }),
    get: (id) =>
      pg.run(async (db) => {
        const [row] = await db.select().from(watches).where(eq(watches.id, id));
        return row ? watch(row) : null;
      }),
    list: (accountId, limit, offset) =>
      pg.run(async (db) => {
        const rows = await db
          .select()
          .from(watches)
          .where(eq(watches.accountId, accountId))
          .orderBy(asc(watches.createdAt), asc(watches.id))
          .limit(Math.max(0, limit))
          .offset(Math.max(0, offset));
        return rows.map(watch);
      }),
    count: (accountId) => pg.run(async (db) => db.$count(watches, eq(watches.accountId, accountId))),
    update: (id, patch, at) =>
      pg.run(async (db) => {
        const [row] = await db
          .update(watches)
          .set({
            ...patchColumns(patch),
            updatedAt: at,
            ...(patch.revision && { revision: sql`${watches.revision} + 1` }),
          })
          .where(eq(watches.id, id))
          .returning();
        return row ? watch(row) : null;
      }),
    delete: (id) =>
      pg.run((db) =>
        db.transaction(async (tx) => {
          await tx.delete(watchChecks).where(eq(watchChecks.watchId, id));
          const gone = await tx.delete(watches).where(eq(watches.id, id)).returning({ id: watches.id });
          return gone.length > 0;
        }),
      ),
    claim: (id, now, c) =>
      pg.run(async (db) => {
        // One statement: a claim another caller committed meanwhile is re-read, and the lease check fails.
        const [row] = await db
          .update(watches)
          .set(claimSet(c))
          .where(and(eq(watches.id, id), unclaimed(now)))
          .returning();
        return row ? watch(row) : null;
      }),
    claimDue: (now, limit, c) =>
      pg.run(async (db) => {
        if (limit <= 0) return [];
        const due = db
          .select({ id: watches.id })
          .from(watches)
          .where(and(ne(watches.status, "paused"), lte(watches.nextCheckAt, now), unclaimed(now)))
          .orderBy(asc(watches.nextCheckAt), asc(watches.id))
          .limit(limit)
          .for("update", { skipLocked: true });
        const rows = await db.update(watches).set(claimSet(c)).where(inArray(watches.id, due)).returning();
        // RETURNING gives no order: most overdue first, as claimed.
        return rows.map(watch).sort((a, b) => a.nextCheckAt - b.nextCheckAt || a.id.localeCompare(b.id));
      }),
    release,
    finishCheck: (id, token, revision, state, c, keep) =>
      pg.run((db) =>
        db.transaction(async (tx) => {
          const done = await tx
            .update(watches)
            .set({
              // A watch paused while its check ran stays paused.
              status: sql`CASE WHEN ${watches.status} = 'paused' THEN 'paused' ELSE ${state.status}::text END`,
              lastError: readable(state.lastError),
              ...(state.fingerprint && {
                lastFingerprint: state.fingerprint.lastFingerprint,
                baseline: bytesOf(state.fingerprint.baseline),
              }),
              lastCheckedAt: state.checkedAt,
              ...(state.changed && {
                lastChangedAt: state.checkedAt,
                changeCount: sql`${watches.changeCount} + 1`,
              }),
              checkCount: sql`${watches.checkCount} + 1`,
              // A PATCH that set a new interval meanwhile set its own next check.
              nextCheckAt: sql`CASE WHEN ${watches.intervalMinutes} = ${state.intervalMinutes}::int
                THEN ${state.nextCheckAt}::bigint ELSE ${watches.nextCheckAt} END`,
              claimToken: null,
              claimedUntil: null,
              updatedAt: state.checkedAt,
            })
            .where(and(eq(watches.id, id), eq(watches.claimToken, token), eq(watches.revision, revision)))
            .returning({ id: watches.id });
          if (!done.length) {
            await tx
              .update(watches)
              .set({ claimToken: null, claimedUntil: null })
              .where(and(eq(watches.id, id), eq(watches.claimToken, token)));
            return false;
          }
          await tx.insert(watchChecks).values({
            id: c.id,
            watchId: c.watchId,
            checkedAt: c.checkedAt,
            trigger: c.trigger,
            status: c.status,
            fingerprint: c.fingerprint,
            previousFingerprint: c.previousFingerprint,
            summary: readable(c.summary),
            addedText: JSON.stringify(c.addedText),
            removedText: JSON.stringify(c.removedText),
            diff: bytesOf(c.diff),
            statusCode: c.statusCode,
            error: readable(c.error),
          });
          // The watch's row lock (taken by the update above) keeps this trim alone on its history.
          const kept = tx
            .select({ seq: watchChecks.seq })
            .from(watchChecks)
            .where(eq(watchChecks.watchId, id))
            .orderBy(desc(watchChecks.seq))
            .limit(Math.max(1, keep));
          await tx
            .delete(watchChecks)
            .where(and(eq(watchChecks.watchId, id), notInArray(watchChecks.seq, kept)));
          return true;
        }),
      ),
    checks: (watchId, limit, offset) =>
      pg.run(async (db) => {
        const rows = await db
          .select()
          .from(watchChecks)
          .where(eq(watchChecks.watchId, watchId))
          .orderBy(desc(watchChecks.seq))
          .limit(Math.max(0, limit))
          .offset(Math.max(0, offset));
        return rows.map(check);
      }),
    getCheck: (watchId, checkId) =>
      pg.run(async (db) => {
        const [row] = await db
          .select()
          .from(watchChecks)
          .where(and(eq(watchChecks.watchId, watchId), eq(watchChecks.id, checkId)));
        return row ? check(row) : null;
      }),
  };
}

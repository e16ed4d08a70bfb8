import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { grouped } from "./pg-batch.ts";
import type { PgConnection } from "./pg-connection.ts";
import { jobItems, jobs } from "./pg-schema.ts";
import type { JobItem, JobRecord, JobStore } from "./types.ts";

type JobRow = typeof jobs.$inferSelect;
/** A page's outcome, as finishItem is given it. */
type Finished = { url: string; state: "done" | "failed"; data?: unknown; error?: string; credits: number };
type ItemRow = Pick<typeof jobItems.$inferSelect, "url" | "depth" | "state" | "data" | "error">;

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

function job(row: JobRow): JobRecord {
  return {
    id: row.id,
    type: row.type as JobRecord["type"],
    status: row.status as JobRecord["status"],
    accountId: row.accountId,
    keyId: row.keyId,
    input: parse(row.input),
    webhook: parse(row.webhook),
    total: row.total,
    completed: row.completed,
    failed: row.failed,
    creditsUsed: row.creditsUsed,
    error: row.error,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
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

const itemColumns = {
  url: jobItems.url,
  depth: jobItems.depth,
  state: jobItems.state,
  data: jobItems.data,
  error: jobItems.error,
};

/**
 * Adds the items not yet in the job, in the order given, up to `room` of them, and counts them in
 * its total, in one statement; answers how many it added. The caller's transaction holds the
 * job's row lock (or created the job), and took it in a statement of its own, so this one's
 * snapshot sees every item added before: workers adding to one job at once cannot together pass
 * the cap. One JSON parameter carries the items, however many a page links to.
 */
async function insertItems(
  tx: Pick<BunSQLDatabase, "execute">,
  jobId: string,
  items: { url: string; depth: number }[],
  room: number,
): Promise<number> {
  if (room <= 0 || !items.length) return 0;
  const seen = new Set<string>();
  const fresh = items.filter((it) => !seen.has(it.url) && seen.add(it.url));
  // WITH ORDINALITY and ORDER BY keep the given order in the ids, which order pending and results.
  const [row] = (await tx.execute(sql`
    WITH added AS (
      INSERT INTO job_items (job_id, url, depth, state)
      SELECT ${jobId}, x.url, x.depth, 'pending'
      FROM ROWS FROM (json_to_recordset(${JSON.stringify(fresh)}::text::json) AS (url text, depth int))
        WITH ORDINALITY AS x(url, depth, n)
      WHERE NOT EXISTS (SELECT 1 FROM job_items i WHERE i.job_id = ${jobId} AND i.url = x.url)
      ORDER BY x.n
      LIMIT ${Math.min(room, fresh.length)}
      RETURNING 1
    ), counted AS (
      UPDATE jobs SET total = total + (SELECT count(*) FROM added)
      WHERE id = ${jobId} AND EXISTS (SELECT 1 FROM added)
    )
    SELECT count(*) AS n FROM added`)) as unknown as { n: unknown }[];
  return Number(row?.n ?? 0);
}

/** A page's outcome as finishStatement stores it: its data as JSON text. */
export interface FinishRow {
  url: string;
  state: "done" | "failed";
  data: string | null;
  error: string | null;
  credits: number;
}

/**
 * The job's next pending items, shallowest first, then in the order found: read in the order of
 * the index job_items_frontier (job, state, depth, id), so taking a page reads a few index
 * entries however many pages wait (sorting by id after the index cost a read of every pending item).
 */
export function frontierQuery(db: BunSQLDatabase, jobId: string, limit: number) {
  return db
    .select(itemColumns)
    .from(jobItems)
    .where(and(eq(jobItems.jobId, jobId), eq(jobItems.state, "pending")))
    .orderBy(asc(jobItems.depth), asc(jobItems.id))
    .limit(limit);
}

/**
 * Finishes a job's pages in one statement, in this order: the items' rows are locked while
 * pending (in id order, so two workers' batches never wait on each other in a circle; a page
 * finished twice waits here and then finds it finished: it counts once); then the job's counters
 * move, under the job's row lock, and the items take the places after those finished before
 * (completed + failed), in the order they were finished here. A worker that waited on that lock
 * counts from the row as the one before it left it, so places follow one another without gaps,
 * and each is taken only by a commit that makes its item readable with it.
 *
 * Each page's row is found by its URL through the unique (job, url) index, one lookup per page
 * (LATERAL ... LIMIT 1 keeps the planner from joining the pages with every pending item of the
 * job, which it did when the table's statistics were older than the crawl); its state is checked
 * on the locked row, so a row another worker finished meanwhile is skipped. Answers the URLs of
 * the items it counted.
 */
export function finishStatement(jobId: string, items: FinishRow[], at: number) {
  // Each value is a parameter of its own: a page's result (JSON text of ~10 KB) sent inside one
  // JSON document of the batch was escaped twice and parsed by the server, which cost the statement
  // two to four times its CPU (measured alone: 400-890 us against 170-180 us of backend CPU a page).
  const rows = items.map(
    (it, n) =>
      sql`(${it.url}::text, ${it.state}::text, ${it.data}::text, ${it.error}::text, ${it.credits}::bigint, ${n + 1}::int)`,
  );
  return sql`
    WITH given (url, state, data, error, credits, n) AS (
      VALUES ${sql.join(rows, sql`, `)}
    ), item AS (
      SELECT i.id, g.state, g.data, g.error, g.credits, g.n
      FROM given g
      CROSS JOIN LATERAL (SELECT p.id FROM job_items p WHERE p.job_id = ${jobId} AND p.url = g.url LIMIT 1) l
      JOIN job_items i ON i.id = l.id
      WHERE i.state = 'pending'
      ORDER BY i.id
      FOR UPDATE OF i
    ), counted AS (
      UPDATE jobs SET
        completed = completed + (SELECT count(*) FROM item WHERE state = 'done'),
        failed = failed + (SELECT count(*) FROM item WHERE state <> 'done'),
        credits_used = credits_used + (SELECT coalesce(sum(credits), 0) FROM item),
        updated_at = ${at}::bigint
      WHERE id = ${jobId} AND EXISTS (SELECT 1 FROM item)
      RETURNING completed + failed - (SELECT count(*) FROM item) AS before
    )
    UPDATE job_items j SET state = r.state, data = r.data, error = r.error,
      seq = (SELECT before FROM counted) + r.place
    FROM (SELECT id, state, data, error, row_number() OVER (ORDER BY n) AS place FROM item) r
    WHERE j.id = r.id AND EXISTS (SELECT 1 FROM counted)
    RETURNING j.url`;
}

/** Jobs remembered as full: enough to spare a reader of a big frontier one lookup each. */
const FULL_JOBS_KEPT = 10_000;

/**
 * Jobs in PostgreSQL, shared by every API and worker process: each state
 * change is one statement or one transaction, guarded by the state it
 * expects (a transition is compare-and-set on the status; an item counts
 * only while pending), so concurrent workers never double-count or move a
 * terminal job.
 */
export function pgJobs(pg: PgConnection): JobStore {
  /** Jobs seen at their cap, by id: the total seen (it never goes down). */
  const full = new Map<string, number>();
  /** A job's pages finished here while one of its statements runs go together in the next. */
  const finish = grouped<Finished, boolean>(async (jobId, batch) => {
    // The first of a URL decides its outcome, as when the same page is finished twice.
    const seen = new Set<string>();
    const first = batch.map((it) => !seen.has(it.url) && Boolean(seen.add(it.url)));
    const items = batch
      .filter((_, i) => first[i])
      .map((it) => ({
        url: it.url,
        state: it.state,
        data: json(it.data),
        // PostgreSQL text cannot hold NUL: one in a message must not fail the pages batched with it.
        error: it.error?.replaceAll("\u0000", "\ufffd") ?? null,
        credits: it.credits,
      }));
    const rows = (await pg.run((db) => db.execute(finishStatement(jobId, items, Date.now())))) as unknown as {
      url: string;
    }[];
    const counted = new Set(rows.map((row) => row.url));
    return batch.map((it, i) => Boolean(first[i]) && counted.has(it.url));
  });
  return {
    create: (j, items) => {
      full.delete(j.id);
      return pg.run((db) =>
        db.transaction(async (tx) => {
          await tx.insert(jobs).values({
            id: j.id,
            type: j.type,
            status: j.status,
            accountId: j.accountId,
            keyId: j.keyId ?? null,
            input: JSON.stringify(j.input),
            webhook: json(j.webhook),
            total: j.total ?? 0,
            error: j.error,
            createdAt: j.createdAt,
            updatedAt: j.updatedAt,
            finishedAt: j.finishedAt,
            expiresAt: j.expiresAt,
          });
          await insertItems(tx, j.id, items, Number.MAX_SAFE_INTEGER);
        }),
      );
    },
    get: (id) =>
      pg.run(async (db) => {
        const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
        return row ? job(row) : null;
      }),
    list: ({ accountId, type, status, limit }) =>
      pg.run(async (db) => {
        const rows = await db
          .select()
          .from(jobs)
          .where(
            and(
              eq(jobs.accountId, accountId),
              type ? eq(jobs.type, type) : undefined,
              status ? eq(jobs.status, status) : undefined,
            ),
          )
          .orderBy(desc(jobs.createdAt), desc(jobs.id))
          .limit(limit);
        return rows.map(job);
      }),
    transition: (id, from, to, patch = {}, at = Date.now()) =>
      pg.run(async (db) => {
        if (!from.length) return false;
        const rows = await db
          .update(jobs)
          .set({
            status: to,
            updatedAt: at,
            ...(patch.error !== undefined && { error: patch.error }),
            ...(patch.finishedAt !== undefined && { finishedAt: patch.finishedAt }),
            ...(patch.expiresAt !== undefined && { expiresAt: patch.expiresAt }),
            ...(patch.input !== undefined && { input: JSON.stringify(patch.input) }),
            ...(patch.result !== undefined && { result: JSON.stringify(patch.result) }),
          })
          .where(and(eq(jobs.id, id), inArray(jobs.status, from)))
          .returning({ id: jobs.id });
        return rows.length > 0;
      }),
    setResult: (id, result, credits, at = Date.now()) =>
      pg.run(async (db) => {
        const rows = await db
          .update(jobs)
          .set({
            result: JSON.stringify(result ?? null),
            creditsUsed: sql`${jobs.creditsUsed} + ${credits}`,
            completed: sql`${jobs.completed} + 1`,
            updatedAt: at,
          })
          .where(and(eq(jobs.id, id), eq(jobs.status, "processing")))
          .returning({ id: jobs.id });
        return rows.length > 0;
      }),
    async addItems(jobId, items, cap) {
      // A job's total never goes down: one seen at its cap takes nothing more, and a crawl's pages
      // keep finding links long after it is full, so those calls cost no round trip.
      if (!items.length || (full.get(jobId) ?? -1) >= cap) return 0;
      return pg.run((db) =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .select({ total: jobs.total })
            .from(jobs)
            .where(eq(jobs.id, jobId))
            .for("update");
          if (!row) return 0;
          const added = await insertItems(tx, jobId, items, cap - row.total);
          if (row.total + added >= cap) {
            if (full.size >= FULL_JOBS_KEPT) full.delete(full.keys().next().value as string);
            full.set(jobId, row.total + added);
          }
          return added;
        }),
      );
    },
    pending: (jobId, limit) => pg.run(async (db) => (await frontierQuery(db, jobId, limit)).map(item)),
    finishItem: (jobId, url, outcome) => finish(jobId, { url, ...outcome }),
    results: (jobId, skip, limit) =>
      pg.run(async (db) => {
        const rows = await db
          .select(itemColumns)
          .from(jobItems)
          .where(and(eq(jobItems.jobId, jobId), gt(jobItems.seq, skip)))
          .orderBy(asc(jobItems.seq))
          .limit(limit);
        return rows.map(item);
      }),
    unfinished: () =>
      pg.run(async (db) => {
        const rows = await db
          .select()
          .from(jobs)
          .where(inArray(jobs.status, ["queued", "processing"]))
          .orderBy(asc(jobs.createdAt), asc(jobs.id));
        return rows.map(job);
      }),
    deleteExpired: (now) =>
      pg.run(async (db) => {
        // An id is never reused in practice; a store that deleted jobs forgets which were full.
        full.clear();
        const [row] = (await db.execute(sql`
          WITH gone AS (DELETE FROM jobs WHERE expires_at < ${now}::bigint RETURNING id),
          items AS (DELETE FROM job_items WHERE job_id IN (SELECT id FROM gone))
          SELECT count(*) AS n FROM gone`)) as unknown as { n: unknown }[];
        return Number(row?.n ?? 0);
      }),
  };
}

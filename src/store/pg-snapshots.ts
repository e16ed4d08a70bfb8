import { and, desc, eq, sql } from "drizzle-orm";
import type { PgConnection } from "./pg-connection.ts";
import { pageSnapshots } from "./pg-schema.ts";
import type { PageSnapshot, SnapshotStore } from "./types.ts";

type Row = typeof pageSnapshots.$inferSelect;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const snapshot = (row: Row): PageSnapshot => ({
  accountId: row.accountId,
  url: row.url,
  tag: row.tag,
  markdown: decoder.decode(row.markdown),
  statusCode: row.statusCode,
  scrapedAt: row.scrapedAt,
});

/**
 * Page snapshots in PostgreSQL: one row per recorded scrape; recording trims
 * the page's history to the newest `keep` in the same transaction, under an
 * advisory lock on the page, so two processes recording it at once cannot
 * leave more than `keep`.
 */
export function pgSnapshots(pg: PgConnection): SnapshotStore {
  const newest = (accountId: string, url: string, tag: string, limit: number) =>
    pg.run((db) =>
      db
        .select()
        .from(pageSnapshots)
        .where(
          and(eq(pageSnapshots.accountId, accountId), eq(pageSnapshots.url, url), eq(pageSnapshots.tag, tag)),
        )
        .orderBy(desc(pageSnapshots.scrapedAt), desc(pageSnapshots.id))
        .limit(limit),
    );
  return {
    async latest(accountId, url, tag) {
      const [row] = await newest(accountId, url, tag, 1);
      return row ? snapshot(row) : null;
    },
    record: (s, keep) =>
      pg.run((db) =>
        db.transaction(async (tx) => {
          const page = `${s.accountId}\n${s.url}\n${s.tag}`;
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${page}, 0))`);
          await tx.insert(pageSnapshots).values({ ...s, markdown: encoder.encode(s.markdown) });
          await tx.execute(sql`
            DELETE FROM page_snapshots WHERE account_id = ${s.accountId} AND url = ${s.url} AND tag = ${s.tag}
              AND id NOT IN (SELECT id FROM page_snapshots WHERE account_id = ${s.accountId} AND url = ${s.url}
                AND tag = ${s.tag} ORDER BY scraped_at DESC, id DESC LIMIT ${Math.max(1, keep)})`);
        }),
      ),
    async history(accountId, url, tag, limit) {
      return (await newest(accountId, url, tag, Math.max(0, limit))).map(snapshot);
    },
  };
}

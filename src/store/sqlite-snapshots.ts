import type { Database } from "bun:sqlite";
import type { PageSnapshot, SnapshotStore } from "./types.ts";

interface Row {
  account_id: string;
  url: string;
  tag: string;
  markdown: string;
  status_code: number;
  scraped_at: number;
}

const snapshot = (row: Row): PageSnapshot => ({
  accountId: row.account_id,
  url: row.url,
  tag: row.tag,
  markdown: row.markdown,
  statusCode: row.status_code,
  scrapedAt: row.scraped_at,
});

/**
 * Page snapshots in SQLite: one row per recorded scrape, newest found by the (account, url, tag,
 * scraped_at) index; recording trims the page's history to the newest `keep` in the same
 * transaction, so it never grows past that.
 */
export function sqliteSnapshots(sqlite: Database): SnapshotStore {
  const columns = "account_id, url, tag, markdown, status_code, scraped_at";
  const newest = sqlite.query<Row, [string, string, string, number]>(
    `SELECT ${columns} FROM page_snapshots WHERE account_id = ?1 AND url = ?2 AND tag = ?3 ` +
      "ORDER BY scraped_at DESC, id DESC LIMIT ?4",
  );
  const insert = sqlite.query(`INSERT INTO page_snapshots (${columns}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`);
  const trim = sqlite.query(
    "DELETE FROM page_snapshots WHERE account_id = ?1 AND url = ?2 AND tag = ?3 AND id NOT IN " +
      "(SELECT id FROM page_snapshots WHERE account_id = ?1 AND url = ?2 AND tag = ?3 " +
      "ORDER BY scraped_at DESC, id DESC LIMIT ?4)",
  );
  const record = sqlite.transaction((s: PageSnapshot, keep: number) => {
    insert.run(s.accountId, s.url, s.tag, s.markdown, s.statusCode, s.scrapedAt);
    trim.run(s.accountId, s.url, s.tag, Math.max(1, keep));
  });
  return {
    async latest(accountId, url, tag) {
      const row = newest.get(accountId, url, tag, 1);
      return row ? snapshot(row) : null;
    },
    async record(s, keep) {
      record(s, keep);
    },
    async history(accountId, url, tag, limit) {
      return newest.all(accountId, url, tag, Math.max(0, limit)).map(snapshot);
    },
  };
}

/**
 * Upgrading a database whose jobs were written before results were numbered in the order they
 * finish (migration job_item_seq): the finished items already there keep the order a reader saw
 * them in (found order, as results were read then), and items finished after the upgrade follow
 * them, so a reader paging across the upgrade neither repeats nor skips one.
 */

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { PgConnection } from "../../src/store/pg-connection.ts";
import { PG_MIGRATIONS } from "../../src/store/pg-migrations.gen.ts";
import { openPgStore } from "../../src/store/pg-store.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { SQLITE_MIGRATIONS } from "../../src/store/sqlite-migrations.gen.ts";
import type { Store } from "../../src/store/types.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";

const before = (tag: string) => (m: { tag: string }) => m.tag < tag;
const SEQ = "job_item_seq";
const JOB = "crawl_old";

/** Rows as the old schema held them: a job with items found 0..3, of which 2, 0 and 3 finished. */
const OLD_ROWS = [
  `INSERT INTO jobs (id, type, status, account_id, input, total, completed, failed, credits_used, created_at, updated_at)
     VALUES ('${JOB}', 'crawl', 'processing', 'local', '{}', 4, 2, 1, 2, 1, 1)`,
  `INSERT INTO job_items (job_id, url, depth, state, data) VALUES ('${JOB}', 'u0', 0, 'done', '"0"')`,
  `INSERT INTO job_items (job_id, url, depth, state, data) VALUES ('${JOB}', 'u1', 0, 'pending', NULL)`,
  `INSERT INTO job_items (job_id, url, depth, state, data) VALUES ('${JOB}', 'u2', 0, 'failed', NULL)`,
  `INSERT INTO job_items (job_id, url, depth, state, data) VALUES ('${JOB}', 'u3', 0, 'done', '"3"')`,
];

/** After the upgrade: the old finished items in their old order, then one finished now. */
async function expectContinuedOrder(store: Store) {
  expect((await store.jobs.results(JOB, 0, 10)).map((i) => i.url)).toEqual(["u0", "u2", "u3"]);
  await store.jobs.finishItem(JOB, "u1", { state: "done", data: "1", credits: 1 });
  expect((await store.jobs.results(JOB, 3, 10)).map((i) => i.url)).toEqual(["u1"]);
  expect((await store.jobs.results(JOB, 0, 10)).map((i) => i.url)).toEqual(["u0", "u2", "u3", "u1"]);
  expect(await store.jobs.get(JOB)).toMatchObject({ completed: 3, failed: 1 });
}

describe("SQLite", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test("finished items written before the upgrade keep their order; later ones follow", async () => {
    const dir = mkdtempSync(join(tmpdir(), "siphon-seq-"));
    dirs.push(dir);
    const path = join(dir, "siphon.db");
    const sqlite = new Database(path, { create: true });
    const db = drizzle(sqlite) as unknown as {
      dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): void };
      session: unknown;
    };
    const old = SQLITE_MIGRATIONS.filter(before(`0008_${SEQ}`));
    expect(old.length).toBe(SQLITE_MIGRATIONS.findIndex((m) => m.tag === `0008_${SEQ}`));
    db.dialect.migrate(old, db.session, { migrationsFolder: "" });
    expect(sqlite.query("SELECT name FROM pragma_table_info('job_items') WHERE name = 'seq'").all()).toEqual(
      [],
    );
    for (const row of OLD_ROWS) sqlite.run(row);
    sqlite.close();
    const store = openSqliteStore(path);
    try {
      await expectContinuedOrder(store);
    } finally {
      await store.close();
    }
  });
});

if (!postgresBin()) {
  describe("PostgreSQL", () => {
    test.skip("skipped: PostgreSQL is not installed (scripts/setup.sh installs it from apt)", () => {});
  });
} else {
  describe("PostgreSQL", () => {
    let pg: TestPostgres;
    beforeAll(async () => {
      pg = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await pg?.close();
    }, 30_000);

    test("finished items written before the upgrade keep their order; later ones follow", async () => {
      const url = await pg.createDatabase("sequpgrade");
      const conn = new PgConnection(url);
      const old = PG_MIGRATIONS.filter(before(`0003_${SEQ}`));
      // Every migration before the one that numbers results (later ones run at the upgrade too).
      expect(old.length).toBe(PG_MIGRATIONS.findIndex((m) => m.tag === `0003_${SEQ}`));
      await conn.run(async (db) => {
        await db.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
        await db.execute(
          sql`CREATE TABLE drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
        );
        for (const migration of old) {
          for (const statement of migration.sql) if (statement.trim()) await db.execute(sql.raw(statement));
          await db.execute(
            sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`,
          );
        }
        for (const row of OLD_ROWS) await db.execute(sql.raw(row));
      });
      await conn.close();
      const store = await openPgStore(url);
      try {
        await expectContinuedOrder(store);
      } finally {
        await store.close();
      }
    });
  });
}

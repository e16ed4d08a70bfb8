import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { eq, sql } from "drizzle-orm";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { DataVersion } from "./read-memo.ts";
import { sqliteAccounts } from "./sqlite-accounts.ts";
import { sqliteJobs } from "./sqlite-jobs.ts";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.gen.ts";
import { cacheEntries } from "./sqlite-schema.ts";
import { sqliteUsage } from "./sqlite-usage.ts";
import type { CacheStore, Store } from "./types.ts";

interface Migratable {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): void };
  session: unknown;
}

/** Applies the embedded migrations (drizzle's own bookkeeping table records what ran). */
function migrate(db: BunSQLiteDatabase): void {
  const internals = db as unknown as Migratable;
  internals.dialect.migrate(SQLITE_MIGRATIONS, internals.session, { migrationsFolder: "" });
}

function sqliteCache(db: BunSQLiteDatabase): CacheStore {
  const byKey = db
    .select()
    .from(cacheEntries)
    .where(eq(cacheEntries.key, sql.placeholder("key")))
    .prepare();
  return {
    async get<T>(key: string) {
      const row = byKey.get({ key });
      if (!row) return null;
      try {
        return { value: JSON.parse(row.value) as T, createdAt: row.createdAt };
      } catch {
        return null;
      }
    },
    async set<T>(key: string, url: string, value: T, createdAt: number) {
      const json = JSON.stringify(value);
      db.insert(cacheEntries)
        .values({ key, url, value: json, createdAt })
        .onConflictDoUpdate({ target: cacheEntries.key, set: { url, value: json, createdAt } })
        .run();
    },
  };
}

/** Opens (creating and migrating) the SQLite store at `path`; `:memory:` works for tests. */
export function openSqliteStore(path: string): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true });
  // WAL lets a CLI run read while a server writes; busy_timeout rides out short write locks.
  sqlite.exec(
    "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
  );
  const db = drizzle(sqlite);
  migrate(db);
  // One data_version read a millisecond serves every memo of this connection.
  const version = new DataVersion(sqlite);
  const usage = sqliteUsage(sqlite, version);
  return {
    kind: "sqlite",
    cache: sqliteCache(db),
    accounts: sqliteAccounts(db, version),
    usage,
    jobs: sqliteJobs(sqlite),
    async close() {
      usage.flush();
      sqlite.close();
    },
  };
}

import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { MAX_CACHE_AGE_MS } from "../schemas/fetch.ts";
import { DataVersion } from "./read-memo.ts";
import { sqliteAccounts } from "./sqlite-accounts.ts";
import { sqliteCache } from "./sqlite-cache.ts";
import { walCheckpointer } from "./sqlite-checkpointer.ts";
import { sqliteJobs } from "./sqlite-jobs.ts";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.gen.ts";
import { sqliteSnapshots } from "./sqlite-snapshots.ts";
import { turnWriter } from "./sqlite-turn-writes.ts";
import { sqliteUsage } from "./sqlite-usage.ts";
import { sqliteWatches } from "./sqlite-watches.ts";
import type { Store } from "./types.ts";

/** The cache's size cap when none is configured (SIPHON_CACHE_MAX_BYTES has the same default). */
const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

interface Migratable {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): void };
  session: unknown;
}

/** The newest embedded migration's time: a file whose bookkeeping has reached it lacks none. */
const LATEST_MIGRATION = Math.max(...SQLITE_MIGRATIONS.map((m) => m.folderMillis));

/**
 * Whether the file already has every embedded migration, by drizzle's own rule (a migration runs
 * when it is newer than the newest row of __drizzle_migrations), read in one query: every run
 * after the first skips drizzle's migrator pass, its write transaction included.
 */
function upToDate(sqlite: Database): boolean {
  try {
    const last = sqlite
      .query<{ at: unknown }, []>(
        "SELECT created_at AS at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1",
      )
      .get();
    return last !== null && Number(last.at) >= LATEST_MIGRATION;
  } catch {
    // No bookkeeping table yet: a new file.
    return false;
  }
}

/** Applies the embedded migrations the file lacks (drizzle's own bookkeeping table records what ran). */
function migrate(sqlite: Database, db: BunSQLiteDatabase): void {
  if (upToDate(sqlite)) return;
  const internals = db as unknown as Migratable;
  internals.dialect.migrate(SQLITE_MIGRATIONS, internals.session, { migrationsFolder: "" });
}

/** Options of the SQLite store; each has a default. */
export interface SqliteStoreOptions {
  /** Cache size cap, bytes (SIPHON_CACHE_MAX_BYTES). */
  cacheMaxBytes?: number;
}

/** Opens (creating and migrating) the SQLite store at `path`; `:memory:` works for tests. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true });
  // WAL lets a CLI run read while a server writes; busy_timeout rides out short write locks.
  sqlite.exec(
    "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
  );
  const db = drizzle(sqlite);
  migrate(sqlite, db);
  // One data_version read a millisecond serves every memo of this connection.
  const version = new DataVersion(sqlite);
  // The writes of one turn commit together, jobs' and charges' alike (sqlite-turn-writes.ts).
  const writes = turnWriter(sqlite);
  const usage = sqliteUsage(sqlite, version, writes);
  const cache = sqliteCache(sqlite, {
    maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
    maxAgeMs: MAX_CACHE_AGE_MS,
  });
  const jobs = sqliteJobs(sqlite, writes);
  // A file's checkpoints move to a thread of their own once its large writes (pages) add up.
  const checkpointer = path === ":memory:" ? undefined : walCheckpointer(sqlite, path);
  if (checkpointer) {
    const { set } = cache;
    const { finishItem } = jobs;
    cache.set = (...args) => {
      checkpointer.wrote();
      return set(...args);
    };
    jobs.finishItem = (...args) => {
      checkpointer.wrote();
      return finishItem(...args);
    };
  }
  return {
    kind: "sqlite",
    cache,
    accounts: sqliteAccounts(db, version),
    usage,
    jobs,
    snapshots: sqliteSnapshots(sqlite),
    watches: sqliteWatches(sqlite),
    async close() {
      jobs.flushWrites();
      usage.flush();
      await checkpointer?.close();
      sqlite.close();
    },
  };
}

import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { sqlitePathOf } from "./describe.ts";
import type { RedisConnection } from "./redis-connection.ts";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.gen.ts";
import type { Store } from "./types.ts";

export type { CacheEntry, CacheStore, Store } from "./types.ts";

/** Whether `url` names a PostgreSQL database (postgres:// or postgresql://). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Which backend a configuration selects: PostgreSQL for a postgres:// DATABASE_URL, else the SQLite file. */
function backendOf(config: Config): { kind: "postgres"; url: string } | { kind: "sqlite"; path: string } {
  const url = config.databaseUrl.trim();
  if (!url) return { kind: "sqlite", path: sqlitePathOf(config) };
  if (isPostgresUrl(url)) return { kind: "postgres", url };
  // A typo must not quietly fall back to a local file while other processes share a database.
  throw new SiphonError("invalid_request", "DATABASE_URL must be a postgres:// or postgresql:// URL", {
    hint: "Unset DATABASE_URL to use the embedded SQLite store in SIPHON_HOME.",
  });
}

/**
 * The one place that picks the storage backend for a configuration: PostgreSQL
 * when DATABASE_URL is a postgres URL, the SQLite file in SIPHON_HOME when it
 * is empty. Either is migrated on open. With REDIS_URL, the cache and usage
 * move to Redis over that store (src/store/redis-store.ts). Throws
 * invalid_request for another DATABASE_URL or REDIS_URL, store_unavailable
 * when PostgreSQL or Redis cannot be reached.
 */
export async function openStore(config: Config): Promise<Store> {
  const redisUrl = redisUrlOf(config);
  const base = await openBase(config);
  if (!redisUrl) return withSealedJobs(base, config, null);
  // Loaded only when chosen, as PostgreSQL is.
  const { withRedis } = await import("./redis-store.ts");
  let store: Awaited<ReturnType<typeof withRedis>>;
  try {
    store = await withRedis(base, redisUrl, { cacheMaxBytes: config.cacheMaxBytes });
  } catch (error) {
    await base.close();
    throw error;
  }
  try {
    return await withSealedJobs(store, config, store.redis);
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The REDIS_URL of a configuration, trimmed ("" for none); invalid_request for another scheme. */
function redisUrlOf(config: Config): string {
  const redisUrl = config.redisUrl.trim();
  if (redisUrl && !/^rediss?:\/\//i.test(redisUrl))
    throw new SiphonError("invalid_request", "REDIS_URL must be a redis:// or rediss:// URL", {
      hint: "Unset REDIS_URL to keep the cache, usage and jobs in the store alone.",
    });
  return redisUrl;
}

/**
 * Like openStore, but the SQLite file of a configuration without Redis is opened (created and
 * migrated) when a part of the store is first used, so a run that never touches the store
 * (`siphon fetch --no-cache`) neither loads, creates nor migrates it. The first use opens it
 * synchronously, so every part keeps its own methods, synchronous ones included; a failure to
 * open is thrown there. PostgreSQL and Redis are opened at once, as openStore does. A bad
 * DATABASE_URL or REDIS_URL is refused at once as openStore refuses it.
 */
export async function openStoreOnUse(config: Config): Promise<Store> {
  const backend = backendOf(config);
  if (redisUrlOf(config) || backend.kind === "postgres") return openStore(config);
  let store: Store | undefined;
  const open = () => {
    store ??= openLocalStore(backend.path, config);
    return store;
  };
  return {
    kind: "sqlite",
    get cache() {
      return open().cache;
    },
    get accounts() {
      return open().accounts;
    },
    get usage() {
      return open().usage;
    },
    get jobs() {
      return open().jobs;
    },
    get snapshots() {
      return open().snapshots;
    },
    get watches() {
      return open().watches;
    },
    async close() {
      await store?.close();
    },
  };
}

/**
 * The SQLite store at `path` with sealed jobs, opened synchronously: its modules (drizzle, the
 * schema, node:crypto for the sealing) are required here, on first use, not at start-up.
 */
function openLocalStore(path: string, config: Config): Store {
  const { openSqliteStore } = require("./sqlite.ts") as typeof import("./sqlite.ts");
  const { localJobSealer, sealedJobs } =
    require("../jobs/sealed-store.ts") as typeof import("../jobs/sealed-store.ts");
  const store = openSqliteStore(path, { cacheMaxBytes: config.cacheMaxBytes });
  const jobs = sealedJobs(store.jobs, localJobSealer(config), { retentionMs: config.jobRetentionMs });
  return { ...store, jobs };
}

/** The store with its jobs' secrets written only sealed (src/jobs/sealed-store.ts). */
async function withSealedJobs<S extends Store>(
  store: S,
  config: Config,
  redis: RedisConnection | null,
): Promise<S> {
  const { jobSealer, sealedJobs } = await import("../jobs/sealed-store.ts");
  const sealing = await jobSealer(config, redis);
  return { ...store, jobs: sealedJobs(store.jobs, sealing, { retentionMs: config.jobRetentionMs }) };
}

/** The SQLite or PostgreSQL store of a configuration. */
async function openBase(config: Config): Promise<Store> {
  const backend = backendOf(config);
  if (backend.kind === "postgres") {
    // Loaded only when chosen: a SQLite run never evaluates the PostgreSQL modules.
    const { openPgStore } = await import("./pg-store.ts");
    return openPgStore(backend.url, { cacheMaxBytes: config.cacheMaxBytes });
  }
  const { openSqliteStore } = await import("./sqlite.ts");
  return openSqliteStore(backend.path, { cacheMaxBytes: config.cacheMaxBytes });
}

/** What `migrateStore` did. */
export interface MigrationReport {
  kind: Store["kind"];
  /** Where the store is: the SQLite file, or the PostgreSQL URL without its password. */
  location: string;
  /** Tags of the migrations applied now, oldest first (empty: already up to date). */
  applied: string[];
  /** How many migrations the schema has in all. */
  total: number;
}

/** A postgres URL fit to print: the password, if any, masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}

/** The SQLite migrations a file still lacks (all of them for a new file). */
function pendingSqlite(path: string): string[] {
  if (!existsSync(path)) return SQLITE_MIGRATIONS.map((m) => m.tag);
  const db = new Database(path, { readonly: true });
  try {
    const table = db
      .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
      .get();
    const last = table
      ? (db.query<{ at: number | null }, []>("SELECT max(created_at) AS at FROM __drizzle_migrations").get()
          ?.at ?? null)
      : null;
    return SQLITE_MIGRATIONS.filter((m) => last === null || m.folderMillis > last).map((m) => m.tag);
  } finally {
    db.close();
  }
}

/** Brings the configured store's schema up to date (as opening it does) and says what that took. */
export async function migrateStore(config: Config): Promise<MigrationReport> {
  const backend = backendOf(config);
  if (backend.kind === "postgres") {
    const { migratePgStore, PG_MIGRATION_COUNT } = await import("./pg-store.ts");
    const applied = await migratePgStore(backend.url);
    return { kind: "postgres", location: redactUrl(backend.url), applied, total: PG_MIGRATION_COUNT };
  }
  const applied = pendingSqlite(backend.path);
  const { openSqliteStore } = await import("./sqlite.ts");
  await openSqliteStore(backend.path).close();
  return { kind: "sqlite", location: backend.path, applied, total: SQLITE_MIGRATIONS.length };
}

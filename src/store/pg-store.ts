import { MAX_CACHE_AGE_MS } from "../schemas/fetch.ts";
import { pgAccounts } from "./pg-accounts.ts";
import { pgCache } from "./pg-cache.ts";
import { PgConnection, type PgOptions } from "./pg-connection.ts";
import { pgJobs } from "./pg-jobs.ts";
import { migratePg } from "./pg-migrate.ts";
import { PG_MIGRATIONS } from "./pg-migrations.gen.ts";
import { pgSnapshots } from "./pg-snapshots.ts";
import { pgUsage } from "./pg-usage.ts";
import { pgWatches } from "./pg-watches.ts";
import type { Store } from "./types.ts";

/** Options of the PostgreSQL store; each has a default. */
export interface PgStoreOptions extends PgOptions {
  /** Cache size cap, bytes (SIPHON_CACHE_MAX_BYTES). */
  cacheMaxBytes?: number;
}

const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** How many migrations the PostgreSQL schema has in all. */
export const PG_MIGRATION_COUNT = PG_MIGRATIONS.length;

/**
 * Connects to the PostgreSQL database at `url` and brings its schema up to
 * date; answers the migrations this applied. Throws store_unavailable when the
 * database cannot be reached.
 */
export async function migratePgStore(url: string, options: PgOptions = {}): Promise<string[]> {
  const pg = new PgConnection(url, options);
  try {
    return await migratePg(pg);
  } finally {
    await pg.close();
  }
}

/**
 * Opens the PostgreSQL store at `url`, migrating it first. Every process on
 * the database shares the data; throws store_unavailable when the database
 * cannot be reached.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<Store> {
  const pg = new PgConnection(url, options);
  try {
    await migratePg(pg);
    const usage = pgUsage(pg);
    const accounts = await pgAccounts(pg);
    return {
      kind: "postgres",
      cache: pgCache(pg, {
        maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
        maxAgeMs: MAX_CACHE_AGE_MS,
      }),
      accounts,
      usage,
      jobs: pgJobs(pg),
      snapshots: pgSnapshots(pg),
      watches: pgWatches(pg),
      async close() {
        await usage.flush().catch(() => {});
        await pg.close();
      },
    };
  } catch (error) {
    await pg.close();
    throw error;
  }
}

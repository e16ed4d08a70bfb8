import { sql } from "drizzle-orm";
import { SiphonError } from "../errors.ts";
import type { PgConnection } from "./pg-connection.ts";
import { PG_MIGRATIONS } from "./pg-migrations.gen.ts";

/** An advisory lock key of siphon's own: processes starting together migrate one at a time. */
const MIGRATION_LOCK = 0x5195_0001;

const LATEST = PG_MIGRATIONS.at(-1)?.folderMillis ?? 0;

/** Whether the newest embedded migration is recorded already: one read, no lock (the usual start). */
async function upToDate(pg: PgConnection): Promise<boolean> {
  try {
    const [row] = (await pg.run((db) =>
      db.execute(sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`),
    )) as unknown as { at: unknown }[];
    return Number(row?.at ?? 0) >= LATEST;
  } catch (error) {
    // A database never migrated has no bookkeeping table: migrate it. Anything else is real.
    if (error instanceof SiphonError) throw error;
    return false;
  }
}

/**
 * Brings the schema up to date with the embedded migrations, in one
 * transaction under an advisory lock, so several processes starting at once
 * neither race nor half-apply: the first applies, the others find nothing
 * left to do. Bookkeeping is drizzle's own (drizzle.__drizzle_migrations),
 * so drizzle-kit sees the same history. Answers the tags it applied.
 */
export async function migratePg(pg: PgConnection): Promise<string[]> {
  if (await upToDate(pg)) return [];
  return pg.run((db) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
      await tx.execute(
        sql`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
      );
      const [last] = (await tx.execute(
        sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
      )) as unknown as { created_at: string | number | null }[];
      const lastAt = last ? Number(last.created_at) : Number.NEGATIVE_INFINITY;
      const applied: string[] = [];
      for (const migration of PG_MIGRATIONS) {
        if (migration.folderMillis <= lastAt) continue;
        for (const statement of migration.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
        await tx.execute(
          sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`,
        );
        applied.push(migration.tag);
      }
      return applied;
    }),
  );
}

import { join } from "node:path";
import type { Config } from "../config.ts";

/**
 * The store a configuration selects, as a person reads it: `SQLite <file>`, or `PostgreSQL at
 * <host>` (never the URL's user or password). Loads no driver.
 */
export function describeStore(config: Config): string {
  const url = config.databaseUrl.trim();
  if (!url) return `SQLite ${sqlitePathOf(config)}`;
  try {
    return `PostgreSQL at ${new URL(url).host}`;
  } catch {
    return "PostgreSQL";
  }
}

/** The SQLite file a configuration without DATABASE_URL uses (loads no driver, as describeStore). */
export function sqlitePathOf(config: Config): string {
  return join(config.home, "siphon.db");
}

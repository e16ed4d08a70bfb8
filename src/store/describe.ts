import { join } from "node:path";
import type { Config } from "../config.ts";

/**
 * The store a configuration selects, as a person reads it: `SQLite <file>`, or `PostgreSQL at
 * <host>` (never the URL's user or password). Loads no driver.
 */
export function describeStore(config: Config): string {
  const url = config.databaseUrl.trim();
  if (!url) return `SQLite ${join(config.home, "siphon.db")}`;
  try {
    return `PostgreSQL at ${new URL(url).host}`;
  } catch {
    return "PostgreSQL";
  }
}

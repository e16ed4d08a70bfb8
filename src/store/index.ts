import { join } from "node:path";
import type { Config } from "../config.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

export type { CacheEntry, CacheStore, Store } from "./types.ts";

/** The one place that picks the storage backend for a configuration. */
export async function openStore(config: Config): Promise<Store> {
  return openSqliteStore(join(config.home, "siphon.db"), { cacheMaxBytes: config.cacheMaxBytes });
}

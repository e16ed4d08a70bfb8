import { type Config, type ConfigOverrides, loadConfig, settingEnv } from "../src/config.ts";
import { createEngines } from "../src/pipeline/engines.ts";
import type { FetchDeps } from "../src/pipeline/fetch-page.ts";
import { openStore, openStoreOnUse } from "../src/store/index.ts";

export interface CliContext extends FetchDeps {
  close(): Promise<void>;
}

/**
 * Overrides for a run that extracts one page: a worker thread's start-up
 * (tens of ms) would cost more than it saves, unless SIPHON_EXTRACT_THREADS
 * asks for one.
 */
export function onePageOverrides(): ConfigOverrides {
  return process.env[settingEnv("extractThreads")] ? {} : { extractThreads: 0 };
}

/** How a command's context is opened. */
export interface ContextOptions {
  /**
   * Open the local SQLite store on first use (openStoreOnUse), for a command that may not touch
   * it (a fetch that reads and writes no cache); otherwise the store is opened and migrated at
   * once, as a server needs before it listens.
   */
  storeOnUse?: boolean;
}

/** Loads config (flags > env > config file > defaults), opens the store and lazy engines. */
export async function openContext(
  overrides: ConfigOverrides = {},
  options: ContextOptions = {},
): Promise<CliContext> {
  const config: Config = loadConfig(process.env, overrides);
  const store = options.storeOnUse ? await openStoreOnUse(config) : await openStore(config);
  const engines = createEngines(config);
  return {
    config,
    store,
    engines,
    async close() {
      await engines.close();
      await store.close();
    },
  };
}

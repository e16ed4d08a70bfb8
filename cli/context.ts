import { type Config, type ConfigOverrides, loadConfig, settingEnv } from "../src/config.ts";
import { createEngines } from "../src/pipeline/engines.ts";
import type { FetchDeps } from "../src/pipeline/fetch-page.ts";
import { openStoreOnUse } from "../src/store/index.ts";

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

/**
 * Loads config (flags > env > config file > defaults), the store (the local SQLite file is opened
 * on first use: a fetch that reads and writes no cache never opens it) and lazy engines.
 */
export async function openContext(overrides: ConfigOverrides = {}): Promise<CliContext> {
  const config: Config = loadConfig(process.env, overrides);
  const store = await openStoreOnUse(config);
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

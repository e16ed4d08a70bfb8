import { type Config, type ConfigOverrides, loadConfig } from "../src/config.ts";
import { createEngines } from "../src/pipeline/engines.ts";
import type { FetchDeps } from "../src/pipeline/fetch-page.ts";
import { openStore } from "../src/store/index.ts";

export interface CliContext extends FetchDeps {
  close(): Promise<void>;
}

/** Loads config (flags > env > config file > defaults), opens the store and lazy engines. */
export async function openContext(overrides: ConfigOverrides = {}): Promise<CliContext> {
  const config: Config = loadConfig(process.env, overrides);
  const store = await openStore(config);
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

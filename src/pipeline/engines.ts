import type { Config } from "../config.ts";
import type { FetchEngine } from "../fetch/types.ts";
import type { Engines } from "./fetch-page.ts";

type EngineLoaders = { simple: () => Promise<FetchEngine> };

/** Lazily created, shared engines for one process; `close` releases them. */
export function createEngines(config: Config): Engines & { close(): Promise<void> } {
  const loaders: EngineLoaders = {
    simple: async () => (await import("../fetch/simple.ts")).createSimpleEngine(config),
  };
  const loaded = new Map<keyof EngineLoaders, Promise<FetchEngine>>();
  return {
    get(name) {
      let engine = loaded.get(name);
      if (!engine) {
        engine = loaders[name]();
        loaded.set(name, engine);
      }
      return engine;
    },
    async close() {
      for (const engine of loaded.values()) await (await engine).close?.();
      loaded.clear();
    },
  };
}

import { availableParallelism } from "node:os";
import type { Config } from "../config.ts";
import { createExtractorPool, type HtmlExtractor } from "../extract/pool.ts";
import type { BrowserPool } from "../fetch/browser/pool.ts";
import type { EngineName, FetchEngine } from "../fetch/types.ts";
import type { Engines } from "./fetch-page.ts";

/**
 * Lazily created, shared engines for one process; `close` releases them.
 * The registry is typed by EngineName, so a missing engine is a compile
 * error; puppeteer is loaded only when a browser engine is first used, and
 * the browser and stealth engines share one browser. HTML extraction runs on
 * a pool of worker threads (SIPHON_EXTRACT_THREADS) started on first use.
 */
/** Default ceiling of extraction threads: each holds its own copy of the extraction code (~30 MiB). */
const DEFAULT_MAX_THREADS = 4;

export function createEngines(config: Config): Engines & { close(): Promise<void> } {
  let pool: Promise<BrowserPool> | undefined;
  const sharedPool = () => {
    pool ??= import("../fetch/browser/pool.ts").then((m) => m.createBrowserPool(config));
    pool.catch(() => {
      pool = undefined;
    });
    return pool;
  };
  const browserEngine = async (stealth: boolean) => {
    const [{ createBrowserEngine }, shared] = await Promise.all([
      import("../fetch/browser/engine.ts"),
      sharedPool(),
    ]);
    return createBrowserEngine(config, shared, { stealth });
  };
  const loaders: Record<EngineName, () => Promise<FetchEngine>> = {
    simple: async () => (await import("../fetch/simple.ts")).createSimpleEngine(config),
    browser: () => browserEngine(false),
    stealth: () => browserEngine(true),
  };
  const loaded = new Map<EngineName, Promise<FetchEngine>>();
  let extractors: ReturnType<typeof createExtractorPool> | undefined;
  const threads =
    config.extractThreads >= 0
      ? config.extractThreads
      : Math.min(DEFAULT_MAX_THREADS, availableParallelism());
  // Threads start on the first page, so commands that never extract (keys, jobs) never pay for them.
  const extract: HtmlExtractor | undefined =
    threads > 0
      ? (html, url, options) => {
          extractors ??= createExtractorPool(threads);
          return extractors.extract(html, url, options);
        }
      : undefined;
  return {
    extract,
    get(name) {
      let engine = loaded.get(name);
      if (!engine) {
        engine = loaders[name]();
        loaded.set(name, engine);
        // A failed start (no Chromium yet) must not be remembered: the next request tries again.
        engine.catch(() => loaded.delete(name));
      }
      return engine;
    },
    async close() {
      for (const engine of loaded.values()) await (await engine).close?.();
      loaded.clear();
      if (pool) await (await pool).close();
      extractors?.close();
      extractors = undefined;
      pool = undefined;
    },
  };
}

import { availableParallelism } from "node:os";
import { DEFAULT_TOKENIZER, type TokenizerName } from "../chunks/names.ts";
import type { Config } from "../config.ts";
import type { ExtractorPool, HtmlExtractor, MarkdownChunker } from "../extract/pool.ts";
import type { BrowserPool } from "../fetch/browser/pool.ts";
import type { EngineName, FetchEngine } from "../fetch/types.ts";
import { createSessions, type Sessions } from "../sessions/index.ts";
import { createRenderMemo, type RenderMemo } from "./render-memo.ts";

/** Engines by name, loaded lazily so a run pays only for what it uses. */
export interface Engines {
  get(name: EngineName): Promise<FetchEngine>;
  /** HTML extraction; in this thread when absent. */
  extract?: HtmlExtractor;
  /** Markdown chunking (the chunks format), on a thread of its own; in this thread when absent. */
  chunk?: MarkdownChunker;
  /**
   * Starts the chunking thread and loads `tokenizer` in it now, while the page that needs it is
   * fetched (loading an encoding takes about half a second); nothing when chunking is inline.
   */
  startChunking?(tokenizer?: TokenizerName): void;
  /** Results rendered from cached attempts, so a repeated hit does not extract again. */
  renders?: RenderMemo;
  /**
   * Starts the extraction threads now, for work about to extract pages (a job opening), so that
   * its first page does not wait for them to load (about 50 ms); nothing when extraction is inline.
   */
  startExtraction?(): void;
  /** The process's browser sessions (live pages kept open between requests), closed with the engines. */
  sessions?: Sessions;
}

/** Default ceiling of extraction threads: each holds its own copy of the extraction code (~30 MiB). */
const DEFAULT_MAX_THREADS = 4;

/**
 * Lazily created, shared engines for one process; `close` releases them.
 * The registry is typed by EngineName, so a missing engine is a compile
 * error; puppeteer is loaded only when a browser engine is first used, and
 * the browser and stealth engines share one browser pool (and one browser when the same
 * executable serves both, see BrowserKind). HTML extraction runs on
 * a pool of worker threads (SIPHON_EXTRACT_THREADS) loaded and started on
 * first use, so commands that never extract (keys, jobs) load none of it.
 */
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
  let extractors: Promise<ExtractorPool> | undefined;
  // The event loop is busy too (fetching, storing, answering): one core is left to it, so the
  // threads never fight it for a core (on 2 cores, 2 threads crawled 10% slower and spent 20% more
  // CPU a page than 1, most of it each thread compiling the same code).
  const threads =
    config.extractThreads >= 0
      ? config.extractThreads
      : Math.max(1, Math.min(DEFAULT_MAX_THREADS, availableParallelism() - 1));
  const extractorPool = () => {
    extractors ??= import("../extract/pool.ts").then((m) => m.createExtractorPool(threads));
    return extractors;
  };
  const extract: HtmlExtractor | undefined =
    threads > 0
      ? async (html, url, options) => (await extractorPool()).extract(html, url, options)
      : undefined;
  // Chunking has a thread of its own: its tokenizer loads beside the extraction of the first pages,
  // and counting tokens never queues a page's extraction behind it.
  let chunkers: Promise<ExtractorPool> | undefined;
  const chunkerPool = () => {
    chunkers ??= import("../extract/pool.ts").then((m) => m.createExtractorPool(1));
    return chunkers;
  };
  const chunk: MarkdownChunker | undefined =
    threads > 0 ? async (task) => (await chunkerPool()).chunk(task) : undefined;
  const warmed = new Set<string>();
  const sessions = createSessions();
  return {
    extract,
    chunk,
    sessions,
    startExtraction() {
      if (threads > 0) void extractorPool();
    },
    startChunking(tokenizer = DEFAULT_TOKENIZER) {
      if (!chunk || warmed.has(tokenizer)) return;
      warmed.add(tokenizer);
      void chunk({ markdown: "", page: { url: "" }, options: { tokenizer } }).catch(() =>
        warmed.delete(tokenizer),
      );
    },
    renders: createRenderMemo(),
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
      await sessions.closeAll();
      for (const engine of loaded.values()) await (await engine).close?.();
      loaded.clear();
      if (pool) await (await pool).close();
      if (extractors) (await extractors).close();
      if (chunkers) (await chunkers).close();
      extractors = undefined;
      chunkers = undefined;
      pool = undefined;
    },
  };
}

import type { Browser, BrowserContext, Page } from "puppeteer-core";
import type { Config } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { type LaunchedBrowser, launchBrowser } from "./launch.ts";

/** Counters for health checks, benchmarks and tests. */
export interface PoolStats {
  /** Browsers launched (or connected) so far, relaunches included. */
  launches: number;
  /** Pages whose work finished, successfully or not. */
  pagesServed: number;
  /** Pages open right now. */
  inFlight: number;
  /** Callers queued for a free page slot. */
  waiting: number;
}

/** The shared browser of a process, handing out one isolated page per request. */
export interface BrowserPool {
  /**
   * Runs `fn` with a fresh page in a fresh incognito context (closed afterwards, so nothing leaks
   * between requests). Waits FIFO for a slot when config.browserConcurrency pages are open; a
   * request cut short by a browser crash runs once more on a relaunched browser.
   * @throws whatever `fn` throws; the signal's reason when aborted; SiphonError browser_unavailable
   *   when Chromium cannot be launched or the pool is closed
   */
  withPage<T>(fn: (page: Page, context: BrowserContext) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Closes every browser of the pool and removes their profiles; idempotent. */
  close(): Promise<void>;
  stats(): PoolStats;
}

/** Replaceable collaborators (tests count launches or inject failures). */
export interface BrowserPoolDeps {
  launch?: (config: Config) => Promise<LaunchedBrowser>;
}

/** One launched browser and the pages it has served; retired ones close when their pages finish. */
interface Generation {
  ready: Promise<LaunchedBrowser>;
  started: number;
  inFlight: number;
  retired: boolean;
  /** A context and page opened ahead of need: opening one (a renderer start) is most of a warm fetch. */
  spare?: Promise<Fresh | undefined>;
  closed?: Promise<void>;
}

/** A never-used incognito context with one blank page. */
interface Fresh {
  context: BrowserContext;
  page: Page;
}

async function openFresh(browser: Browser): Promise<Fresh> {
  const context = await browser.createBrowserContext();
  try {
    return { context, page: await context.newPage() };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/** Creates the pool; nothing is launched until the first withPage. */
export function createBrowserPool(config: Config, deps: BrowserPoolDeps = {}): BrowserPool {
  const launch = deps.launch ?? launchBrowser;
  const limit = Math.max(1, config.browserConcurrency);
  const recycleAfter = config.browserRecycleAfter > 0 ? config.browserRecycleAfter : Infinity;
  const generations = new Set<Generation>();
  const queue: Waiter[] = [];
  let current: Generation | undefined;
  let active = 0;
  let launches = 0;
  let pagesServed = 0;
  let closed = false;

  const closedError = () =>
    new SiphonError("browser_unavailable", "The browser pool is shutting down; no new pages are opened.");

  function acquireSlot(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (active < limit && queue.length === 0) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      queue.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  function releaseSlot(): void {
    // The slot passes straight to the next waiter, so `active` only drops when nobody waits.
    const next = queue.shift();
    if (next) next.resolve();
    else active--;
  }

  function closeGeneration(gen: Generation): Promise<void> {
    gen.closed ??= (async () => {
      generations.delete(gen);
      const launched = await gen.ready.catch(() => undefined);
      // A connected (remote) browser outlives us: its spare context must not be left behind.
      const pending = gen.spare;
      gen.spare = undefined;
      const spare = await pending;
      await spare?.context.close().catch(() => {});
      await launched?.close();
    })();
    return gen.closed;
  }

  function retire(gen: Generation): void {
    gen.retired = true;
    if (current === gen) current = undefined;
    if (gen.inFlight === 0) void closeGeneration(gen);
  }

  function currentGeneration(): Generation {
    if (current && !current.retired) return current;
    launches++;
    const gen: Generation = { ready: launch(config), started: 0, inFlight: 0, retired: false };
    generations.add(gen);
    current = gen;
    gen.ready.then(
      (launched) => launched.browser.once("disconnected", () => retire(gen)),
      () => {
        // A failed launch is not cached: the next request tries again.
        if (current === gen) current = undefined;
        generations.delete(gen);
      },
    );
    return gen;
  }

  /** Hands out the spare, else a new context. */
  async function takeFresh(gen: Generation, browser: Browser): Promise<Fresh> {
    // Taken before awaiting, so two callers can never be handed the same page.
    const pending = gen.spare;
    gen.spare = undefined;
    const spare = await pending;
    if (spare && !spare.page.isClosed()) return spare;
    return openFresh(browser);
  }

  /** Opens the next spare once a page is done, so it never competes with a page being rendered. */
  function refillSpare(gen: Generation): void {
    if (gen.spare || gen.retired || closed) return;
    gen.spare = gen.ready.then((launched) => openFresh(launched.browser)).catch(() => undefined);
  }

  type Outcome<T> = ({ value: T } | { error: unknown; crashed: boolean }) & { done: Promise<void> };

  /** Runs fn on a fresh page; `done` settles once the context is closed and the page counted. */
  async function runOnce<T>(fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<Outcome<T>> {
    const gen = currentGeneration();
    gen.inFlight++;
    gen.started++;
    if (gen.started >= recycleAfter) retire(gen);
    let fresh: Fresh | undefined;
    const finish = async () => {
      await fresh?.context.close().catch(() => {});
      gen.inFlight--;
      pagesServed++;
      if (gen.retired && gen.inFlight === 0) void closeGeneration(gen);
      else refillSpare(gen);
    };
    try {
      const { browser } = await gen.ready;
      fresh = await takeFresh(gen, browser);
      const value = await fn(fresh.page, fresh.context);
      // The caller gets its answer now; closing the context (tens of ms) happens behind it.
      return { value, done: finish() };
    } catch (error) {
      const launched = await gen.ready.catch(() => undefined);
      const crashed = launched !== undefined && !launched.browser.connected;
      await finish();
      return { error, crashed, done: Promise.resolve() };
    }
  }

  return {
    async withPage<T>(fn: (page: Page, context: BrowserContext) => Promise<T>, signal?: AbortSignal) {
      if (closed) throw closedError();
      await acquireSlot(signal);
      let release: Promise<void> = Promise.resolve();
      try {
        for (let attempt = 0; ; attempt++) {
          if (closed) throw closedError();
          const outcome = await runOnce(fn);
          if ("value" in outcome) {
            // The slot stays taken until the page is really closed, so the bound holds.
            release = outcome.done;
            return outcome.value;
          }
          // Only a crash is worth repeating, once, and only while the caller still waits.
          if (!outcome.crashed || attempt > 0 || closed || signal?.aborted) throw outcome.error;
        }
      } finally {
        void release.then(releaseSlot);
      }
    },

    async close() {
      closed = true;
      for (const waiter of queue.splice(0)) waiter.reject(closedError());
      current = undefined;
      await Promise.all([...generations].map(closeGeneration));
    },

    stats() {
      let inFlight = 0;
      for (const gen of generations) inFlight += gen.inFlight;
      return { launches, pagesServed, inFlight, waiting: queue.length };
    },
  };
}

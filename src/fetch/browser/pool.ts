import type { Page } from "puppeteer-core";
import type { Config } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { type BrowserKind, findChromium, type LaunchedBrowser, launchBrowser } from "./launch.ts";
import { openSlot, type PageLease, type Slot } from "./slot.ts";

/** Counters for health checks, benchmarks and tests. */
export interface PoolStats {
  /** Browsers launched (or connected) so far, relaunches included. */
  launches: number;
  /** Pages whose work finished, successfully or not. */
  pagesServed: number;
  /** Pages lent right now, or being wiped after their request. */
  inFlight: number;
  /** Callers queued for a free page slot. */
  waiting: number;
  /** Incognito contexts opened so far (a page is reused for many requests before it is replaced). */
  contextsOpened: number;
}

/** How a caller of withPage wants its page. */
export interface WithPageOptions {
  signal?: AbortSignal;
  /**
   * Requests that change the page in ways a wipe does not undo (stealth's user agent and CPU
   * count overrides, a location's permission grant) name a partition: pages are only ever lent
   * within one partition. Default "default".
   */
  partition?: string;
  /**
   * A browsing session (a crawl or batch job): the page a request of the session used is kept
   * for the session's next request, unwiped, for SESSION_KEEP_MS, so the session's pages share
   * cookies, storage and the HTTP cache as in one person's browser, and skip the wipe between
   * them. No other request is lent such a page before it is wiped.
   */
  session?: string;
  /**
   * Which browser the page lives in (see BrowserKind; default "browser"). Kinds whose
   * executables are the same share one browser.
   */
  browser?: BrowserKind;
}

/**
 * The shared browsers of a process (one per executable, see BrowserKind), lending one warm,
 * isolated page per request.
 */
export interface BrowserPool {
  /**
   * Runs `fn` with a page of its own. Pages are reused: each lives in an incognito context that
   * serves a bounded number of requests (SIPHON_BROWSER_CONTEXT_USES) one at a time, and between two requests
   * its page is taken to about:blank and its cookies, storage, HTTP cache and history are wiped
   * (see Slot.release); a request that fails, opens another page or loads a cross-origin frame
   * costs its context, which is closed. Settings (user agent, viewport, locale, time zone,
   * geolocation, permissions) are the caller's to set on every request. Waits FIFO when
   * config.browserConcurrency pages, of all browsers together, are lent or being wiped; a
   * request cut short by a browser crash runs once more on a relaunched browser.
   * @throws whatever `fn` throws; the signal's reason when aborted; SiphonError browser_unavailable
   *   when Chromium cannot be launched or the pool is closed
   */
  withPage<T>(fn: (page: Page, lease: PageLease) => Promise<T>, options?: WithPageOptions): Promise<T>;
  /** Closes every browser of the pool and removes their profiles; idempotent. */
  close(): Promise<void>;
  stats(): PoolStats;
}

/** Replaceable collaborators (tests count launches or inject failures). */
export interface BrowserPoolDeps {
  launch?: (config: Config, kind: BrowserKind) => Promise<LaunchedBrowser>;
}

/** One launched browser, its slots and the pages it has served; retired ones close when idle. */
interface Generation {
  /** The browser it runs (see browserKey): one current generation per key. */
  key: string;
  ready: Promise<LaunchedBrowser>;
  started: number;
  inFlight: number;
  retired: boolean;
  /** Every slot open in this browser, lent or not. */
  slots: Set<Slot>;
  /** Slots being opened. */
  opening: number;
  /** Slots waiting for a request (wiped, or kept for a session), most recently used last. */
  idle: Slot[];
  closed?: Promise<void>;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
}

const DEFAULT_PARTITION = "default";
/** Longest a wipe waits for the other pages to finish loading before it runs anyway. */
const WIPE_DEFER_MAX_MS = 300;
/** How long a page kept for a browsing session waits for its next request before it is wiped. */
export const SESSION_KEEP_MS = 2_000;

/** Creates the pool; nothing is launched until the first withPage. */
export function createBrowserPool(config: Config, deps: BrowserPoolDeps = {}): BrowserPool {
  const launch = deps.launch ?? ((launchConfig, kind) => launchBrowser(launchConfig, { kind }));
  const limit = Math.max(1, config.browserConcurrency);
  const recycleAfter = config.browserRecycleAfter > 0 ? config.browserRecycleAfter : Infinity;
  const generations = new Set<Generation>();
  const queue: Waiter[] = [];
  /** The executable of each kind, once found. */
  const keys = new Map<BrowserKind, string>();
  /** The browser each key is served by now. */
  const current = new Map<string, Generation>();
  let active = 0;
  let launches = 0;
  let pagesServed = 0;
  let contextsOpened = 0;
  const contextUses = Math.max(1, config.browserContextUses);
  let closed = false;
  /** The latest keep of each slot kept for a session: only its timer may wipe the slot. */
  const keeps = new WeakMap<Slot, number>();
  /** Wipes waiting for a quiet moment (see quietMoment). */
  const deferredWipes = new Set<() => void>();

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
      // Somebody waits for a turn, which a wipe gives back: wipes go now.
      wakeDeferredWipes();
    });
  }

  function releaseSlot(): void {
    // The turn passes straight to the next waiter, so `active` only drops when nobody waits.
    const next = queue.shift();
    if (next) next.resolve();
    else active--;
  }

  function anyLoading(): boolean {
    for (const gen of generations) for (const slot of gen.slots) if (slot.loading) return true;
    return false;
  }

  function wakeDeferredWipes(): void {
    for (const wake of [...deferredWipes]) wake();
  }

  /**
   * Resolves when the wipe of a released page may run: right away when a caller waits for a
   * turn or no page is loading, else when the loads end (at most WIPE_DEFER_MAX_MS later). A
   * wipe is a navigation, as costly in CPU as the loads callers wait for; on few cores it
   * would slow them down, while the settle that follows a load leaves the CPU idle.
   */
  async function quietMoment(): Promise<void> {
    // A caller that was waiting for the answer often asks again at once: let it start first.
    await new Promise((resolve) => setImmediate(resolve));
    if (queue.length > 0 || closed || !anyLoading()) return;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        deferredWipes.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, WIPE_DEFER_MAX_MS);
      deferredWipes.add(wake);
    });
  }

  function onPageLoaded(): void {
    if (deferredWipes.size > 0 && !anyLoading()) wakeDeferredWipes();
  }

  function closeGeneration(gen: Generation): Promise<void> {
    gen.closed ??= (async () => {
      generations.delete(gen);
      gen.idle = [];
      const launched = await gen.ready.catch(() => undefined);
      // A connected (remote) browser outlives us: none of our contexts may be left in it.
      await Promise.all([...gen.slots].map((slot) => slot.close()));
      await launched?.close();
    })();
    return gen.closed;
  }

  function retire(gen: Generation): void {
    gen.retired = true;
    if (current.get(gen.key) === gen) current.delete(gen.key);
    for (const slot of gen.idle.splice(0)) void dropSlot(gen, slot);
    if (gen.inFlight === 0) void closeGeneration(gen);
  }

  /**
   * Which browser a kind runs on: its executable, so that kinds that resolve to the same one
   * share it; one remote browser serves every kind.
   */
  function browserKey(kind: BrowserKind): string {
    if (config.browserWs) return "remote";
    let key = keys.get(kind);
    if (key) return key;
    try {
      key = findChromium(config, kind);
    } catch {
      // The launch fails with the same error, and says so; not remembered, so an install is seen.
      return kind;
    }
    keys.set(kind, key);
    return key;
  }

  function currentGeneration(kind: BrowserKind): Generation {
    const key = browserKey(kind);
    const now = current.get(key);
    if (now && !now.retired) return now;
    launches++;
    const gen: Generation = {
      key,
      ready: launch(config, kind),
      started: 0,
      inFlight: 0,
      retired: false,
      slots: new Set(),
      opening: 0,
      idle: [],
    };
    generations.add(gen);
    current.set(key, gen);
    gen.ready.then(
      (launched) => launched.browser.once("disconnected", () => retire(gen)),
      () => {
        // A failed launch is not cached: the next request tries again.
        if (current.get(key) === gen) current.delete(key);
        generations.delete(gen);
      },
    );
    return gen;
  }

  function dropSlot(gen: Generation, slot: Slot): Promise<void> {
    gen.slots.delete(slot);
    return slot.close();
  }

  /**
   * Takes the most recently used idle slot of the partition that `fits`, if any. A slot whose
   * renderer died while it waited (the memory ceiling, the system's OOM killer, a crash) is
   * closed instead: its page would leave the request's commands unanswered until the timeout.
   */
  function pickIdle(gen: Generation, partition: string, fits: (slot: Slot) => boolean): Slot | undefined {
    for (let i = gen.idle.length - 1; i >= 0; i--) {
      const slot = gen.idle[i]!;
      if (slot.crashed) {
        gen.idle.splice(i, 1);
        void dropSlot(gen, slot);
      } else if (slot.partition === partition && fits(slot)) return gen.idle.splice(i, 1)[0];
    }
    return undefined;
  }

  /**
   * An idle slot of the partition: one kept for `session`, else a wiped one, else one kept for
   * another session, wiped first (cheaper than a new context); else a new one (closing an idle
   * one of another partition to make room).
   */
  async function takeSlot(gen: Generation, partition: string, session: string | undefined): Promise<Slot> {
    const kept =
      session === undefined ? undefined : pickIdle(gen, partition, (slot) => slot.owner === session);
    if (kept) return kept;
    const wiped = pickIdle(gen, partition, (slot) => slot.owner === undefined);
    if (wiped) return wiped;
    const other = pickIdle(gen, partition, () => true);
    if (other) {
      if (await other.clean()) return other;
      gen.slots.delete(other);
    }
    // Holding a turn, a browser with `limit` slots always has an idle one to give up.
    if (gen.slots.size + gen.opening >= limit && gen.idle.length > 0) void dropSlot(gen, gen.idle.shift()!);
    return addSlot(gen, partition);
  }

  /** Wipes a slot kept for `session` that its session has not asked for again in SESSION_KEEP_MS. */
  function expireKept(gen: Generation, slot: Slot, session: string): void {
    const token = (keeps.get(slot) ?? 0) + 1;
    keeps.set(slot, token);
    const timer = setTimeout(async () => {
      const at = gen.idle.indexOf(slot);
      // Lent again meanwhile (and kept anew, with a timer of its own), or wiped already.
      if (at < 0 || slot.owner !== session || keeps.get(slot) !== token) return;
      gen.idle.splice(at, 1);
      const clean = await slot.clean(quietMoment);
      if (clean && !gen.retired && !closed) gen.idle.push(slot);
      else await dropSlot(gen, slot);
    }, SESSION_KEEP_MS);
    timer.unref?.();
  }

  /** Opens a slot in the generation's browser; call while holding a turn, so the bound holds. */
  async function addSlot(gen: Generation, partition: string): Promise<Slot> {
    contextsOpened++;
    gen.opening++;
    try {
      const { browser, contextOptions, proxy, memory } = await gen.ready;
      // Without the proxy, the request filter is the only SSRF check: it must see every frame.
      const slot = await openSlot(browser, partition, onPageLoaded, {
        maxUses: contextUses,
        contextOptions,
        proxied: proxy !== undefined,
        memory,
        filterAll: !config.disableSsrfProtection && !proxy,
      });
      if (gen.closed) {
        // The pool closed meanwhile: the context must not outlive it in a connected browser.
        await slot.close();
        throw closedError();
      }
      gen.slots.add(slot);
      return slot;
    } finally {
      gen.opening--;
    }
  }

  /**
   * Opens the successor of a slot closed after a request that went well (it was worn out, or
   * the request spoiled it), at a quiet moment, so that the next request does not pay for it.
   */
  async function replaceSlot(gen: Generation, partition: string): Promise<void> {
    await quietMoment();
    if (gen.retired || closed) return;
    const slot = await addSlot(gen, partition).catch(() => undefined);
    if (!slot) return;
    if (gen.retired || closed) await dropSlot(gen, slot);
    else gen.idle.push(slot);
  }

  type Outcome<T> = ({ value: T } | { error: unknown; crashed: boolean }) & { done: Promise<void> };

  /** Runs fn on a lent page; `done` settles once the page is wiped (or closed) and counted. */
  async function runOnce<T>(
    fn: (page: Page, lease: PageLease) => Promise<T>,
    partition: string,
    session: string | undefined,
    kind: BrowserKind,
  ): Promise<Outcome<T>> {
    const gen = currentGeneration(kind);
    gen.inFlight++;
    gen.started++;
    if (gen.started >= recycleAfter) retire(gen);
    let slot: Slot | undefined;
    const finish = async (failed: boolean) => {
      // Kept for its session at once, before the caller has its answer: the session's next
      // request, often asked for right away, finds the page idle.
      if (slot && !failed && session !== undefined && !gen.retired && !closed && slot.keep(session)) {
        gen.idle.push(slot);
        expireKept(gen, slot, session);
      } else if (slot) {
        // release never throws.
        const reusable = await slot.release(failed, quietMoment);
        if (reusable && !gen.retired && !closed) gen.idle.push(slot);
        else {
          await dropSlot(gen, slot);
          if (!failed && !gen.retired && !closed) await replaceSlot(gen, partition);
        }
      }
      gen.inFlight--;
      pagesServed++;
      if (gen.retired && gen.inFlight === 0) void closeGeneration(gen);
    };
    try {
      slot = await takeSlot(gen, partition, session);
      const lease = slot.lend();
      const value = await fn(lease.page, lease);
      // The caller gets its answer now; wiping the page (tens of ms) happens behind it.
      return { value, done: finish(false) };
    } catch (error) {
      const launched = await gen.ready.catch(() => undefined);
      const crashed = launched !== undefined && !launched.browser.connected;
      await finish(true);
      return { error, crashed, done: Promise.resolve() };
    }
  }

  return {
    async withPage<T>(fn: (page: Page, lease: PageLease) => Promise<T>, options: WithPageOptions = {}) {
      const { signal, partition = DEFAULT_PARTITION, session, browser = "browser" } = options;
      if (closed) throw closedError();
      await acquireSlot(signal);
      let release: Promise<void> = Promise.resolve();
      try {
        for (let attempt = 0; ; attempt++) {
          if (closed) throw closedError();
          const outcome = await runOnce(fn, partition, session, browser);
          if ("value" in outcome) {
            // The turn stays taken until the page is wiped, so the bound holds.
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
      wakeDeferredWipes();
      for (const waiter of queue.splice(0)) waiter.reject(closedError());
      current.clear();
      await Promise.all([...generations].map(closeGeneration));
    },

    stats() {
      let inFlight = 0;
      for (const gen of generations) inFlight += gen.inFlight;
      return { launches, pagesServed, inFlight, waiting: queue.length, contextsOpened };
    },
  };
}

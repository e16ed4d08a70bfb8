import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  CDPSession,
  Page,
  Target,
} from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import { type Interceptor, type InterceptScope, interceptPage, type PausedRequest } from "./intercept.ts";
import type { RendererWatch } from "./memory.ts";
import { isMainNavigation } from "./settle.ts";
import { settledWithin } from "./timeouts.ts";

/** A wipe that takes longer means a stuck page: the slot is closed instead. */
const WIPE_TIMEOUT_MS = 5_000;
/**
 * Opening a context and its page takes 50-300 ms, a few seconds on a loaded machine. A renderer
 * that dies while puppeteer sets the page up leaves its commands unanswered until the protocol
 * timeout (the fetch timeout plus 10 s): past this, the browser is not going to give the page.
 */
const OPEN_TIMEOUT_MS = 10_000;
/** Page events a request may listen to; one it leaves a listener on is not lent again. */
const REQUEST_EVENTS = [
  "request",
  "response",
  "requestfinished",
  "requestfailed",
  "requestservedfromcache",
  "load",
  "domcontentloaded",
  "framenavigated",
  "frameattached",
  "framedetached",
  "console",
  "dialog",
  "popup",
  "pageerror",
  "error",
  "workercreated",
  "workerdestroyed",
  "metrics",
] as const;

/** Where the events puppeteer itself follows each open request with sit in REQUEST_EVENTS. */
const IN_FLIGHT_EVENTS = ["response", "requestfinished", "requestfailed"].map((event) =>
  REQUEST_EVENTS.indexOf(event as (typeof REQUEST_EVENTS)[number]),
);

/**
 * Whether a request left a listener on the page: counts per event at release above those at
 * lend. Puppeteer's page follows every open request with one listener on each of response,
 * requestfinished and requestfailed until it ends, so a request still open at release (a
 * beacon, a late image) adds one to each of the three: that much is not a leftover.
 */
export function listenersLeft(atLend: number[], atRelease: number[]): boolean {
  const over = atRelease.map((count, i) => count - (atLend[i] ?? 0));
  const open = Math.max(0, Math.min(...IN_FLIGHT_EVENTS.map((i) => over[i] ?? 0)));
  for (const i of IN_FLIGHT_EVENTS) over[i] = (over[i] ?? 0) - open;
  return over.some((extra) => extra > 0);
}

/** What one request borrows: a warm page, its context, and the slot's CDP session. */
export interface PageLease {
  page: Page;
  context: BrowserContext;
  /** A CDP session on the page, attached once for the slot's life: use it, never detach it. */
  session: CDPSession;
  /**
   * Settings earlier requests applied to this page (name -> value), so a request sends only the
   * ones that differ. Whoever changes a setting through `session` keeps its entry right.
   */
  applied: Map<string, string>;
  /** Every connection of the page goes through siphon's SSRF proxy, which checks it. */
  proxied: boolean;
  /** The memory ceiling of the browser's renderers, when siphon launched it (see memory.ts). */
  memory?: RendererWatch;
  /**
   * The page's renderer died (killed at the memory ceiling or by the system, or crashed): it
   * answers nothing more, and the page "error" event that says so may have come before the lease.
   */
  readonly crashed: boolean;
  /**
   * Hands the requests in `scope` the page makes during this lease to `handler`, which must
   * continue or abort each; the others go out untouched. A slot whose requests are the only
   * SSRF check (see openSlot's `filterAll`) holds every request of every frame whatever the
   * scope. The scope stays with the slot (changing it costs the browser some work): until a
   * lease sets one, every request is held and continued; once a lease ends, those held are
   * aborted.
   */
  interceptRequests(handler: (request: PausedRequest) => void, scope: InterceptScope): Promise<void>;
}

/**
 * An incognito context with one page, lent to one request at a time and wiped in between: the
 * unit of reuse of the browser pool.
 */
export interface Slot {
  readonly partition: string;
  /** True from lend() or a main-frame navigation request of the page to its next load event. */
  readonly loading: boolean;
  /**
   * The page's renderer died, lent or not (see PageLease.crashed): the slot is never lent again,
   * only closed. A crashed page takes CDP commands and never answers some of them.
   */
  readonly crashed: boolean;
  /**
   * The browsing session whose state the page holds, when it was released to be kept for it
   * (see keep); undefined when the page is wiped.
   */
  readonly owner: string | undefined;
  /** Lends the page to a request; call release() when it is done. */
  lend(): PageLease;
  /**
   * Ends the lease and makes the page safe for the next request: navigates it to about:blank
   * (the previous site's scripts stop), then clears every cookie, the HTTP cache, the history
   * and every kind of storage (local, session, IndexedDB, Cache Storage, service workers...) of
   * each origin a frame of the page navigated to (the only origins that can hold any). Closes the slot instead when the request failed,
   * the slot reached its most uses, the request opened another page, loaded a cross-origin
   * frame (its partitioned storage cannot be named for clearing), left a listener on the page,
   * or the wipe fails. The page's held requests (see interceptRequests) are refused from the
   * call on, the others go out until the page has left (its scripts stop); the wipe starts once
   * `beforeWipe` resolves. Permission answers need no wipe: preparePage keeps any from being
   * remembered. Never throws.
   * @returns true when the slot can be lent again
   */
  release(failed: boolean, beforeWipe?: () => Promise<void>): Promise<boolean>;
  /**
   * Ends the lease without a wipe when the page may be lent again (as release judges it): it
   * stays where it is, its state kept for `session`'s next request (see `owner`) until clean()
   * wipes it. At once, so the pool has the page idle before the caller has its answer.
   * @returns false (and nothing changed) when the page must be released instead
   */
  keep(session: string): boolean;
  /**
   * Wipes a page kept for a session (as release does) so that any request may have it. Never
   * throws; closes the slot when the wipe fails.
   * @returns true when the slot can be lent again
   */
  clean(beforeWipe?: () => Promise<void>): Promise<boolean>;
  /** Closes the context and its page; idempotent, never throws. */
  close(): Promise<void>;
}

function originOf(url: string): string | undefined {
  try {
    const { protocol, origin } = new URL(url);
    return protocol === "http:" || protocol === "https:" ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** How a slot is opened. */
export interface SlotOptions {
  /** Requests it serves before its context is closed and a new one opened (SIPHON_BROWSER_CONTEXT_USES). */
  maxUses: number;
  /** How the context is opened: the SSRF proxy of a connected browser (LaunchedBrowser.contextOptions). */
  contextOptions?: BrowserContextOptions;
  /** Every connection of the page goes through siphon's SSRF proxy (PageLease.proxied). */
  proxied: boolean;
  /** PageLease.memory. */
  memory?: RendererWatch;
  /**
   * Hold every request of every frame (see interceptPage's `everyFrame`): the request filter is
   * the only SSRF check of a browser that is not behind the proxy.
   */
  filterAll: boolean;
}

/** The page of a new slot, set up (its interception calls `onPaused`). */
async function openPage(
  context: BrowserContext,
  filterAll: boolean,
  onPaused: (request: PausedRequest) => void,
): Promise<{ page: Page; session: CDPSession; interceptor: Interceptor }> {
  const page = await context.newPage();
  const session = await page.createCDPSession();
  const interceptor = await interceptPage(page, session, filterAll, onPaused);
  return { page, session, interceptor };
}

/**
 * Opens a slot in `browser`: a new incognito context and page, with request interception on.
 * `partition` names the kind of request it may serve (see BrowserPool.withPage); `onLoaded` is
 * called whenever the page stops loading.
 * @throws SiphonError browser_unavailable when the browser does not give a working page within
 *   OPEN_TIMEOUT_MS, or cannot set it up (crashed, closed); what puppeteer throws when it cannot
 *   open a context
 */
export async function openSlot(
  browser: Browser,
  partition: string,
  onLoaded: () => void,
  options: SlotOptions,
): Promise<Slot> {
  const { maxUses, contextOptions, proxied, memory, filterAll } = options;
  const context = await browser.createBrowserContext(contextOptions);
  let lent = false;
  let handler: ((request: PausedRequest) => void) | undefined;
  let page: Page;
  let session: CDPSession;
  let interceptor: Interceptor;
  const opening = openPage(context, filterAll, (request) => {
    if (!lent) request.abort();
    else if (handler) handler(request);
    else request.continue();
  });
  try {
    ({ page, session, interceptor } = await settledWithin(opening, OPEN_TIMEOUT_MS, "opening a page"));
  } catch (error) {
    // Closing the context also ends the calls still waiting for an answer.
    await context.close().catch(() => {});
    throw new SiphonError("browser_unavailable", "The browser could not open a page; try again.", {
      cause: error,
    });
  }
  const applied = new Map<string, string>();
  /**
   * Origins a frame of the page navigated to since the last wipe: whose storage the wipe
   * clears. Local storage, IndexedDB, Cache Storage, service workers and file systems are only
   * ever written by a document (or a worker of its own origin), so an origin the page only
   * fetched subresources from holds none; its cookies and cached responses go with the
   * context-wide clears. A typical page fetches from 10-40 origins and each clear costs the
   * browser about 5 ms of CPU, more than the rest of the wipe together.
   */
  const origins = new Set<string>();
  let uses = 0;
  let lease = 0;
  /** Why the slot must not be lent again, once something happened that a wipe cannot undo. */
  let spoiled: string | undefined;
  let listenersAtLend: number[] = [];
  let closing: Promise<void> | undefined;
  let loading = false;
  let owner: string | undefined;
  let crashed = false;
  const loaded = () => {
    if (!loading) return;
    loading = false;
    onLoaded();
  };

  page.on("request", (request) => {
    if (isMainNavigation(page, request)) loading = true;
    if (!request.isNavigationRequest()) return;
    const origin = originOf(request.url());
    if (origin) {
      origins.add(origin);
      // A cross-origin frame stores under a partitioned key (frame origin + top-level site)
      // that Storage.clearDataForOrigin does not reach: only closing the context clears it.
      const frame = request.frame();
      if (frame && frame !== page.mainFrame() && origin !== originOf(page.mainFrame().url())) {
        spoiled = "cross-origin frame";
      }
    }
  });
  page.on("load", loaded);
  page.on("requestfailed", (request) => {
    // A failed main-frame navigation never fires load.
    if (isMainNavigation(page, request)) loaded();
  });
  page.on("close", loaded);
  // Puppeteer's page "error" is Inspector.targetCrashed: the renderer is gone, whoever held it.
  page.on("error", () => {
    crashed = true;
    spoiled = "its renderer crashed";
  });
  // An unanswered dialog blocks the page's scripts; leaving a page must never be refused.
  page.on("dialog", (dialog) => {
    void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()).catch(() => {});
  });
  const onTarget = (target: Target) => {
    if (target.type() === "page" && target !== page.target()) spoiled = "another page was opened";
  };
  context.on("targetcreated", onTarget);

  const listenerCounts = () => REQUEST_EVENTS.map((event) => page.listenerCount(event));

  async function toBlank(): Promise<void> {
    if (page.url() === "about:blank") return;
    // Navigating from inside the page keeps its renderer process; page.goto("about:blank")
    // would move the tab to a new one (a renderer start, the very cost slots exist to save).
    const left = page.waitForNavigation({ waitUntil: "load", timeout: WIPE_TIMEOUT_MS });
    left.catch(() => {});
    await page.evaluate(() => location.replace("about:blank")).catch(() => {});
    await left;
    if (page.url() !== "about:blank") throw new Error(`the page stayed on ${page.url()}`);
  }

  async function wipe(): Promise<void> {
    await toBlank();
    const cleared = [...origins];
    origins.clear();
    await Promise.all([
      session.send("Network.clearBrowserCookies"),
      session.send("Network.clearBrowserCache"),
      session.send("Page.resetNavigationHistory"),
      ...cleared.map((origin) => session.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" })),
    ]);
  }

  const endLease = () => {
    lent = false;
    handler = undefined;
    loaded();
  };
  /** Whether the page may serve another request: nothing happened to it that a wipe cannot undo. */
  const reusable = () =>
    !spoiled && !listenersLeft(listenersAtLend, listenerCounts()) && uses < maxUses && !page.isClosed();

  /** Wipes the page; closes the slot instead when that fails or the page got spoiled meanwhile. */
  async function wipeOrClose(beforeWipe?: () => Promise<void>): Promise<boolean> {
    try {
      await beforeWipe?.();
      await settledWithin(wipe(), WIPE_TIMEOUT_MS, "wiping the page");
      // A page opened or a frame loaded while the old page was still being left.
      if (spoiled) throw new Error(spoiled);
      owner = undefined;
      return true;
    } catch {
      await slot.close();
      return false;
    }
  }

  const slot: Slot = {
    partition,
    get loading() {
      return loading;
    },
    get owner() {
      return owner;
    },
    get crashed() {
      return crashed;
    },
    lend() {
      uses++;
      lent = true;
      // The borrower is about to navigate: count it as loading already.
      loading = true;
      handler = undefined;
      listenersAtLend = listenerCounts();
      const id = ++lease;
      return {
        page,
        context,
        session,
        applied,
        proxied,
        memory,
        get crashed() {
          return crashed;
        },
        async interceptRequests(next, scope) {
          if (id !== lease || !lent) return;
          handler = next;
          await interceptor.scope(scope);
        },
      };
    },

    async release(failed, beforeWipe) {
      endLease();
      if (failed || !reusable()) {
        await slot.close();
        return false;
      }
      return wipeOrClose(beforeWipe);
    },

    keep(session) {
      if (!reusable()) return false;
      endLease();
      owner = session;
      return true;
    },

    async clean(beforeWipe) {
      if (owner === undefined) return !page.isClosed();
      if (spoiled || page.isClosed()) {
        await slot.close();
        return false;
      }
      return wipeOrClose(beforeWipe);
    },

    close() {
      closing ??= (async () => {
        lent = false;
        loaded();
        context.off("targetcreated", onTarget);
        await context.close().catch(() => {});
      })();
      return closing;
    },
  };
  return slot;
}

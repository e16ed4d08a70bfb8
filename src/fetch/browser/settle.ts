import type { HTTPRequest, Page } from "puppeteer-core";

/** How long the DOM must stay unchanged after a change before a page counts as rendered. */
const DOM_QUIET_MS = 30;
/**
 * How long a page that has not changed yet gets to start: frameworks render a tick after load
 * (a short timer, a first fetch), and a 30 ms window alone would end before a 50 ms timer.
 */
const FIRST_CHANGE_MS = 60;

/** Whether `request` navigates the page's main frame (not a frame inside it). */
export function isMainNavigation(page: Page, request: HTTPRequest): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame();
}

/** Tracks main-frame navigations and open requests of a page, to tell when it has settled. */
export interface ActivityTracker {
  /** Requests sent and not yet answered (blocked ones never count). */
  readonly pending: number;
  /** True between a main-frame navigation request and that document's load event. */
  readonly navigating: boolean;
  /** Resolves at the next main-frame load event, or after `ms`. */
  nextLoad(ms: number): Promise<void>;
  /** Resolves true when a main-frame navigation starts (or is under way), false after `ms`. */
  nextNavigation(ms: number): Promise<boolean>;
  /** Stops listening. */
  dispose(): void;
}

/** Starts tracking `page`; call before navigating. */
export function trackActivity(page: Page): ActivityTracker {
  const open = new Set<HTTPRequest>();
  let navigating = false;
  let loadWaiters: (() => void)[] = [];
  let navigationWaiters: (() => void)[] = [];
  const onRequest = (request: HTTPRequest) => {
    open.add(request);
    if (isMainNavigation(page, request)) {
      navigating = true;
      for (const wake of navigationWaiters.splice(0)) wake();
    }
  };
  const onDone = (request: HTTPRequest) => {
    open.delete(request);
    // A failed or aborted main navigation will never fire load.
    if (isMainNavigation(page, request) && request.failure()) navigating = false;
  };
  const onLoad = () => {
    navigating = false;
    for (const wake of loadWaiters.splice(0)) wake();
  };
  page.on("request", onRequest);
  page.on("requestfinished", onDone);
  page.on("requestfailed", onDone);
  page.on("load", onLoad);
  return {
    get pending() {
      return open.size;
    },
    get navigating() {
      return navigating;
    },
    nextLoad(ms) {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        loadWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    nextNavigation(ms) {
      if (navigating) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), Math.max(0, ms));
        navigationWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    dispose() {
      page.off("request", onRequest);
      page.off("requestfinished", onDone);
      page.off("requestfailed", onDone);
      page.off("load", onLoad);
      loadWaiters = [];
      navigationWaiters = [];
    },
  };
}

/**
 * Runs in the page: resolves once `firstMs` have passed and no node or text changed for the
 * last `quietMs`, or after `maxMs`.
 */
function domQuiet(quietMs: number, firstMs: number, maxMs: number): Promise<void> {
  // Without a script nothing can change the document after load: no need to watch it.
  if (document.scripts.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const first = performance.now() + firstMs;
    const finish = () => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(cap);
      resolve();
    };
    let quiet = setTimeout(finish, firstMs);
    const cap = setTimeout(finish, maxMs);
    const observer = new MutationObserver(() => {
      clearTimeout(quiet);
      quiet = setTimeout(finish, Math.max(quietMs, first - performance.now()));
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Waits, best effort, until the page has rendered: no main-frame navigation under way (a
 * script-driven reload such as a JS challenge), no request open, and the DOM unchanged for
 * DOM_QUIET_MS after its last change (FIRST_CHANGE_MS when it does not change at all).
 * Never throws; returns by `deadline` (epoch ms) at the latest.
 */
export async function settle(page: Page, tracker: ActivityTracker, deadline: number): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const left = deadline - Date.now();
    if (left <= 0 || page.isClosed()) return;
    if (tracker.navigating) {
      await tracker.nextLoad(left);
      continue;
    }
    if (tracker.pending > 0) {
      await page.waitForNetworkIdle({ idleTime: 30, timeout: left, concurrency: 0 }).catch(() => {});
      continue;
    }
    try {
      await page.evaluate(domQuiet, DOM_QUIET_MS, FIRST_CHANGE_MS, Math.max(0, left));
    } catch {
      // The document was replaced mid-wait (navigation): go round again and wait for it.
      continue;
    }
    if (!tracker.navigating && tracker.pending === 0) return;
  }
}

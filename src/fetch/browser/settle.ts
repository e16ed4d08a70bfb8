import type { HTTPRequest, Page } from "puppeteer-core";

/**
 * Requests that never end by design, or whose end says nothing about the page being drawn:
 * server-sent event streams, WebSockets, beacons (sendBeacon, <a ping>), prefetches. They never
 * hold a page back.
 */
const NEVER_HOLDING = new Set([
  "eventsource",
  "websocket",
  "ping",
  "prefetch",
  "signedexchange",
  "cspviolationreport",
]);
/**
 * A request open longer than this stops holding the page: long polls, and streams that Chromium
 * reports as ordinary fetches, look exactly like a slow call. An app whose content waits on a
 * slow call still looks unfinished (an empty root, a spinner), and readiness waits for that
 * separately, up to its own cap.
 */
export const LONG_REQUEST_MS = 500;

/** The browser's own request for a site icon after load: nothing the page waits for. */
export function isFaviconRequest(resourceType: string, url: string): boolean {
  return resourceType === "other" && /\/favicon\.ico$/i.test(url.split("?")[0] ?? "");
}

/** isFaviconRequest for a puppeteer request. */
export function isFavicon(request: HTTPRequest): boolean {
  return isFaviconRequest(request.resourceType(), request.url());
}

/** Whether `request` navigates the page's main frame (not a frame inside it). */
export function isMainNavigation(page: Page, request: HTTPRequest): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame();
}

/** Tracks main-frame navigations and open requests of a page, to tell when it has settled. */
export interface ActivityTracker {
  /** Requests that hold the page (see NEVER_HOLDING, LONG_REQUEST_MS) sent and not yet answered. */
  readonly pending: number;
  /** True between a main-frame navigation request and that document's load event. */
  readonly navigating: boolean;
  /** When a holding request last started or ended (epoch ms); 0 before any. */
  readonly lastActivity: number;
  /** Resolves at the next main-frame load event, or after `ms`. */
  nextLoad(ms: number): Promise<void>;
  /** Resolves true when a main-frame navigation starts (or is under way), false after `ms`. */
  nextNavigation(ms: number): Promise<boolean>;
  /**
   * Resolves once no holding request has been open for `quietMs`, a navigation starts, or at
   * `until` (epoch ms), whichever comes first.
   */
  networkQuiet(quietMs: number, until: number): Promise<void>;
  /** Stops listening. */
  dispose(): void;
}

/** Starts tracking `page`; call before navigating. */
export function trackActivity(page: Page): ActivityTracker {
  /** Open holding requests and when each started. */
  const open = new Map<HTTPRequest, number>();
  let navigating = false;
  let lastActivity = 0;
  let loadWaiters: (() => void)[] = [];
  let navigationWaiters: (() => void)[] = [];
  const activityWaiters: (() => void)[] = [];
  const touched = () => {
    lastActivity = Date.now();
    for (const wake of activityWaiters.splice(0)) wake();
  };
  const holding = (now: number) => {
    let count = 0;
    for (const started of open.values()) if (now - started < LONG_REQUEST_MS) count++;
    return count;
  };
  const onRequest = (request: HTTPRequest) => {
    if (isMainNavigation(page, request)) {
      navigating = true;
      for (const wake of navigationWaiters.splice(0)) wake();
    }
    if (NEVER_HOLDING.has(request.resourceType()) || isFavicon(request)) return;
    open.set(request, Date.now());
    touched();
  };
  const onDone = (request: HTTPRequest) => {
    // A failed or aborted main navigation will never fire load.
    if (isMainNavigation(page, request) && request.failure()) navigating = false;
    if (open.delete(request)) touched();
  };
  const onLoad = () => {
    navigating = false;
    for (const wake of loadWaiters.splice(0)) wake();
    // Wake network waiters too: a navigation they stopped for is over.
    for (const wake of activityWaiters.splice(0)) wake();
  };
  page.on("request", onRequest);
  page.on("requestfinished", onDone);
  page.on("requestfailed", onDone);
  page.on("load", onLoad);

  /** Resolves at the next request start or end (or load), or after `ms`. */
  const nextActivity = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      activityWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  return {
    get pending() {
      return holding(Date.now());
    },
    get navigating() {
      return navigating;
    },
    get lastActivity() {
      return lastActivity;
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
    async networkQuiet(quietMs, until) {
      for (;;) {
        const now = Date.now();
        if (now >= until || navigating || page.isClosed()) return;
        let wakeAt = Math.min(until, lastActivity + quietMs);
        if (holding(now) > 0) {
          // Wake when a request ends, or when the oldest one still holding turns long.
          let oldest = now;
          for (const started of open.values())
            if (now - started < LONG_REQUEST_MS) oldest = Math.min(oldest, started);
          wakeAt = Math.min(until, oldest + LONG_REQUEST_MS);
        } else if (now >= wakeAt) {
          return;
        }
        await nextActivity(wakeAt - now);
      }
    },
    dispose() {
      page.off("request", onRequest);
      page.off("requestfinished", onDone);
      page.off("requestfailed", onDone);
      page.off("load", onLoad);
      loadWaiters = [];
      navigationWaiters = [];
      for (const wake of activityWaiters.splice(0)) wake();
    },
  };
}

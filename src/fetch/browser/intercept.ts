import type { CDPSession, HTTPRequest, Page, Protocol } from "puppeteer-core";
import { isMainNavigation } from "./settle.ts";

/** One request of a page, held until it is continued or aborted. */
export interface PausedRequest {
  readonly url: string;
  /** Chromium's resource type in lower case ("document", "image", "xhr", ...). */
  readonly resourceType: string;
  /** The page's own document: the first request of a navigation of the main frame, or a redirect hop of it. */
  readonly mainDocument: boolean;
  /** Header names in lower case. */
  readonly headers: Record<string, string>;
  /** Sends the request, with `headers` in place of its own when given. Never throws. */
  continue(headers?: Record<string, string>): void;
  /** Refuses the request (the page sees a blocked-by-client failure). Never throws. */
  abort(): void;
}

/**
 * Which requests are held for a verdict; the others go out untouched, at no cost. Types are
 * Chromium's resource types in lower case; `favicon` adds the browser's own site-icon request.
 */
export type InterceptScope = "all" | { types: string[]; favicon: boolean };

/** The request interception of one page. */
export interface Interceptor {
  /** Holds the requests in `scope` from now on (a request already sent is not recalled); no call when it is the scope already. */
  scope(scope: InterceptScope): Promise<void>;
}

/** CDP's name of a resource type: "xhr" -> "XHR", "image" -> "Image". */
function cdpType(type: string): string {
  const upper: Record<string, string> = {
    xhr: "XHR",
    cspviolationreport: "CSPViolationReport",
    fedcm: "FedCM",
  };
  return upper[type] ?? `${type[0]?.toUpperCase() ?? ""}${type.slice(1)}`;
}

function fetchPatterns(scope: InterceptScope): Protocol.Fetch.RequestPattern[] {
  if (scope === "all") return [{ urlPattern: "*" }];
  const patterns: Protocol.Fetch.RequestPattern[] = scope.types.map((type) => ({
    urlPattern: "*",
    resourceType: cdpType(type) as Protocol.Network.ResourceType,
  }));
  if (scope.favicon) patterns.push({ urlPattern: "*/favicon.ico" });
  return patterns;
}

/**
 * Starts intercepting the requests of `page`, each held one handed to `onPaused`.
 *
 * - `everyFrame` (puppeteer's request interception): every request of every frame, including
 *   cross-site frames in processes of their own, is held; `scope` changes nothing. For a page
 *   whose requests are the only SSRF check there is (a connected browser that cannot reach
 *   siphon's proxy).
 * - otherwise (the Fetch domain on the slot's own session, with patterns): only the requests
 *   in the scope are held, so the scripts, styles and API calls of a page go out without a
 *   round trip through siphon each. Cross-site frames' requests are not seen; the browser's
 *   SSRF proxy guards every connection, and such a frame spoils the slot anyway.
 */
export async function interceptPage(
  page: Page,
  session: CDPSession,
  everyFrame: boolean,
  onPaused: (request: PausedRequest) => void,
): Promise<Interceptor> {
  if (everyFrame) {
    await page.setRequestInterception(true);
    page.on("request", (request: HTTPRequest) => onPaused(fromPuppeteer(page, request)));
    return { scope: async () => {} };
  }
  const tree = await session.send("Page.getFrameTree");
  // The main frame keeps its id for the life of the page, across navigations and processes.
  const mainFrame = tree.frameTree.frame.id;
  session.on("Fetch.requestPaused", (event: Protocol.Fetch.RequestPausedEvent) => {
    onPaused(fromFetch(session, event, mainFrame));
  });
  let current = JSON.stringify(fetchPatterns("all"));
  await session.send("Fetch.enable", { patterns: fetchPatterns("all") });
  return {
    async scope(scope) {
      // Changing the patterns costs the browser more than a request's round trip: only on change.
      const patterns = fetchPatterns(scope);
      const key = JSON.stringify(patterns);
      if (key === current) return;
      current = key;
      await session.send("Fetch.enable", { patterns });
    },
  };
}

function fromPuppeteer(page: Page, request: HTTPRequest): PausedRequest {
  return {
    url: request.url(),
    resourceType: request.resourceType(),
    mainDocument: isMainNavigation(page, request),
    headers: request.headers(),
    continue(headers) {
      void request.continue(headers ? { headers } : undefined).catch(() => {});
    },
    abort() {
      void request.abort("blockedbyclient").catch(() => {});
    },
  };
}

function fromFetch(
  session: CDPSession,
  event: Protocol.Fetch.RequestPausedEvent,
  mainFrame: string,
): PausedRequest {
  const { requestId } = event;
  return {
    url: event.request.url + (event.request.urlFragment ?? ""),
    resourceType: event.resourceType.toLowerCase(),
    mainDocument: event.resourceType === "Document" && event.frameId === mainFrame,
    headers: Object.fromEntries(
      Object.entries(event.request.headers).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    continue(headers) {
      const params: Protocol.Fetch.ContinueRequestRequest = { requestId };
      if (headers) params.headers = Object.entries(headers).map(([name, value]) => ({ name, value }));
      void session.send("Fetch.continueRequest", params).catch(() => {});
    },
    abort() {
      void session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }).catch(() => {});
    },
  };
}

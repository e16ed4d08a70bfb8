import type { HTTPRequest, Page } from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import type { SsrfGuard } from "../ssrf.ts";
import { isFavicon, isMainNavigation } from "./settle.ts";

/** What the request filter of one page enforces. */
export interface RequestRules {
  /** Checks every http(s) request's host; undefined when SSRF protection is off. */
  guard?: SsrfGuard;
  /** Origin of the requested URL: custom headers go to it only, like credentials on a redirect. */
  origin: string;
  /** Caller headers (lower-case names) for requests to `origin`. */
  headers: Record<string, string>;
  /** Load images (a capture is wanted); fonts and media are never loaded. */
  images: boolean;
  signal?: AbortSignal;
}

/** The request filter of one fetch. */
export interface RequestFilter {
  /** Continues or aborts one intercepted request of the page (see PageLease.interceptRequests). */
  handle(request: HTTPRequest): void;
  /** Why the SSRF guard refused a main-frame document (the page or a redirect hop), if it did. */
  documentRefusal(): SiphonError | undefined;
}

/** Resource types nobody reads from a rendered page, blocked to save time and bandwidth. */
const ALWAYS_BLOCKED = new Set(["font", "media"]);
/** Schemes that never reach the network: nothing to guard. */
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

function hostKey(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * The request filter of one fetch on `page` (whose requests are intercepted): aborts fonts,
 * media and (unless wanted) images, refuses every request (document, redirect hop, frame,
 * subresource) whose host the SSRF guard refuses, and adds the caller's headers to same-origin
 * requests. Verdicts are cached per host for the filter's lifetime (one fetch). The filter
 * resolves names but never connects; behind the browser's SSRF proxy (see launchBrowser), the
 * proxy checks each connection again and pins it to the address it checked, so this early
 * verdict, which makes a refused page a clear forbidden_url, leaves no window for rebinding.
 */
export function guardRequests(page: Page, rules: RequestRules): RequestFilter {
  const verdicts = new Map<string, Promise<SiphonError | undefined>>();
  const hasHeaders = Object.keys(rules.headers).length > 0;
  let refusedDocument: SiphonError | undefined;

  function verdict(url: URL): Promise<SiphonError | undefined> {
    const key = hostKey(url);
    let found = verdicts.get(key);
    if (!found) {
      const guard = rules.guard;
      found = guard
        ? guard.check(url, rules.signal).then(
            () => undefined,
            (error: unknown) =>
              error instanceof SiphonError
                ? error
                : new SiphonError("forbidden_url", `${url.host} could not be checked and was not fetched.`),
          )
        : Promise.resolve(undefined);
      verdicts.set(key, found);
    }
    return found;
  }

  async function decide(request: HTTPRequest): Promise<void> {
    if (
      ALWAYS_BLOCKED.has(request.resourceType()) ||
      (!rules.images && request.resourceType() === "image") ||
      isFavicon(request)
    ) {
      return request.abort("blockedbyclient");
    }
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      return request.abort("blockedbyclient");
    }
    if (LOCAL_SCHEMES.has(url.protocol)) return request.continue();
    // file:, ftp:, chrome: and the like would read the server's own machine.
    if (url.protocol !== "http:" && url.protocol !== "https:") return request.abort("blockedbyclient");
    const refused = await verdict(url);
    if (refused) {
      if (isMainNavigation(page, request)) refusedDocument = refused;
      return request.abort("blockedbyclient");
    }
    if (hasHeaders && url.origin === rules.origin) {
      return request.continue({ headers: { ...request.headers(), ...rules.headers } });
    }
    return request.continue();
  }

  return {
    handle(request) {
      // The page may close (timeout) while a verdict is pending; its request is gone with it.
      decide(request).catch(() => {});
    },
    documentRefusal: () => refusedDocument,
  };
}

import { SiphonError } from "../../errors.ts";
import type { SsrfGuard } from "../ssrf.ts";
import type { InterceptScope, PausedRequest } from "./intercept.ts";
import { isFaviconRequest } from "./settle.ts";

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
  /** The requests the filter has anything to decide about: the rest need no round trip. */
  readonly scope: InterceptScope;
  /** Continues or aborts one intercepted request of the page (see PageLease.interceptRequests). */
  handle(request: PausedRequest): void;
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
 * The request filter of one fetch: aborts fonts, media, the site icon and (unless wanted)
 * images, refuses every request (document, redirect hop, frame, subresource) whose host the
 * SSRF guard refuses and every one that is not http(s) or local (file:, ftp:, chrome:...), and
 * adds the caller's headers to same-origin requests. Verdicts are cached per host for the
 * filter's lifetime (one fetch). The filter resolves names but never connects; behind the
 * browser's SSRF proxy (see launchBrowser), the proxy checks each connection again and pins it
 * to the address it checked, so this early verdict, which makes a refused page a clear
 * forbidden_url, leaves no window for rebinding.
 *
 * Its `scope` is what it needs to see: documents (every frame's, for the scheme and SSRF
 * verdicts) and the types it blocks; everything when there are headers to add. Scripts, styles
 * and API calls then go out without a round trip each, checked by the proxy alone. A slot
 * without the proxy shows the filter every request whatever its scope (see openSlot).
 */
export function guardRequests(rules: RequestRules): RequestFilter {
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

  async function decide(request: PausedRequest): Promise<void> {
    const type = request.resourceType;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return request.abort();
    }
    if (
      ALWAYS_BLOCKED.has(type) ||
      (!rules.images && type === "image") ||
      isFaviconRequest(type, request.url)
    ) {
      return request.abort();
    }
    if (LOCAL_SCHEMES.has(url.protocol)) return request.continue();
    // file:, ftp:, chrome: and the like would read the server's own machine.
    if (url.protocol !== "http:" && url.protocol !== "https:") return request.abort();
    const refused = await verdict(url);
    if (refused) {
      if (request.mainDocument) refusedDocument = refused;
      return request.abort();
    }
    if (hasHeaders && url.origin === rules.origin) {
      return request.continue({ ...request.headers, ...rules.headers });
    }
    return request.continue();
  }

  const types = ["document", "font", "media"];
  if (!rules.images) types.push("image");

  return {
    scope: hasHeaders ? "all" : { types, favicon: true },
    handle(request) {
      // The page may close (timeout) while a verdict is pending; its request is gone with it.
      decide(request).catch(() => {});
    },
    documentRefusal: () => refusedDocument,
  };
}

import type { HTTPResponse, Page } from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import type { RendererWatch } from "./memory.ts";
import { proxyAnswerError } from "./proxy.ts";

/** A crash this soon after the memory watch stopped a renderer is that stop. */
const STOP_ATTRIBUTION_MS = 2_000;

/** Chromium's net::ERR_* codes a user can act on, and what to tell them. */
function describeNetError(code: string, url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (code === "NAME_NOT_RESOLVED" || code === "NAME_RESOLUTION_FAILED") {
    return `Could not resolve host ${url.hostname}; check the spelling of the domain.`;
  }
  if (code === "CONNECTION_REFUSED") {
    return `${url.hostname} refused the connection on port ${port}; the site may be down.`;
  }
  if (code.startsWith("CERT_") || code.startsWith("SSL_") || code.includes("TLS")) {
    return `TLS with ${url.hostname} failed (${code}): its certificate is invalid, expired or for another name.`;
  }
  if (code === "CONNECTION_RESET" || code === "CONNECTION_CLOSED" || code === "EMPTY_RESPONSE") {
    return `The connection to ${url.hostname} was closed before the page was received; try again.`;
  }
  if (code === "TOO_MANY_REDIRECTS") return `Too many redirects: ${url.href} does not settle on a page.`;
  if (code === "ABORTED") {
    return `The browser stopped loading ${url.href} (net::ERR_ABORTED); it may be a download rather than a page.`;
  }
  return `Loading ${url.href} failed (net::ERR_${code}); the site may be down or unreachable.`;
}

/**
 * What puppeteer says when the page, its renderer or the browser went away under a call: the
 * target or session closed, the page closed or crashed, a frame or execution context vanished
 * (a renderer swapped or killed mid-call), a navigation's watcher ended with its page.
 */
const BROWSER_GONE = new RegExp(
  [
    "Target closed",
    "Target crashed",
    "Session closed",
    "Connection closed",
    "browser has disconnected",
    "detached",
    "Page closed",
    "Page crashed",
    "No target with given id",
    "Missing target for page",
    "Failed to create a page",
    "main frame too early",
    "Cannot find context with specified id",
    "Execution context was destroyed",
    "JSHandle is disposed",
    "LifecycleWatcher",
  ].join("|"),
  "i",
);
/** Errors of the protocol itself (a command refused, or never answered: see protocolTimeout). */
const PROTOCOL_ERRORS = new Set(["ProtocolError", "TargetCloseError", "ConnectionClosedError"]);

/**
 * Maps what page.goto (or the pool) threw to a SiphonError: SiphonErrors pass through, a
 * request refused by the SSRF guard is its forbidden_url, net::ERR_* is network_error, a
 * navigation timeout is timeout; a browser that went away, or a protocol error (a command the
 * browser refused or never answered), is browser_unavailable. Anything else is returned
 * unchanged (the edge reports it as internal_error: a fault of ours, not of the browser).
 */
export function navigationError(error: unknown, url: URL, refusal: SiphonError | undefined): unknown {
  if (error instanceof SiphonError) return error;
  const message = String((error as Error | null)?.message ?? "");
  const name = String((error as Error | null)?.name ?? "");
  const net = /net::ERR_([A-Z0-9_]+)/.exec(message);
  if (net?.[1] === "BLOCKED_BY_CLIENT" && refusal) return refusal;
  if (net) return new SiphonError("network_error", describeNetError(net[1]!, url), { cause: error });
  if (name === "TimeoutError") {
    return new SiphonError("timeout", `${url.href} did not finish loading in time.`, { cause: error });
  }
  if (PROTOCOL_ERRORS.has(name) && /timed out/i.test(message)) {
    return new SiphonError(
      "browser_unavailable",
      `The browser stopped answering while rendering ${url.href}; try again.`,
      { cause: error },
    );
  }
  if (PROTOCOL_ERRORS.has(name) || BROWSER_GONE.test(message)) {
    return new SiphonError(
      "browser_unavailable",
      `The browser lost the page while rendering ${url.href} (its renderer or the browser went away); try again.`,
      { cause: error },
    );
  }
  return error;
}

/**
 * Why the page is not where a render may be read, or undefined when it is: the SSRF guard
 * refused a main-frame document (the page, a redirect hop, a meta refresh, a script's or an
 * action's navigation) -> that forbidden_url; the proxy answered the main document itself ->
 * its error; the page ended on Chromium's error page for another reason -> network_error.
 * Never a 200 with chrome-error://chromewebdata/ as its URL.
 */
export function unfinishedNavigation(
  page: Page,
  url: URL,
  main: HTTPResponse | undefined,
  refusal: SiphonError | undefined,
): SiphonError | undefined {
  if (refusal) return refusal;
  const proxied = main && proxyAnswerError(new URL(main.url()), main.status(), main.headers());
  if (proxied) return proxied;
  if (page.url().startsWith("chrome-error:")) {
    const from = main?.url() ?? url.href;
    return new SiphonError(
      "network_error",
      `${url.href} navigated away from ${from} to a page the browser could not load; nothing was rendered.`,
      { hint: "Fetch the page it redirects to directly, or without rendering." },
    );
  }
  return undefined;
}

/**
 * The error of a page whose renderer crashed mid-render: content_too_large when the memory
 * watch stopped it for passing its ceiling, browser_unavailable otherwise (a V8 heap past the
 * same ceiling ends the same way, with nothing to tell it from another crash).
 */
export function crashError(url: URL, memory: RendererWatch | undefined): SiphonError {
  if (memory && memory.lastStop > 0 && Date.now() - memory.lastStop < STOP_ATTRIBUTION_MS) {
    return new SiphonError(
      "content_too_large",
      `Rendering ${url.href} took more than the ${memory.ceilingMiB} MiB of memory a page may use; the render was stopped.`,
      {
        hint: "Fetch the page without rendering, or raise SIPHON_BROWSER_RENDERER_MEMORY_MB on a self-hosted server.",
      },
    );
  }
  const ceiling = memory ? ` (often a page past the ${memory.ceilingMiB} MiB a renderer may use)` : "";
  return new SiphonError(
    "browser_unavailable",
    `The browser's renderer crashed while rendering ${url.href}${ceiling}; try again, or fetch without rendering.`,
  );
}

import type { HTTPResponse, Page } from "puppeteer-core";
import type { Config } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { createSsrfGuard, parseAllowList, type Resolver } from "../ssrf.ts";
import type { EngineFetchOptions, FetchEngine, FetchedPage } from "../types.ts";
import { parseTargetUrl } from "../url.ts";
import { madeOutputs, runActions } from "./actions.ts";
import { type ByteBudget, watchBytes } from "./budget.ts";
import { capture } from "./capture.ts";
import { openLivePage } from "./live.ts";
import { countryKey } from "./locale.ts";
import { crashError, navigationError, unfinishedNavigation } from "./navigation-error.ts";
import { preparePage } from "./page-setup.ts";
import type { BrowserPool } from "./pool.ts";
import { type Readiness, settle, waitUntilReady } from "./readiness.ts";
import { guardRequests } from "./requests.ts";
import { type ActivityTracker, isMainNavigation, trackActivity } from "./settle.ts";
import type { PageLease } from "./slot.ts";

/** Which flavour of browser engine to build. */
export interface BrowserEngineOptions {
  /** Apply the stealth evasions (engine "stealth"); otherwise only a non-headless User-Agent. */
  stealth: boolean;
  /** Replaces the system DNS resolver of the SSRF guard (tests). */
  resolver?: Resolver;
}

/** Room left after readiness to read the page (content, capture) before the fetch's deadline. */
const READ_MARGIN_MS = 1_000;
/** Cap on settling after page actions. */
const SETTLE_MAX_MS = 3_000;
/** Statuses JavaScript challenges answer with before their script sets a cookie and reloads. */
const CHALLENGE_STATUSES = new Set([403, 429, 503]);
/** How long a challenge page gets to start its reload (real ones take a few seconds). */
const CHALLENGE_WAIT_MS = 5_000;
/** The DOM is serialised as UTF-8 whatever the page was sent in. */
const REWRITTEN_HEADERS = ["content-length", "content-encoding"];

function isHtml(contentType: string | undefined): boolean {
  return !contentType || /html|xml/i.test(contentType);
}

function responseHeaders(response: HTTPResponse | undefined, serialised: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response?.headers() ?? {})) headers[name.toLowerCase()] = value;
  if (serialised) {
    for (const name of REWRITTEN_HEADERS) delete headers[name];
    const type = headers["content-type"];
    headers["content-type"] = type
      ? /charset=/i.test(type)
        ? type.replace(/charset=[^;]*/i, "charset=utf-8")
        : `${type}; charset=utf-8`
      : "text/html; charset=utf-8";
  }
  return headers;
}

/** An error status on a page that runs scripts: it may be a challenge about to reload itself. */
async function mayBeChallenge(page: Page, main: HTTPResponse | undefined): Promise<boolean> {
  if (!main || !CHALLENGE_STATUSES.has(main.status())) return false;
  return page.evaluate(() => document.scripts.length > 0).catch(() => false);
}

/** The warning of a page that never looked drawn: what it lacked and how long it was given. */
function unfinishedWarning(readiness: Readiness): string {
  return (
    `The page still looked unfinished after ${readiness.waitedMs} ms (${readiness.unfinished}); ` +
    "this is what it had drawn. Raise SIPHON_RENDER_WAIT_MAX_MS, or pass wait, for slower apps."
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Creates the Chromium engine ("browser", or "stealth" with the evasions). Pages are lent by
 * the shared pool (warm, wiped between requests; stealth pages, and those of each location, in
 * a partition of their own);
 * the SSRF guard checks the URL before navigating and every request the page makes.
 *
 * fetch() throws SiphonError: invalid_url/forbidden_url (URL rules, SSRF), timeout (the whole
 * fetch, default config.browserTimeoutMs), network_error (DNS, refused, TLS...), invalid_request
 * (an action that cannot run, naming its index), browser_unavailable (no Chromium, or it crashed
 * twice; a renderer that crashed), content_too_large (a response past config.maxBodyBytes, the
 * page past config.browserMaxPageBytes, a renderer past its memory ceiling: see budget.ts and
 * memory.ts). forbidden_url also covers any navigation of the page the guard refuses (a 30x, a
 * meta refresh, a script), never answered as the browser's error page.
 */
export function createBrowserEngine(
  config: Config,
  pool: BrowserPool,
  engineOptions: BrowserEngineOptions,
): FetchEngine {
  const kind = engineOptions.stealth ? "stealth" : "browser";
  const guard = createSsrfGuard({
    enabled: !config.disableSsrfProtection,
    allow: parseAllowList(config.ssrfAllow),
    resolver: engineOptions.resolver,
  });

  async function render(
    lease: PageLease,
    target: URL,
    options: EngineFetchOptions,
    deadline: number,
    timeoutMs: number,
    signal: AbortSignal,
    stop: (error: SiphonError) => void,
  ): Promise<FetchedPage> {
    const { page } = lease;
    // Our timeout or the caller's cancel closes the page, which ends every pending puppeteer call.
    const onAbort = () => void page.close().catch(() => {});
    signal.addEventListener("abort", onAbort, { once: true });
    // The page serves other requests after this one: everything hooked on it is taken off again.
    let tracker: ActivityTracker | undefined;
    let budget: ByteBudget | undefined;
    let main: HTTPResponse | undefined;
    // A renderer that crashed (out of memory, or stopped past the ceiling) never loads again.
    const onCrash = () => stop(crashError(target, lease.memory));
    page.on("error", onCrash);
    // Its "error" came before this listener (the pool lends no page that crashed while idle).
    if (lease.crashed) onCrash();
    const onResponse = (response: HTTPResponse) => {
      const request = response.request();
      if (isMainNavigation(page, request)) main = response;
    };
    try {
      const { viewport, custom, cleanup } = await preparePage(lease, target, options, engineOptions.stealth);
      const actions = options.actions ?? [];
      const requests = guardRequests({
        guard: config.disableSsrfProtection ? undefined : guard,
        origin: target.origin,
        headers: custom,
        images: options.screenshot !== undefined || actions.some((a) => a.type === "screenshot"),
        signal,
      });
      // A guard with no proxy behind it (another pool's browser) must see every request itself.
      const guarded = !config.disableSsrfProtection && !lease.proxied;
      await lease.interceptRequests(requests.handle, guarded ? "all" : requests.scope);
      // Counted before the first byte can arrive; past a limit the page is closed (see fetch).
      budget = await watchBytes(
        lease,
        target.href,
        { perResponse: config.maxBodyBytes, perPage: config.browserMaxPageBytes },
        stop,
      );
      tracker = trackActivity(page);
      page.on("response", onResponse);

      try {
        const first = await page.goto(target.href, {
          waitUntil: "load",
          timeout: Math.max(1, deadline - Date.now()),
        });
        main ??= first ?? undefined;
      } catch (error) {
        throw navigationError(error, target, requests.documentRefusal());
      }
      // A script or meta redirect of the loading page was refused, or the SSRF proxy refused the
      // page (its name rebound since the check) or could not reach it.
      const refused = unfinishedNavigation(page, target, main, requests.documentRefusal());
      if (refused) throw refused;
      const limits = {
        deadline: deadline - Math.min(READ_MARGIN_MS, timeoutMs / 10),
        appWaitMs: config.renderWaitMaxMs,
      };
      let readiness = await waitUntilReady(page, tracker, limits);
      // A challenge may pass in several rounds; each reload brings a new main response.
      for (let round = 0; round < 3 && (await mayBeChallenge(page, main)); round++) {
        if (!(await tracker.nextNavigation(Math.min(CHALLENGE_WAIT_MS, limits.deadline - Date.now())))) break;
        readiness = await waitUntilReady(page, tracker, limits);
      }
      if (options.wait) await sleep(Math.min(options.wait, deadline - Date.now()));
      const actionOutputs = actions.length
        ? await runActions(page, actions, { deadline, viewport, tracker, maxBytes: config.maxBodyBytes })
        : undefined;
      if (actions.length) await settle(page, tracker, Math.min(deadline, Date.now() + SETTLE_MAX_MS));
      // A meta refresh, a script or an action took the page somewhere refused or unreachable.
      const left = unfinishedNavigation(page, target, main, requests.documentRefusal());
      if (left) throw left;
      const screenshot = options.screenshot ? await capture(page, options.screenshot) : undefined;

      const contentType = main?.headers()["content-type"];
      let body: Uint8Array | undefined;
      if (main && !isHtml(contentType)) {
        // JSON, text or a feed shown by Chromium: the bytes sent beat the viewer's HTML wrapper.
        body = await main
          .buffer()
          .then((b) => new Uint8Array(b))
          .catch(() => undefined);
      }
      const serialised = body === undefined;
      body ??= new TextEncoder().encode(await page.content());
      if (body.byteLength > config.maxBodyBytes) {
        throw new SiphonError(
          "content_too_large",
          `${target.href} rendered to more than the ${config.maxBodyBytes}-byte limit.`,
          { hint: "Fetch a smaller page, or raise SIPHON_MAX_BODY_BYTES on a self-hosted server." },
        );
      }
      const result: FetchedPage = {
        url: page.url(),
        status: main?.status() ?? 200,
        headers: responseHeaders(main, serialised),
        body,
        redirects:
          main
            ?.request()
            .redirectChain()
            .map((request) => request.url()) ?? [],
      };
      if (!readiness.ready) result.warning = unfinishedWarning(readiness);
      if (screenshot) result.screenshot = screenshot;
      if (actionOutputs && madeOutputs(actionOutputs)) result.actionOutputs = actionOutputs;
      // A page whose clean-up failed is closed, which costs the pool its slot, not the caller its result.
      await cleanup().catch(() => page.close().catch(() => {}));
      return result;
    } finally {
      signal.removeEventListener("abort", onAbort);
      page.off("error", onCrash);
      budget?.dispose();
      tracker?.dispose();
      page.off("response", onResponse);
    }
  }

  return {
    name: kind,
    openLive: () => openLivePage(config, pool, guard, { stealth: engineOptions.stealth }),
    async fetch(rawUrl, options = {}) {
      const target = parseTargetUrl(rawUrl);
      const timeoutMs = options.timeoutMs ?? config.browserTimeoutMs;
      const deadline = Date.now() + timeoutMs;
      const timer = new AbortController();
      // A render past its byte limits, or whose renderer crashed, ends at once, as a timeout does.
      const limit = new AbortController();
      const handle = setTimeout(() => {
        timer.abort(
          new SiphonError("timeout", `${target.href} did not finish rendering within ${timeoutMs} ms.`, {
            hint: "The site may be slow or never finish loading; try again or with a longer timeout.",
          }),
        );
      }, timeoutMs);
      const signal = AbortSignal.any([
        timer.signal,
        limit.signal,
        ...(options.signal ? [options.signal] : []),
      ]);
      const stop = (error: SiphonError) => limit.abort(error);
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(abortReason(signal.reason));
        if (signal.aborted) fail();
        else signal.addEventListener("abort", fail, { once: true });
      });
      aborted.catch(() => {});
      try {
        await Promise.race([guard.check(target, signal), aborted]);
        const work = pool.withPage(
          (_page, lease) => render(lease, target, options, deadline, timeoutMs, signal, stop),
          {
            signal,
            // What a wipe cannot undo keeps pages apart: stealth's overrides, a location's grant.
            partition: `${kind}:${countryKey(options.location)}`,
            browser: kind,
            session: options.session,
          },
        );
        work.catch(() => {});
        return await Promise.race([work, aborted]);
      } catch (error) {
        if (signal.aborted) throw abortReason(signal.reason);
        throw navigationError(error, target, undefined);
      } finally {
        clearTimeout(handle);
      }
    },
  };
}

/** Our own timer's SiphonError, or the caller's cancel as the simple engine reports it. */
function abortReason(reason: unknown): SiphonError {
  if (reason instanceof SiphonError) return reason;
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return new SiphonError("timeout", "The fetch timed out.", { cause: reason });
  }
  return new SiphonError("network_error", "The fetch was cancelled before it finished.", { cause: reason });
}

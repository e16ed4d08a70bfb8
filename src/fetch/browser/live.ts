import type { HTTPResponse, Page } from "puppeteer-core";
import type { Config } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import type { PageAction } from "../../schemas/actions.ts";
import type { SsrfGuard } from "../ssrf.ts";
import type { ActionOutputs } from "../types.ts";
import { parseTargetUrl } from "../url.ts";
import { runActions } from "./actions.ts";
import { type ByteBudget, watchBytes } from "./budget.ts";
import { crashError, navigationError, unfinishedNavigation } from "./navigation-error.ts";
import { preparePage } from "./page-setup.ts";
import type { BrowserPool } from "./pool.ts";
import { settle, waitUntilReady } from "./readiness.ts";
import { guardRequests } from "./requests.ts";
import { type ActivityTracker, isMainNavigation, trackActivity } from "./settle.ts";

/**
 * A page kept open across requests (a browser session): navigated, acted on and read step by
 * step, under the same SSRF guard, byte limits and readiness rules as a fetch's render. It holds
 * one of the pool's page slots until it is closed.
 */
export interface LivePage {
  /** Navigates to `url` (checked by the SSRF guard) and waits until the page looks drawn. */
  goto(url: string, timeoutMs: number): Promise<void>;
  /** Runs page actions in order, as a fetch's actions run; what they make comes back. */
  act(actions: PageAction[], timeoutMs: number): Promise<ActionOutputs>;
  /** The page's URL now (no serialising: snapshot gives the HTML too). */
  url(): string;
  /** The page as it is now: its URL, title, HTML and the status of its last document. */
  snapshot(): Promise<{ url: string; title: string; html: string; status: number }>;
  /** Ends the session: the pool wipes the page and lends it again. Idempotent. */
  close(): Promise<void>;
  /** Why the page cannot go on (closed, crashed, past its byte limits), or undefined while it can. */
  readonly ended: SiphonError | undefined;
}

/** Room left after readiness before a step's deadline. */
const READ_MARGIN_MS = 500;
const SETTLE_MAX_MS = 3_000;
const BLANK = new URL("about:blank");

/**
 * Opens a live page in the pool (the browser, or the stealth browser's partition): set up as a
 * fetch's page is (user agent, languages, held permissions), every request it makes checked
 * by the SSRF guard (and its proxy), its bytes counted against the fetch limits. Throws
 * browser_unavailable when no page can be had.
 */
export async function openLivePage(
  config: Config,
  pool: BrowserPool,
  guard: SsrfGuard | undefined,
  options: { stealth: boolean },
): Promise<LivePage> {
  const kind = options.stealth ? "stealth" : "browser";
  const life = new AbortController();
  let ended: SiphonError | undefined;
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const end = (error: SiphonError) => {
    ended ??= error;
    life.abort(error);
    release();
  };
  let main: HTTPResponse | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const opened = new Promise<{
    page: Page;
    tracker: ActivityTracker;
    refusal: () => SiphonError | undefined;
    viewport: { width: number; height: number };
  }>((resolve, reject) => {
    const work = pool.withPage(
      async (page, lease) => {
        let tracker: ActivityTracker | undefined;
        let budget: ByteBudget | undefined;
        const onCrash = () => end(crashError(new URL(page.url() || "about:blank"), lease.memory));
        const onResponse = (response: HTTPResponse) => {
          if (isMainNavigation(page, response.request())) main = response;
        };
        try {
          const { viewport, custom, cleanup } = await preparePage(lease, BLANK, {}, options.stealth);
          const requests = guardRequests({
            guard: config.disableSsrfProtection ? undefined : guard,
            origin: "null",
            headers: custom,
            images: true,
            signal: life.signal,
          });
          const guarded = !config.disableSsrfProtection && !lease.proxied;
          await lease.interceptRequests(requests.handle, guarded ? "all" : requests.scope);
          budget = await watchBytes(
            lease,
            "the session's page",
            { perResponse: config.maxBodyBytes, perPage: config.browserMaxPageBytes },
            end,
          );
          tracker = trackActivity(page);
          page.on("response", onResponse);
          page.on("error", onCrash);
          resolve({ page, tracker, refusal: () => requests.documentRefusal(), viewport });
          await done;
          await cleanup().catch(() => page.close().catch(() => {}));
        } finally {
          page.off("error", onCrash);
          page.off("response", onResponse);
          budget?.dispose();
          tracker?.dispose();
        }
      },
      { partition: `${kind}:`, browser: kind },
    );
    work.catch(reject);
  });
  const live = await opened;

  /** Steps run one at a time, in the order they came; a session that ended refuses them. */
  const step = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(() => {
      if (ended) throw ended;
      return fn();
    });
    queue = run.catch(() => {});
    return run;
  };

  return {
    get ended() {
      return ended;
    },
    goto(url, timeoutMs) {
      return step(async () => {
        const target = parseTargetUrl(url);
        const deadline = Date.now() + timeoutMs;
        if (!config.disableSsrfProtection) await guard?.check(target, life.signal);
        main = undefined;
        try {
          const first = await live.page.goto(target.href, {
            waitUntil: "load",
            timeout: Math.max(1, timeoutMs),
          });
          main ??= first ?? undefined;
        } catch (error) {
          throw navigationError(error, target, live.refusal());
        }
        const refused = unfinishedNavigation(live.page, target, main, live.refusal());
        if (refused) throw refused;
        await waitUntilReady(live.page, live.tracker, {
          deadline: deadline - READ_MARGIN_MS,
          appWaitMs: config.renderWaitMaxMs,
        });
      });
    },
    act(actions, timeoutMs) {
      return step(async () => {
        const deadline = Date.now() + timeoutMs;
        const outputs = await runActions(live.page, actions, {
          deadline,
          viewport: live.viewport,
          tracker: live.tracker,
          maxBytes: config.maxBodyBytes,
        });
        await settle(live.page, live.tracker, Math.min(deadline, Date.now() + SETTLE_MAX_MS));
        const here = new URL(live.page.url());
        const refused = unfinishedNavigation(live.page, here, main, live.refusal());
        if (refused) throw refused;
        return outputs;
      });
    },
    url: () => live.page.url(),
    snapshot() {
      return step(async () => ({
        url: live.page.url(),
        title: await live.page.title(),
        html: await live.page.content(),
        status: main?.status() ?? 200,
      }));
    },
    async close() {
      end(new SiphonError("not_found", "The browser session was closed"));
      await queue.catch(() => {});
    },
  };
}

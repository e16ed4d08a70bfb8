import type { Config } from "../config.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import type { Engines } from "../pipeline/engines.ts";
import { fetchPage } from "../pipeline/fetch-page.ts";
import { fingerprint } from "../pipeline/result.ts";
import { FetchBody } from "../schemas/fetch.ts";
import { validate } from "../schemas/validate.ts";
import { WATCH_HISTORY_KEPT } from "../schemas/watch.ts";
import type { Store, WatchCheckRecord, WatchCheckState, WatchRecord } from "../store/types.ts";
import { compareContent } from "./compare.ts";
import { compileNoiseRules, filterNoise } from "./noise.ts";
import { watchOptions } from "./options.ts";
import { nextCheckAt } from "./schedule.ts";

/** What one check needs. */
export interface CheckDeps {
  config: Config;
  store: Store;
  engines: Engines;
  now: () => number;
  /** Ends the page read (the check's deadline and `cancel`): a check past its deadline fails. */
  signal?: AbortSignal;
  /** The caller gave up (the server stops, the client went away): nothing is recorded, the claim is given back. */
  cancel?: AbortSignal;
  /** Over the weekly quota: plain HTTP only, whatever the watch asks. */
  httpOnly?: boolean;
}

/** A finished check: as recorded (unless the watch changed or went meanwhile), and the failure, if it failed. */
export interface CheckRun {
  check: WatchCheckRecord;
  /** False when the watch was deleted, or its page or options changed, while it ran: nothing was recorded. */
  recorded: boolean;
  /** Why the check failed (the page could not be read); null when it succeeded. */
  error: SiphonError | null;
  /** Whether the page was read (a check that read the page costs a credit). */
  fetched: boolean;
}

/** The content a check compares: the page read with the watch's options, its noise left out. */
async function readPage(
  watch: WatchRecord,
  deps: CheckDeps,
): Promise<{ content: string; statusCode: number }> {
  const options = watchOptions(watch.options);
  const input = validate(FetchBody, {
    url: watch.url,
    format: options.format,
    onlyMainContent: options.onlyMainContent,
    ...(options.includeTags.length ? { includeTags: options.includeTags } : {}),
    ...(options.excludeTags.length || options.ignore.selectors.length
      ? { excludeTags: [...options.excludeTags, ...options.ignore.selectors] }
      : {}),
    render: options.render,
    // Every check reads the page as it is now, and leaves the cache to fetches.
    maxAge: 0,
    storeInCache: false,
  });
  const { result } = await fetchPage(input, {
    config: deps.config,
    store: deps.store,
    engines: deps.engines,
    now: deps.now,
    signal: deps.signal,
    // Plain HTTP unless the watch asks to render: no escalation, so every check reads the page the same way.
    httpOnly: deps.httpOnly || !options.render,
  });
  return {
    content: filterNoise(result.content, compileNoiseRules(options.ignore)),
    statusCode: result.statusCode,
  };
}

/** The fields of a failed check. */
function failed(error: SiphonError, statusCode: number | null) {
  return {
    status: "error" as const,
    fingerprint: null,
    summary: `Check failed: ${error.message}`,
    addedText: [],
    removedText: [],
    diff: null,
    statusCode,
    error: error.message,
  };
}

/**
 * Runs one check of a watch this caller holds the claim on (`token`), and records it: the
 * page is read (fresh, with the watch's fetch options), its noise filtered out, and compared
 * with the previous check's content; the first check records the baseline. A page that cannot
 * be read, or answers an HTTP error, is a failed check: the watch goes to status error (paused
 * stays paused) and keeps its baseline. Never throws for the page's failures; they are in `error`.
 */
export async function runCheck(
  watch: WatchRecord,
  token: string,
  trigger: WatchCheckRecord["trigger"],
  deps: CheckDeps,
): Promise<CheckRun> {
  const checkedAt = deps.now();
  const id = `chk_${crypto.randomUUID()}`;
  const next = nextCheckAt(watch, watch.intervalMinutes, checkedAt);
  const base = { id, watchId: watch.id, checkedAt, trigger, previousFingerprint: watch.lastFingerprint };
  let check: WatchCheckRecord;
  let state: WatchCheckState;
  let error: SiphonError | null = null;
  let statusCode: number | null = null;
  try {
    const page = await readPage(watch, deps);
    statusCode = page.statusCode;
    if (page.statusCode >= 400) {
      throw new SiphonError("network_error", `The page answered HTTP ${page.statusCode}`, {
        hint: "The watch keeps its baseline and is checked again at its interval.",
      });
    }
    const current = { fingerprint: fingerprint(page.content), content: page.content };
    const previous =
      watch.lastFingerprint === null
        ? null
        : { fingerprint: watch.lastFingerprint, content: watch.baseline ?? "" };
    const comparison = compareContent(previous, current);
    check = {
      ...base,
      status: comparison.status,
      fingerprint: current.fingerprint,
      summary: comparison.summary,
      addedText: comparison.addedText,
      removedText: comparison.removedText,
      diff: comparison.diff,
      statusCode: page.statusCode,
      error: null,
    };
    state = {
      status: "active",
      lastError: null,
      fingerprint: { lastFingerprint: current.fingerprint, baseline: current.content },
      changed: comparison.changed,
      checkedAt,
      intervalMinutes: watch.intervalMinutes,
      nextCheckAt: next,
    };
  } catch (raw) {
    if (deps.cancel?.aborted) {
      await deps.store.watches.release(watch.id, token);
      const cancelled = new SiphonError("timeout", "The check was cancelled before it finished");
      return {
        check: { ...base, ...failed(cancelled, null) },
        recorded: false,
        error: cancelled,
        fetched: false,
      };
    }
    error = toSiphonError(raw);
    check = { ...base, ...failed(error, statusCode) };
    state = {
      status: "error",
      lastError: error.message,
      changed: false,
      checkedAt,
      intervalMinutes: watch.intervalMinutes,
      nextCheckAt: next,
    };
  }
  const recorded = await deps.store.watches.finishCheck(
    watch.id,
    token,
    watch.revision,
    state,
    check,
    WATCH_HISTORY_KEPT,
  );
  return { check, recorded, error, fetched: statusCode !== null };
}

import { load } from "cheerio/slim";
import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { createSsrfGuard, parseAllowList } from "../fetch/ssrf.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { checkWebhookTarget, type WebhookConfig } from "../jobs/webhooks.ts";
import {
  DEFAULT_INTERVAL_MINUTES,
  type WatchCreateInput,
  type WatchIgnoreInput,
  type WatchPatchInput,
  type WatchWebhookInput,
} from "../schemas/watch.ts";
import { compileNoiseRules, type NoiseRules } from "./noise.ts";

/** What a check reads a page with and compares of it: a watch's stored `options`. */
export interface WatchOptions {
  format: "markdown" | "text" | "html";
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  render: boolean;
  ignore: NoiseRules & { selectors: string[] };
}

export const DEFAULT_IGNORE: WatchOptions["ignore"] = {
  whitespace: true,
  dates: true,
  counters: true,
  patterns: [],
  selectors: [],
};

const DEFAULT_OPTIONS: WatchOptions = {
  format: "markdown",
  onlyMainContent: false,
  includeTags: [],
  excludeTags: [],
  render: false,
  ignore: DEFAULT_IGNORE,
};

/** A stored `options` value read back, defaults filled in (a row written by an older version lacks new fields). */
export function watchOptions(stored: unknown): WatchOptions {
  const given = (stored && typeof stored === "object" ? stored : {}) as Partial<WatchOptions>;
  return { ...DEFAULT_OPTIONS, ...given, ignore: { ...DEFAULT_IGNORE, ...given.ignore } };
}

/** Throws SiphonError invalid_request naming the first selector CSS cannot parse. */
function checkSelectors(field: string, selectors: string[]): void {
  const $ = load("<p></p>");
  for (const selector of selectors) {
    try {
      $(selector);
    } catch {
      throw new SiphonError("invalid_request", `${field}: "${selector}" is not a valid CSS selector`);
    }
  }
}

/** The one interval of a request: checkIntervalMinutes, or its alias interval or intervalMinutes. */
export function requestedInterval(
  input: Pick<WatchCreateInput, "checkIntervalMinutes" | "interval" | "intervalMinutes">,
  config: Config,
): number | undefined {
  const given = [input.checkIntervalMinutes, input.intervalMinutes, input.interval].filter(
    (value): value is number => value !== undefined,
  );
  if (new Set(given).size > 1) {
    throw new SiphonError(
      "invalid_request",
      "checkIntervalMinutes, intervalMinutes and interval name the same setting; give one",
    );
  }
  const minutes = given[0];
  if (minutes !== undefined && minutes < config.watchMinIntervalMinutes) {
    throw new SiphonError(
      "invalid_request",
      `checkIntervalMinutes must be at least ${config.watchMinIntervalMinutes} on this server`,
      { hint: "The operator sets the minimum with SIPHON_WATCH_MIN_INTERVAL_MINUTES." },
    );
  }
  return minutes;
}

/** The interval of a new watch: the request's, or the default (raised to the server's minimum). */
export function createInterval(input: WatchCreateInput, config: Config): number {
  return (
    requestedInterval(input, config) ?? Math.max(DEFAULT_INTERVAL_MINUTES, config.watchMinIntervalMinutes)
  );
}

/**
 * Checks a watch's URL without a DNS lookup: the URL rules, and SSRF rules for localhost names
 * and literal addresses (names are resolved and checked again at every check).
 * Throws SiphonError invalid_request, invalid_url or forbidden_url.
 */
export async function checkWatchUrl(raw: string, config: Config): Promise<string> {
  const url = parseTargetUrl(raw);
  const literalOnly = createSsrfGuard({
    enabled: !config.disableSsrfProtection,
    allow: parseAllowList(config.ssrfAllow),
    // Any public address: a name passes here and is checked for real when it is fetched.
    resolver: async () => [{ address: "192.0.43.10", family: 4 }],
  });
  await literalOnly.check(url);
  return url.href;
}

/** A watch's stored webhook from the request's, its target checked. Throws as checkWebhookTarget. */
export function watchWebhook(input: WatchWebhookInput, config: Config): WebhookConfig {
  checkWebhookTarget(input.url, config);
  const hook: WebhookConfig = { url: input.url, events: ["changed"] };
  if (input.secret) hook.secret = input.secret;
  if (input.metadata) hook.metadata = input.metadata as Record<string, unknown>;
  return hook;
}

/**
 * The options of a request laid over `base` (defaults for a new watch): selector is
 * includeTags [selector]; `ignore` replaces the noise rules, unnamed ones at their defaults.
 * Throws SiphonError invalid_request for an invalid selector or pattern, or for selector and
 * includeTags together.
 */
export function mergeOptions(base: WatchOptions, input: WatchCreateInput | WatchPatchInput): WatchOptions {
  if (input.selector !== undefined && input.includeTags !== undefined) {
    throw new SiphonError("invalid_request", "selector is includeTags of one selector; give one of them");
  }
  const ignore: WatchIgnoreInput | undefined = input.ignore
    ? { ...DEFAULT_IGNORE, ...input.ignore }
    : undefined;
  const options: WatchOptions = {
    format: input.format ?? base.format,
    onlyMainContent: input.onlyMainContent ?? base.onlyMainContent,
    includeTags: input.selector !== undefined ? [input.selector] : (input.includeTags ?? base.includeTags),
    excludeTags: input.excludeTags ?? base.excludeTags,
    render: input.render ?? base.render,
    ignore: ignore ?? base.ignore,
  };
  checkSelectors("includeTags", options.includeTags);
  checkSelectors("excludeTags", options.excludeTags);
  checkSelectors("ignore.selectors", options.ignore.selectors);
  compileNoiseRules(options.ignore);
  return options;
}

export { DEFAULT_OPTIONS };

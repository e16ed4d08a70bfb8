import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { HtmlExtractor } from "../extract/pool.ts";
import { acceptLanguage } from "../fetch/locale.ts";
import type { Capture, EngineFetchOptions, EngineName, FetchEngine } from "../fetch/types.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { parseActions } from "../schemas/actions.ts";
import type { FetchInput, FetchResult } from "../schemas/fetch.ts";
import type { Store } from "../store/types.ts";
import { cacheKey } from "./cache-key.ts";
import { fetchEscalating } from "./escalate.ts";
import { resolveFormats } from "./formats.ts";
import { rejectUnavailable } from "./unavailable.ts";

/** Engines by name, loaded lazily so a run pays only for what it uses. */
export interface Engines {
  get(name: EngineName): Promise<FetchEngine>;
  /** HTML extraction; in this thread when absent. */
  extract?: HtmlExtractor;
}

/** What fetchPage needs from its caller. */
export interface FetchDeps {
  config: Config;
  store: Store;
  engines: Engines;
  signal?: AbortSignal;
  now?: () => number;
  /** Over the weekly quota: simple HTTP only, no browser or stealth, whatever the request asks. */
  httpOnly?: boolean;
}

export interface CacheInfo {
  hit: boolean;
  /** Age of the cached entry in seconds, on a hit. */
  ageSeconds?: number;
}

export interface FetchOutcome {
  result: FetchResult;
  cache: CacheInfo;
  /** Set when the answer is less than it could have been, and why (X-Degraded). */
  degraded?: string;
}

/** SPEC fingerprint: the first 16 hex characters of SHA-256 over the content. */
export function fingerprint(content: string): string {
  return new Bun.CryptoHasher("sha256").update(content).digest("hex").slice(0, 16);
}

const base64 = (capture: Capture) => Buffer.from(capture.data).toString("base64");

/** Request headers for every engine: caller headers, Accept-Language, cookies. */
function requestHeaders(input: FetchInput): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const language = acceptLanguage(input.location, input.languages);
  if (language && !headers["accept-language"]) headers["accept-language"] = language;
  if (input.cookies?.length) headers.cookie = input.cookies.join("; ");
  return Object.keys(headers).length ? headers : undefined;
}

/**
 * Fetches one URL and returns the SPEC Fetch result. Order: validation of
 * what the schema cannot express (actions, formats, features not built) ->
 * URL rules -> cache lookup -> engine fetch with escalation (simple ->
 * browser -> stealth; SSRF checked at every hop) -> conversion by content
 * type -> result fields -> cache write. Throws SiphonError for every expected
 * failure.
 */
export async function fetchPage(input: FetchInput, deps: FetchDeps): Promise<FetchOutcome> {
  const now = deps.now ?? Date.now;
  const started = performance.now();
  rejectUnavailable(input);
  const actions = parseActions(input.actions);
  const formats = resolveFormats(input);
  const target = parseTargetUrl(input.url);

  const forcesBrowser =
    input.render || input.wait > 0 || actions.length > 0 || formats.screenshot !== undefined;
  const wantsBrowser = forcesBrowser || input.stealth;
  const start: EngineName = deps.httpOnly
    ? "simple"
    : input.stealth
      ? "stealth"
      : forcesBrowser
        ? "browser"
        : "simple";
  const skipped =
    deps.httpOnly && wantsBrowser
      ? "rendering, stealth, actions and screenshots were skipped (HTTP only)"
      : undefined;
  // Actions, captures, custom headers and cookies make an answer particular to this request.
  const cacheable =
    deps.config.cacheEnabled &&
    actions.length === 0 &&
    !formats.screenshot &&
    !input.headers &&
    !input.cookies?.length;
  const key = cacheKey(target.href, { ...input, format: formats.format }, !deps.config.disableSsrfProtection);

  if (cacheable && input.maxAge > 0) {
    const entry = await deps.store.cache.get<FetchResult>(key);
    if (entry && now() - entry.createdAt <= input.maxAge) {
      const result = { ...entry.value, elapsed: Math.round(performance.now() - started) };
      return {
        result,
        cache: { hit: true, ageSeconds: Math.max(0, Math.floor((now() - entry.createdAt) / 1000)) },
      };
    }
  }

  const headers = requestHeaders(input);
  const attempt = await fetchEscalating(
    target.href,
    {
      start,
      allowed: deps.config.escalation && !deps.httpOnly,
      extract: {
        format: formats.format,
        onlyMainContent: input.onlyMainContent,
        includeTags: input.includeTags,
        excludeTags: input.excludeTags,
        images: input.images,
      },
      options: (engine): EngineFetchOptions =>
        engine === "simple"
          ? { headers, signal: deps.signal }
          : {
              headers,
              signal: deps.signal,
              wait: input.wait,
              actions,
              cookies: input.cookies,
              location: input.location,
              languages: input.languages,
              screenshot: formats.screenshot ? { ...formats.screenshot, format: "png" } : undefined,
            },
    },
    deps.engines,
  );
  if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");

  const { page, converted } = attempt;
  const { doc, contentType } = converted;
  const result: FetchResult = {
    url: page.url,
    title: doc.title,
    content: doc.content,
    metadata: doc.metadata,
    links: doc.links,
    tokens: Math.ceil(doc.content.length / 4),
    method: attempt.engine,
    elapsed: Math.round(performance.now() - started),
    contentType,
    quality: Math.round(doc.quality * 1000) / 1000,
    fingerprint: fingerprint(doc.content),
    statusCode: page.status,
  };
  if (input.images) result.images = doc.images ?? [];
  if (page.screenshot) result.screenshot = base64(page.screenshot);
  if (page.actionScreenshots?.length) result.actions = { screenshots: page.actionScreenshots.map(base64) };

  // Only successful answers are cached: an error page should be fetched again next time.
  if (cacheable && input.storeInCache && page.status >= 200 && page.status < 300) {
    await deps.store.cache.set(key, page.url, result, now());
  }
  const degraded = [skipped, attempt.degraded].filter(Boolean).join("; ") || undefined;
  return { result, cache: { hit: false }, degraded };
}

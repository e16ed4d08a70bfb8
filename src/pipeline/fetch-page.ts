import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { acceptLanguage } from "../fetch/locale.ts";
import type { FetchEngine } from "../fetch/types.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import type { FetchInput, FetchResult } from "../schemas/fetch.ts";
import type { Store } from "../store/types.ts";
import { cacheKey } from "./cache-key.ts";
import { convertPage } from "./convert.ts";
import { rejectUnavailable } from "./unavailable.ts";

/** Engines by name, loaded lazily so a run pays only for what it uses. */
export interface Engines {
  get(name: "simple"): Promise<FetchEngine>;
}

/** What fetchPage needs from its caller. */
export interface FetchDeps {
  config: Config;
  store: Store;
  engines: Engines;
  signal?: AbortSignal;
  now?: () => number;
}

export interface CacheInfo {
  hit: boolean;
  /** Age of the cached entry in seconds, on a hit. */
  ageSeconds?: number;
}

export interface FetchOutcome {
  result: FetchResult;
  cache: CacheInfo;
}

/** SPEC fingerprint: the first 16 hex characters of SHA-256 over the content. */
export function fingerprint(content: string): string {
  return new Bun.CryptoHasher("sha256").update(content).digest("hex").slice(0, 16);
}

/**
 * Fetches one URL and returns the SPEC Fetch result. Order: URL rules ->
 * cache lookup -> engine fetch (SSRF-checked, redirects re-checked) -> convert
 * by content type (HTML extraction, JSON, XML, text, PDF, DOCX) -> result
 * fields -> cache write. Throws SiphonError for every expected failure.
 */
export async function fetchPage(input: FetchInput, deps: FetchDeps): Promise<FetchOutcome> {
  const now = deps.now ?? Date.now;
  const started = performance.now();
  rejectUnavailable(input);
  const target = parseTargetUrl(input.url);
  const key = cacheKey(target.href, input, !deps.config.disableSsrfProtection);
  const useCache = deps.config.cacheEnabled;

  if (useCache && input.maxAge > 0) {
    const entry = await deps.store.cache.get<FetchResult>(key);
    if (entry && now() - entry.createdAt <= input.maxAge) {
      const result = { ...entry.value, elapsed: Math.round(performance.now() - started) };
      return {
        result,
        cache: { hit: true, ageSeconds: Math.max(0, Math.floor((now() - entry.createdAt) / 1000)) },
      };
    }
  }

  const engine = await deps.engines.get("simple");
  const language = acceptLanguage(input.location, input.languages);
  const page = await engine.fetch(target.href, {
    headers: language ? { "accept-language": language } : undefined,
    signal: deps.signal,
  });
  if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");

  const { doc, contentType } = await convertPage(page, {
    format: input.format,
    onlyMainContent: input.onlyMainContent,
    includeTags: input.includeTags,
    excludeTags: input.excludeTags,
    images: input.images,
  });

  const result: FetchResult = {
    url: page.url,
    title: doc.title,
    content: doc.content,
    metadata: doc.metadata,
    links: doc.links,
    tokens: Math.ceil(doc.content.length / 4),
    method: engine.name,
    elapsed: Math.round(performance.now() - started),
    contentType,
    quality: Math.round(doc.quality * 1000) / 1000,
    fingerprint: fingerprint(doc.content),
    statusCode: page.status,
  };
  if (input.images) result.images = doc.images ?? [];

  // Only successful answers are cached: an error page should be fetched again next time.
  if (useCache && input.storeInCache && page.status >= 200 && page.status < 300) {
    await deps.store.cache.set(key, page.url, result, now());
  }
  return { result, cache: { hit: false } };
}

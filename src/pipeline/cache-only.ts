import { SiphonError } from "../errors.ts";
import { DEFAULT_MAX_AGE_MS, type FetchInput, MAX_CACHE_AGE_MS } from "../schemas/fetch.ts";

/** The ages (ms) a cached copy may have to answer a cache-only request. */
export interface CacheOnlyWindow {
  /** Youngest acceptable copy (minAge, else 0). */
  youngest: number;
  /** Oldest acceptable copy: maxAge when the request gives one, else what the cache keeps. */
  oldest: number;
}

/**
 * The window a cache-only request (`lockdown`, or `minAge`) reads, or undefined for a request
 * that may fetch. A cache-only request never reaches the site, so with lockdown a copy of any
 * age the cache keeps (30 days) answers, unless maxAge asks for a younger one than its default.
 * Throws SiphonError invalid_request when the request cannot be answered from the cache at all
 * (the cache is off, maxAge 0, or actions, screenshots, headers or cookies, which make an answer
 * the cache never keeps).
 */
export function cacheOnlyWindow(input: FetchInput, cacheable: boolean): CacheOnlyWindow | undefined {
  if (!input.lockdown && input.minAge === undefined) return undefined;
  const asked = input.lockdown ? "lockdown" : "minAge";
  const why = !cacheable
    ? "actions, screenshots, custom headers and cookies make an answer the cache never keeps (or the cache is off on this server)"
    : input.maxAge === 0
      ? "maxAge 0 bypasses the cache"
      : undefined;
  if (why) {
    throw new SiphonError("invalid_request", `${asked} answers from the cache only, and ${why}`, {
      hint: `Drop ${asked} to fetch the page, or ask for what a plain fetch of it keeps.`,
    });
  }
  const oldest = input.maxAge === DEFAULT_MAX_AGE_MS ? MAX_CACHE_AGE_MS : input.maxAge;
  const youngest = input.minAge ?? 0;
  if (youngest > oldest) {
    throw new SiphonError("invalid_request", `minAge (${youngest} ms) is more than maxAge (${oldest} ms)`);
  }
  return { youngest, oldest };
}

/** The 404 of a cache-only request the cache cannot answer. */
export function nothingCached(url: string, window: CacheOnlyWindow): SiphonError {
  const age = window.youngest > 0 ? ` at least ${window.youngest} ms old` : "";
  return new SiphonError(
    "not_found",
    `Nothing is cached for ${url}${age}: a cache-only request never fetches`,
    {
      hint: "Fetch the page once without lockdown or minAge (it is cached for 30 days at most), then ask again.",
    },
  );
}

import type { FetchInput } from "../schemas/fetch.ts";

/**
 * The cache key: the URL plus every option that changes the output, so two
 * requests share an entry only when they would produce the same result.
 * `ssrfGuarded` is part of it so that a page fetched with protection off is
 * never served by a process running with protection on (a shared SIPHON_HOME).
 */
export function cacheKey(url: string, input: FetchInput, ssrfGuarded: boolean): string {
  const parts = {
    v: 1,
    url,
    ssrfGuarded,
    format: input.format,
    onlyMainContent: input.onlyMainContent,
    includeTags: input.includeTags ?? [],
    excludeTags: input.excludeTags ?? [],
    images: input.images,
    location: input.location?.toUpperCase() ?? null,
    languages: input.languages ?? [],
    render: input.render,
    wait: input.wait,
    stealth: input.stealth,
  };
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(parts)).digest("hex");
}

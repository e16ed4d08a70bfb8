import type { EngineName } from "../fetch/types.ts";
import type { FetchInput } from "../schemas/fetch.ts";

/**
 * The cache key of a fetch attempt: the URL plus everything that changes what the target
 * sends or the browser renders (the engine a request starts with, wait, location, languages,
 * the SSRF mode), and nothing that only changes how the answer is turned into output (format,
 * formats, tags, onlyMainContent, images). So a page fetched once serves every later request
 * for any format within maxAge. Requests with actions, captures, custom headers or cookies are
 * particular to their caller and never cached (see fetchPage). `ssrfGuarded` is part of it so
 * that a page fetched with protection off is never served by a process with protection on (a
 * shared SIPHON_HOME).
 */
export function cacheKey(url: string, input: FetchInput, start: EngineName, ssrfGuarded: boolean): string {
  const parts = {
    v: 2,
    url,
    ssrfGuarded,
    start,
    wait: input.wait,
    location: input.location?.toUpperCase() ?? null,
    languages: input.languages ?? [],
    // Without site markdown the request states no text/markdown, so a negotiating site answers HTML.
    ...(input.siteMarkdown === false ? { siteMarkdown: false } : {}),
  };
  const text = JSON.stringify(parts);
  let key = keys.get(text);
  if (key === undefined) {
    key = new Bun.CryptoHasher("sha256").update(text).digest("hex");
    if (keys.size >= KEYS_MAX) keys.clear();
    keys.set(text, key);
  }
  return key;
}

/** Keys of the requests seen lately: a busy page's key is a map lookup, not a hash, per request. */
const keys = new Map<string, string>();
const KEYS_MAX = 1_024;

import type { FetchResult } from "../schemas/fetch.ts";

/**
 * Results rendered from cached attempts, kept in memory: a cache hit would otherwise extract the
 * page again (milliseconds) where handing back the same result takes microseconds. Entries are
 * keyed by the attempt's cache key, its creation time (a new attempt never serves an old
 * rendering) and the output options; least recently used ones go past `maxBytes`.
 */
export interface RenderMemo {
  get(key: string): FetchResult | undefined;
  set(key: string, result: FetchResult): void;
}

/** Default memory bound of the memo. */
export const RENDER_MEMO_BYTES = 32 * 1024 * 1024;

/** Rough size of a result in memory: its strings dominate. */
function sizeOf(result: FetchResult): number {
  let bytes = 1_024 + result.content.length * 2;
  for (const field of [result.markdown, result.text, result.html, result.rawHtml, result.screenshot]) {
    bytes += (field?.length ?? 0) * 2;
  }
  for (const link of result.links) bytes += link.length * 2;
  return bytes;
}

/** A memo bounded to `maxBytes` (least recently used entries go first). */
export function createRenderMemo(maxBytes = RENDER_MEMO_BYTES): RenderMemo {
  const entries = new Map<string, { result: FetchResult; bytes: number }>();
  let total = 0;
  /** The most recently used entry: asked for again (a busy page), it has nowhere to move. */
  let newest: { result: FetchResult; bytes: number } | undefined;
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry !== newest) {
        // Map keeps insertion order: moving the entry to the end marks it recently used.
        entries.delete(key);
        entries.set(key, entry);
        newest = entry;
      }
      return entry.result;
    },
    set(key, result) {
      const bytes = sizeOf(result);
      if (bytes > maxBytes / 2) return;
      const previous = entries.get(key);
      if (previous) {
        total -= previous.bytes;
        entries.delete(key);
      }
      newest = { result, bytes };
      entries.set(key, newest);
      total += bytes;
      for (const [oldest, entry] of entries) {
        if (total <= maxBytes) break;
        entries.delete(oldest);
        total -= entry.bytes;
      }
    },
  };
}

import { parseQueryFromURL } from "elysia/parse-query";
import { deepFreeze } from "../src/schemas/freeze.ts";

/** Query strings longer than this are validated every time: a memo of them could hold megabytes. */
const MEMO_KEY_MAX = 2_048;
/** Distinct query strings kept; past it the memo starts again (a flood of unique URLs gains nothing from it). */
const MEMO_ENTRIES_MAX = 1_024;

/**
 * A GET route's validated input from its request URL, remembered by the raw query string: the
 * query is parsed as Elysia parses it (repeated parameters become arrays) and handed to
 * `validate`, which is a pure function of it, so a busy route's repeated requests skip both.
 * What is remembered is frozen and shared. A query that fails validation throws every time
 * (nothing is remembered); so does the first use of any query.
 */
export function queryInput<T>(validate: (query: Record<string, unknown>) => T): (url: string) => T {
  const memo = new Map<string, T>();
  // The last URL answered, compared whole: a busy client repeating one request skips the slice and
  // the hash of its query string.
  let lastUrl = "";
  let last: T | undefined;
  return (url) => {
    if (url === lastUrl && last !== undefined) return last;
    const start = url.indexOf("?");
    const raw = start === -1 ? "" : url.slice(start + 1);
    const hit = memo.get(raw);
    if (hit !== undefined) {
      lastUrl = url;
      last = hit;
      return hit;
    }
    const value = validate(start === -1 ? Object.create(null) : parseQueryFromURL(url, start + 1));
    if (raw.length <= MEMO_KEY_MAX) {
      if (memo.size >= MEMO_ENTRIES_MAX) memo.clear();
      memo.set(raw, deepFreeze(value));
    }
    return value;
  };
}

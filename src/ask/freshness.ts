import type { Freshness } from "../schemas/ask.ts";

/**
 * How old a page is, from the published date its page declares (metadata.published:
 * article:published_time, JSON-LD datePublished, <time>). A page without a date, or with one
 * that does not parse, is "older": nothing says it is new. A date up to a day ahead of the
 * clock (time zones, a clock a little off) counts as recent; one further ahead is not believed
 * and counts as undated.
 */

const DAY_MS = 86_400_000;

/** The buckets, youngest first: a page belongs to the first whose age limit it is within. */
export const FRESHNESS_DAYS: readonly { freshness: Freshness; days: number }[] = [
  { freshness: "recent", days: 7 },
  { freshness: "this-month", days: 31 },
  { freshness: "this-year", days: 365 },
];

/** The freshness of a page published at `published` (ISO 8601 or any date Date parses), seen at `now` (ms). */
export function freshnessOf(published: string | null | undefined, now: number): Freshness {
  if (!published) return "older";
  const at = Date.parse(published);
  if (Number.isNaN(at)) return "older";
  const age = now - at;
  if (age < -DAY_MS) return "older";
  return FRESHNESS_DAYS.find((bucket) => age <= bucket.days * DAY_MS)?.freshness ?? "older";
}

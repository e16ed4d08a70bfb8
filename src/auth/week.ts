const DAY_MS = 86_400_000;

/** Start of the quota week holding `now`: the last Monday 00:00 UTC, as ms since epoch. */
export function weekStart(now: number): number {
  const day = Math.floor(now / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  const sinceMonday = (day + 3) % 7;
  return (day - sinceMonday) * DAY_MS;
}

/** When the quota week holding `now` ends (the next Monday 00:00 UTC). */
export function nextWeekStart(now: number): number {
  return weekStart(now) + 7 * DAY_MS;
}

import { createHash } from "node:crypto";
import type { WatchRecord } from "../store/types.ts";

const MINUTE_MS = 60_000;
/** A check's jitter is at most this share of its interval... */
const JITTER_SHARE = 0.1;
/** ...and at most this long. */
const MAX_JITTER_MS = 5 * MINUTE_MS;

/** A stable number in [0, 1) for `key`: the same watch and check always get the same jitter. */
function unit(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * When a watch is checked after a check at `at`: one interval later, plus a jitter of up to
 * 10% of the interval (at most 5 minutes) that differs per watch and per check, so watches
 * created together, or all due after a restart, drift apart instead of running in step. Counted
 * from the check itself, never from missed slots: a watch overdue by ten intervals is checked
 * once, then an interval later.
 */
export function nextCheckAt(
  watch: Pick<WatchRecord, "id" | "checkCount">,
  intervalMinutes: number,
  at: number,
): number {
  const interval = intervalMinutes * MINUTE_MS;
  const spread = Math.min(interval * JITTER_SHARE, MAX_JITTER_MS);
  return at + interval + Math.floor(unit(`${watch.id}:${watch.checkCount}`) * spread);
}

/**
 * When a watch that starts (or resumes) being scheduled at `now` is due: at once when it has no
 * check yet or its interval has passed since the last one, otherwise an interval after that.
 */
export function dueFrom(lastCheckedAt: number | null, intervalMinutes: number, now: number): number {
  if (lastCheckedAt === null) return now;
  return Math.max(now, lastCheckedAt + intervalMinutes * MINUTE_MS);
}

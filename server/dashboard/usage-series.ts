import type { DayUsage } from "../../src/store/types.ts";

const DAY_MS = 86_400_000;

/** One day of the usage chart. */
export interface UsageDay extends DayUsage {
  /** "2026-11-18" */
  date: string;
  /** 0-100, one decimal; null on a day without requests. */
  successRate: number | null;
}

/** The UTC day holding `now`, as its start. */
export function dayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** The first day a series of `days` days ending today starts on. */
export function seriesStart(now: number, days: number): number {
  return dayStart(now) - (days - 1) * DAY_MS;
}

/**
 * The last `days` UTC days up to today, oldest first, each with its requests and success rate;
 * days the log has nothing for count zero, and rows outside the range are ignored.
 */
export function usageSeries(rows: DayUsage[], now: number, days = 30): UsageDay[] {
  const first = seriesStart(now, days);
  const byDay = new Map<number, DayUsage>();
  for (const row of rows) {
    const day = dayStart(row.day);
    const seen = byDay.get(day);
    byDay.set(day, {
      day,
      requests: (seen?.requests ?? 0) + row.requests,
      succeeded: (seen?.succeeded ?? 0) + row.succeeded,
    });
  }
  const series: UsageDay[] = [];
  for (let i = 0; i < days; i++) {
    const day = first + i * DAY_MS;
    const { requests = 0, succeeded = 0 } = byDay.get(day) ?? {};
    series.push({
      day,
      date: new Date(day).toISOString().slice(0, 10),
      requests,
      succeeded,
      successRate: requests ? Math.round((succeeded / requests) * 1000) / 10 : null,
    });
  }
  return series;
}

/** The totals of a series: requests, and the success rate over all of them (null without requests). */
export function seriesTotals(series: UsageDay[]): { requests: number; successRate: number | null } {
  const requests = series.reduce((sum, d) => sum + d.requests, 0);
  const succeeded = series.reduce((sum, d) => sum + d.succeeded, 0);
  return { requests, successRate: requests ? Math.round((succeeded / requests) * 1000) / 10 : null };
}

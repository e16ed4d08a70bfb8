import { describe, expect, test } from "bun:test";
import { dayStart, seriesStart, seriesTotals, usageSeries } from "./usage-series.ts";

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 18, 15, 30);

describe("usage series", () => {
  test("30 UTC days ending today, oldest first, every day present", () => {
    const series = usageSeries([], now);
    expect(series).toHaveLength(30);
    expect(series[0]?.date).toBe("2026-10-20");
    expect(series.at(-1)?.date).toBe("2026-11-18");
    expect(series.every((d) => d.requests === 0 && d.successRate === null)).toBe(true);
    expect(seriesStart(now, 30)).toBe(dayStart(now) - 29 * DAY);
  });

  test("counts and success rate per day; rows out of range are ignored; rows of one day add up", () => {
    const today = dayStart(now);
    const series = usageSeries(
      [
        { day: today - 40 * DAY, requests: 9, succeeded: 9 },
        { day: today - 2 * DAY, requests: 3, succeeded: 1 },
        { day: today - 2 * DAY + 3_600_000, requests: 1, succeeded: 1 },
        { day: today, requests: 7, succeeded: 7 },
      ],
      now,
    );
    expect(series.find((d) => d.date === "2026-11-16")).toMatchObject({
      requests: 4,
      succeeded: 2,
      successRate: 50,
    });
    expect(series.at(-1)).toMatchObject({ requests: 7, successRate: 100 });
    expect(seriesTotals(series)).toEqual({ requests: 11, successRate: 81.8 });
    expect(seriesTotals(usageSeries([], now))).toEqual({ requests: 0, successRate: null });
  });
});

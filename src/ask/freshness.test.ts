import { describe, expect, test } from "bun:test";
import { freshnessOf } from "./freshness.ts";

const NOW = Date.UTC(2026, 10, 18, 12, 0, 0);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe("freshnessOf", () => {
  test.each([
    [0, "recent"],
    [7, "recent"],
    [7.01, "this-month"],
    [31, "this-month"],
    [31.01, "this-year"],
    [365, "this-year"],
    [365.01, "older"],
    [7300, "older"],
  ])("a page %d days old is %s", (days, freshness) => {
    expect(freshnessOf(iso(NOW - days * DAY), NOW)).toBe(freshness as never);
  });

  test("dates as pages write them: date only, offsets, RFC 2822", () => {
    expect(freshnessOf("2026-11-15", NOW)).toBe("recent");
    expect(freshnessOf("2026-10-25T16:00:00+02:00", NOW)).toBe("this-month");
    expect(freshnessOf("Mon, 09 Feb 2026 09:00:00 GMT", NOW)).toBe("this-year");
  });

  test("no date, or one that does not parse, is older", () => {
    expect(freshnessOf(null, NOW)).toBe("older");
    expect(freshnessOf(undefined, NOW)).toBe("older");
    expect(freshnessOf("", NOW)).toBe("older");
    expect(freshnessOf("last Tuesday", NOW)).toBe("older");
  });

  test("a date a few hours ahead is recent; one far in the future is not believed", () => {
    expect(freshnessOf(iso(NOW + 6 * 3_600_000), NOW)).toBe("recent");
    expect(freshnessOf(iso(NOW + 30 * DAY), NOW)).toBe("older");
  });
});

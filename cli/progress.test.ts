import { expect, test } from "bun:test";
import { duration, progressLine } from "./progress.ts";

test("the bar shows pages done of the total, the rate and the time left", () => {
  expect(progressLine("processing", 120, 480, 10, 12)).toBe(
    "[###---------] 120/480 pages  12.0/s  ETA 30s  processing",
  );
  expect(progressLine("completed", 480, 480, 40, 12)).toBe("[############] 480/480 pages  12.0/s  completed");
  // Nothing done yet: no rate, no ETA, an empty bar.
  expect(progressLine("queued", 0, 0, 0, 4)).toBe("[----] 0/0 pages  0.0/s  queued");
});

test("durations read as people read them", () => {
  expect(duration(42)).toBe("42s");
  expect(duration(185)).toBe("3m05s");
  expect(duration(3720)).toBe("1h02m");
});

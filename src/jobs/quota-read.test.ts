import { describe, expect, test } from "bun:test";
import { keptQuotaRead } from "./quota-read.ts";

describe("a job's read of its account's weekly quota", () => {
  test("is read once a second for the job's pages, and read again after a failed read", async () => {
    let reads = 0;
    let fail = false;
    let now = 1_000;
    const kept = {
      httpOnly: keptQuotaRead(
        async () => {
          reads++;
          if (fail) throw new Error("store away");
          return reads > 1;
        },
        () => now,
      ),
    };
    const first = await Promise.all(Array.from({ length: 20 }, () => kept.httpOnly()));
    expect(first.every((v) => v === false)).toBe(true);
    expect(reads).toBe(1);
    now += 999;
    expect(await kept.httpOnly()).toBe(false);
    expect(reads).toBe(1);
    // Past a second the account is read again: it went past its quota meanwhile.
    now += 1;
    expect(await kept.httpOnly()).toBe(true);
    expect(reads).toBe(2);
    now += 1_000;
    fail = true;
    await expect(kept.httpOnly()).rejects.toThrow("store away");
    fail = false;
    expect(await kept.httpOnly()).toBe(true);
    expect(reads).toBe(4);
  });
});

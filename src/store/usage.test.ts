import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BurstWindows } from "./burst-window.ts";
import { openSqliteStore } from "./sqlite.ts";

const HOUR = 3_600_000;
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe("BurstWindows", () => {
  test("admits up to the limit, then refuses until the oldest request leaves the window", () => {
    const w = new BurstWindows();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(w.take("k", t0 + i * 1000, HOUR, 3).allowed).toBe(true);
    const refused = w.take("k", t0 + 5000, HOUR, 3);
    expect(refused).toEqual({ allowed: false, used: 3, oldestExpiresAt: t0 + HOUR });
    expect(w.take("k", t0 + HOUR, HOUR, 3).allowed).toBe(true);
    expect(w.peek("k", t0 + HOUR, HOUR)).toEqual({ used: 3, oldestExpiresAt: t0 + 1000 + HOUR });
    expect(w.peek("other", t0, HOUR)).toEqual({ used: 0, oldestExpiresAt: t0 });
  });

  test("a large window stays exact after compaction", () => {
    const w = new BurstWindows();
    for (let i = 0; i < 5000; i++) w.take("k", i, 1000, 1_000_000);
    expect(w.peek("k", 4999, 1000).used).toBe(1000);
  });

  test("requests in the same millisecond count one by one and leave together", () => {
    const w = new BurstWindows();
    for (let i = 0; i < 10; i++) expect(w.take("k", 5_000, 1000, 12).allowed).toBe(true);
    expect(w.take("k", 5_400, 1000, 12)).toEqual({ allowed: true, used: 11, oldestExpiresAt: 6_000 });
    expect(w.take("k", 5_500, 1000, 12).used).toBe(12);
    expect(w.take("k", 5_999, 1000, 12)).toEqual({ allowed: false, used: 12, oldestExpiresAt: 6_000 });
    // The ten leave at once; a clock stepping back still counts in order.
    expect(w.take("k", 6_000, 1000, 12)).toEqual({ allowed: true, used: 3, oldestExpiresAt: 6_400 });
    expect(w.take("k", 5_900, 1000, 12).used).toBe(4);
    w.load("r", [1, 1, 2, 2, 2, 3]);
    expect(w.peek("r", 3, 1000)).toEqual({ used: 6, oldestExpiresAt: 1001 });
    expect(w.peek("r", 1001, 1000)).toEqual({ used: 4, oldestExpiresAt: 1002 });
  });
});

// What every store does is in test/store/contract.ts; these are SQLite's own request-log rows.
describe("SQLite usage store", () => {
  test("the burst window survives a restart through the request log, a row per key, route, status and second", async () => {
    const home = mkdtempSync(join(tmpdir(), "siphon-usage-"));
    homes.push(home);
    const path = join(home, "siphon.db");
    const now = Math.floor(Date.now() / 1000) * 1000;
    const first = openSqliteStore(path);
    for (let i = 0; i < 5; i++) {
      expect((await first.usage.takeBurstSlot("key:k1", now + i, HOUR, 5)).allowed).toBe(true);
      await first.usage.logRequest({
        accountId: "a1",
        keyId: "k1",
        route: "fetch",
        status: 200,
        durationMs: 1,
        credits: 1,
        at: now + i,
      });
    }
    await first.close();
    const second = openSqliteStore(path);
    const verdict = await second.usage.takeBurstSlot("key:k1", now + 10, HOUR, 5);
    // The five share one log row (same key, route, status and second), timed at its last request:
    // restored, the window frees its slots no earlier than the exact one would.
    expect(verdict).toEqual({ allowed: false, used: 5, oldestExpiresAt: now + 4 + HOUR });
    expect((await second.usage.takeBurstSlot("key:k2", now + 10, HOUR, 5)).allowed).toBe(true);
    expect((await second.usage.stats("a1")).totalRequests).toBe(5);
    await second.close();
    const db = new Database(path);
    expect(db.query("SELECT count(*) AS rows, sum(count) AS requests FROM request_log").get()).toEqual({
      rows: 1,
      requests: 5,
    });
    db.close();
  });

  test("interleaved requests of several keys, statuses and seconds each land in their own row", async () => {
    const home = mkdtempSync(join(tmpdir(), "siphon-usage-"));
    homes.push(home);
    const path = join(home, "siphon.db");
    const store = openSqliteStore(path);
    const at = Math.floor(Date.now() / 1000) * 1000;
    const log = (keyId: string | null, status: number, offset: number) =>
      store.usage.logRequest({
        accountId: keyId === "k3" ? "a2" : "a1",
        keyId,
        route: "fetch",
        status,
        durationMs: 1,
        credits: 0,
        at: at + offset,
      });
    for (const [keyId, status, offset] of [
      ["k1", 200, 0],
      ["k1", 200, 1],
      ["k2", 200, 2],
      ["k1", 200, 3],
      ["k1", 429, 4],
      ["k1", 200, 5],
      [null, 200, 6],
      ["k1", 200, 1500],
      ["k1", 200, 7],
      ["k3", 200, 8],
    ] as const)
      await log(keyId, status, offset);
    await store.close();
    const db = new Database(path);
    const rows = db
      .query(
        "SELECT coalesce(key_id, account_id) AS who, status, at / 1000 - ?1 AS second, count FROM request_log ORDER BY who, status, second",
      )
      .all(at / 1000);
    expect(rows).toEqual([
      { who: "a1", status: 200, second: 0, count: 1 },
      { who: "k1", status: 200, second: 0, count: 5 },
      { who: "k1", status: 200, second: 1, count: 1 },
      { who: "k1", status: 429, second: 0, count: 1 },
      { who: "k2", status: 200, second: 0, count: 1 },
      { who: "k3", status: 200, second: 0, count: 1 },
    ]);
    db.close();
  });
});

import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "./sqlite.ts";
import { sqliteCache } from "./sqlite-cache.ts";

const DAY = 86_400_000;
const KB = 1024;

let home: string;
let path: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "siphon-cache-"));
  path = join(home, "siphon.db");
  // Creates and migrates the file; the caches below open it with their own limits.
  openSqliteStore(path).close();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Total bytes on disk as the cache accounts them, and the keys present. */
function contents(db: Database): { bytes: number; keys: string[] } {
  const rows = db
    .query<{ key: string; size: number }, []>("SELECT key, size FROM cache_entries ORDER BY key")
    .all();
  return { bytes: rows.reduce((sum, row) => sum + row.size, 0), keys: rows.map((row) => row.key) };
}

const body = (kb: number) => new Uint8Array(kb * KB).fill(97);

describe("sqlite cache", () => {
  test("keeps the bytes and the value, and returns them", async () => {
    const db = new Database(path);
    const cache = sqliteCache(db, { maxBytes: 1024 * KB, maxAgeMs: 30 * DAY });
    await cache.set("k", "https://a.example/", { value: { status: 200 }, body: body(3), createdAt: 1_000 });
    const entry = await cache.get<{ status: number }>("k", 2_000);
    expect(entry?.value).toEqual({ status: 200 });
    expect(entry?.body?.byteLength).toBe(3 * KB);
    expect(entry?.createdAt).toBe(1_000);
    db.close();
  });

  test("past the size cap, the least recently used entries go, and the cache stays under the cap", async () => {
    const db = new Database(path);
    const cap = 100 * KB;
    const cache = sqliteCache(db, { maxBytes: cap, maxAgeMs: 30 * DAY });
    let t = 1_000_000;
    for (let i = 0; i < 8; i++) {
      t += 1_000;
      await cache.set(`k${i}`, "https://a.example/", { value: i, body: body(10), createdAt: t });
    }
    // k0 and k1 are read later (more than a minute on), so they are the most recently used.
    t += 120_000;
    expect(await cache.get("k0", t)).not.toBeNull();
    expect(await cache.get("k1", t)).not.toBeNull();
    // Writing past the cap evicts the oldest unread entries first.
    for (let i = 8; i < 12; i++) {
      t += 1_000;
      await cache.set(`k${i}`, "https://a.example/", { value: i, body: body(10), createdAt: t });
    }
    const { bytes, keys } = contents(db);
    expect(bytes).toBeLessThanOrEqual(cap);
    expect(keys).toContain("k0");
    expect(keys).toContain("k1");
    expect(keys).toContain("k11");
    expect(keys).not.toContain("k2");
    expect(keys).not.toContain("k3");
    db.close();
  });

  test("an entry bigger than the whole cache is not stored", async () => {
    const db = new Database(path);
    const cache = sqliteCache(db, { maxBytes: 10 * KB, maxAgeMs: 30 * DAY });
    await cache.set("small", "https://a.example/", { value: 1, body: body(2), createdAt: 1 });
    await cache.set("huge", "https://a.example/", { value: 2, body: body(50), createdAt: 2 });
    expect(contents(db).keys).toEqual(["small"]);
    db.close();
  });

  test("entries older than the longest maxAge are never returned and are swept on a write", async () => {
    const db = new Database(path);
    const cache = sqliteCache(db, { maxBytes: 1024 * KB, maxAgeMs: 30 * DAY });
    await cache.set("old", "https://a.example/", { value: 1, body: body(1), createdAt: 0 });
    expect(await cache.get("old", 30 * DAY - 1)).not.toBeNull();
    expect(await cache.get("old", 30 * DAY + 1)).toBeNull();
    await cache.set("new", "https://a.example/", { value: 2, body: body(1), createdAt: 31 * DAY });
    expect(contents(db).keys).toEqual(["new"]);
    db.close();
  });

  test("the running size survives a reopen: a second process evicts by what is on disk", async () => {
    const first = new Database(path);
    const cap = 50 * KB;
    const a = sqliteCache(first, { maxBytes: cap, maxAgeMs: 30 * DAY });
    for (let i = 0; i < 4; i++) await a.set(`a${i}`, "u", { value: i, body: body(10), createdAt: 1_000 + i });
    first.close();
    const second = new Database(path);
    const b = sqliteCache(second, { maxBytes: cap, maxAgeMs: 30 * DAY });
    for (let i = 0; i < 3; i++) await b.set(`b${i}`, "u", { value: i, body: body(10), createdAt: 2_000 + i });
    const { bytes, keys } = contents(second);
    expect(bytes).toBeLessThanOrEqual(cap);
    expect(keys).toContain("b2");
    expect(keys).not.toContain("a0");
    second.close();
  });
});

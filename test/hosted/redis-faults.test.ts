/**
 * Redis going away: store calls that need it fail fast with store_unavailable
 * (the server answers a format-B 503), calls that do not need it go on, and
 * service resumes by itself once Redis is back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SiphonError } from "../../src/errors.ts";
import { withRedis } from "../../src/store/redis-store.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { redisBin, startRedis, type TestRedis } from "../helpers/redis.ts";

/** The error `call` rejects with, and how long it took to reject. */
async function failure(call: () => unknown): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await call();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error("expected the call to fail");
}

/** Retries `call` until it succeeds, up to `ms`. */
async function eventually<T>(call: () => Promise<T>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await Bun.sleep(50);
    }
  }
}

const unavailable = (error: unknown) => error instanceof SiphonError && error.type === "store_unavailable";

describe.skipIf(!redisBin())("Redis going away", () => {
  let redis: TestRedis;
  const closing: { close(): Promise<void> }[] = [];
  const homes: string[] = [];
  const home = () => {
    const dir = mkdtempSync(join(tmpdir(), "siphon-redis-faults-"));
    homes.push(dir);
    return dir;
  };
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterEach(async () => {
    await redis.start().catch(() => {});
    for (const c of closing.splice(0)) await c.close().catch(() => {});
  }, 30_000);
  afterAll(async () => {
    await redis?.close();
    for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test("opening a store on a Redis that is not there fails with store_unavailable, naming neither host nor port", async () => {
    await redis.stop();
    const base = openSqliteStore(join(home(), "siphon.db"));
    closing.push(base);
    const { error, ms } = await failure(() => withRedis(base, redis.url(), { connectTimeoutMs: 1_000 }));
    expect(unavailable(error)).toBe(true);
    expect(ms).toBeLessThan(3_000);
    expect((error as SiphonError).message).not.toContain(String(redis.port));
  });

  test("a stopped Redis fails the calls that need it at once; the rest go on; a restarted one serves again", async () => {
    const store: Store = await withRedis(openSqliteStore(join(home(), "siphon.db")), redis.url());
    closing.push(store);
    const now = Date.now();
    expect((await store.usage.takeBurstSlot("key:k", now, 3_600_000, 10)).allowed).toBe(true);
    expect(await store.usage.addCredits("acct_f", 0, 3)).toBe(3);
    await redis.stop();
    const calls: [string, () => unknown][] = [
      ["usage.takeBurstSlot", () => store.usage.takeBurstSlot("key:k", now, 3_600_000, 10)],
      ["usage.peekBurst", () => store.usage.peekBurst("key:k", now, 3_600_000)],
      ["usage.weeklyCredits", () => store.usage.weeklyCredits("acct_f", 0)],
      ["cache.get", () => store.cache.get("k", now)],
      ["cache.set", () => store.cache.set("k", "u", { value: 1, createdAt: now })],
    ];
    for (const [name, call] of calls) {
      const { error, ms } = await failure(call);
      expect({ name, unavailable: unavailable(error) }).toEqual({ name, unavailable: true });
      expect(ms).toBeLessThan(500);
      expect((error as SiphonError).status).toBe(503);
    }
    // The credits are durable in the store: charging works and counts while Redis is away.
    expect(await store.usage.addCredits("acct_f", 0, 2)).toBe(5);
    expect(await store.jobs.get("job_x")).toBeNull();
    await redis.start();
    // Redis came back empty (no persistence): the weekly counter is read again from the store.
    expect(await eventually(async () => store.usage.weeklyCredits("acct_f", 0))).toBe(5);
    expect((await store.usage.takeBurstSlot("key:k", now, 3_600_000, 10)).allowed).toBe(true);
    await store.cache.set("k", "u", { value: 2, createdAt: now });
    expect((await store.cache.get("k", now))?.value).toBe(2);
  }, 30_000);

  test("the server answers a 503 in format B while Redis is down, and serves again when it is back", async () => {
    const app: TestApp = await startTestApp({ redisUrl: redis.url(), auth: "required" });
    closing.push(app);
    const { key } = await app.createKey("free");
    const usage = () => app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${key}` } });
    expect((await usage()).status).toBe(200);
    await redis.stop();
    const started = performance.now();
    const down = await usage();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    const body = await errorOf(down);
    expect(body.type).toBe("store_unavailable");
    expect(body.message).toContain("Redis");
    expect(app.logs.join("\n")).not.toContain("internal");
    await redis.start();
    const back = await eventually(async () => {
      const response = await usage();
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      return response;
    });
    expect(back.status).toBe(200);
  }, 30_000);
});

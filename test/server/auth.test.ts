import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { issueKey } from "../../src/auth/keys.ts";
import { UNLIMITED } from "../../src/auth/plans.ts";
import { ensureLocalAccount, LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { weekStart } from "../../src/auth/week.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

let site: FixtureSite;
const apps: TestApp[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await site.stop();
});

async function app(overrides: Parameters<typeof startTestApp>[0] = {}, clock = new TestClock()) {
  const started = await startTestApp({ auth: "required", ...overrides }, clock);
  apps.push(started);
  return started;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const fetchUrl = (path: string, extra = "") =>
  `/v1/fetch?url=${encodeURIComponent(`${site.url}${path}`)}${extra}`;

describe("authentication", () => {
  test("every auth branch answers the right 401", async () => {
    const a = await app();
    const { key } = await a.createKey();
    const cases: [Record<string, string>, number, string | null][] = [
      [{}, 401, "unauthorized"],
      [{ authorization: "Bearer" }, 401, "unauthorized"],
      [{ authorization: "Basic dXNlcjpwYXNz" }, 401, "unauthorized"],
      [{ authorization: "Bearer not-a-siphon-key" }, 401, "unauthorized"],
      [{ "x-api-key": "" }, 401, "unauthorized"],
      [bearer(`sph_live_${"A".repeat(32)}`), 401, "invalid_token"],
      [bearer(key), 200, null],
      [{ "x-api-key": key }, 200, null],
      [{ authorization: `bearer   ${key}  ` }, 200, null],
    ];
    for (const [headers, status, type] of cases) {
      const res = await a.request(fetchUrl("/article"), { headers });
      expect(res.status).toBe(status);
      if (type) expect((await errorOf(res)).type).toBe(type);
    }
  });

  test("revocation takes effect on the next request", async () => {
    const a = await app();
    const { key, keyId } = await a.createKey();
    expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(200);
    await a.store.accounts.revokeKey(keyId, Date.now());
    const res = await a.request(fetchUrl("/article"), { headers: bearer(key) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/revoked/);
  });

  test("revocation from another process (the CLI on the same file) takes effect on the next request", async () => {
    const a = await app();
    const { key, keyId } = await a.createKey();
    // Two requests: the first records last-used, the second is answered from the warm in-process memo.
    for (let i = 0; i < 2; i++)
      expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(200);
    const other = openSqliteStore(join(a.home, "siphon.db"));
    await other.accounts.revokeKey(keyId, Date.now());
    await other.close();
    // A real request arrives as a new event-loop task (a socket read); in process, yield one.
    await Bun.sleep(1);
    expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(401);
  });

  test("test keys work in development and are refused in production", async () => {
    const dev = await app();
    const devKey = await dev.createKey("free", "test");
    expect((await dev.request(fetchUrl("/article"), { headers: bearer(devKey.key) })).status).toBe(200);
    const prod = await app({ environment: "production" });
    const prodKey = await prod.createKey("free", "test");
    const res = await prod.request(fetchUrl("/article"), { headers: bearer(prodKey.key) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).type).toBe("invalid_token");
  });

  test("optional mode: no key runs as the local account, a bad key is still 401, stats always need a key", async () => {
    const a = await app({ auth: "optional", localTier: "pro" });
    const open = await a.request(fetchUrl("/article"));
    expect(open.status).toBe(200);
    expect(open.headers.get("x-service-plan")).toBe("pro");
    expect((await a.request(fetchUrl("/article"), { headers: bearer("sph_live_nope") })).status).toBe(401);
    expect((await a.request("/v1/stats")).status).toBe(401);
    expect((await a.request("/health")).status).toBe(200);
  });

  test("the default mode follows the bind address", async () => {
    const loopback = await startTestApp({ host: "127.0.0.1" });
    apps.push(loopback);
    expect((await loopback.request(fetchUrl("/article"))).status).toBe(200);
    const open = await startTestApp({ host: "0.0.0.0" });
    apps.push(open);
    expect((await open.request(fetchUrl("/article"))).status).toBe(401);
    expect((await open.request("/health")).status).toBe(200);
  });

  test("off mode neither authenticates nor meters", async () => {
    const a = await app({ auth: "off" });
    const res = await a.request(fetchUrl("/article"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-used")).toBeNull();
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    // No key is checked on any route (DECISIONS.md): stats are the local account's.
    expect((await a.request("/v1/stats")).status).toBe(200);
  });

  test("a loopback daemon refuses a Host header that is not a loopback name", async () => {
    const a = await app({ auth: "optional" });
    const res = await a.request("/health", { headers: { host: "evil.example" } });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).type).toBe("forbidden_host");
    expect((await a.request("/health", { headers: { host: "127.0.0.1:3000" } })).status).toBe(200);
  });
});

describe("usage headers, burst window and weekly quota", () => {
  test("a metered response carries every usage header; a cache hit costs no credit", async () => {
    const a = await app();
    const { key } = await a.createKey("pro");
    const first = await a.request(fetchUrl("/docs"), { headers: bearer(key) });
    expect(first.status).toBe(200);
    const h = Object.fromEntries(first.headers.entries());
    expect(h).toMatchObject({
      "x-credits-used": "1",
      "x-service-plan": "pro",
      "x-weekly-limit": "1250",
      "x-weekly-used": "1",
      "x-weekly-remaining": "1249",
      "x-weekly-resets-at": "2026-11-23T00:00:00.000Z",
      "x-burst-limit": "100",
      "x-burst-used": "1",
      "x-burst-remaining": "99",
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "99",
      "x-fetch-type": "basic",
      "x-cache": "MISS",
    });
    expect(Number(h["x-ratelimit-reset"])).toBe(Math.ceil((Date.UTC(2026, 10, 18, 12) + 3_600_000) / 1000));
    expect(h["x-processing-time"]).toMatch(/^\d+$/);
    const second = await a.request(fetchUrl("/docs"), { headers: bearer(key) });
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("x-credits-used")).toBe("0");
    expect(second.headers.get("x-weekly-used")).toBe("1");
    expect(second.headers.get("x-burst-used")).toBe("2");
  });

  test("the burst limit is hard: 429 with Retry-After, and the window slides", async () => {
    const clock = new TestClock();
    const a = await app({}, clock);
    const { key } = await a.createKey("free");
    for (let i = 0; i < 25; i++) {
      expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(200);
      clock.advance(60_000);
    }
    const refused = await a.request(fetchUrl("/article"), { headers: bearer(key) });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).type).toBe("rate_limited");
    // The first request left at t0; 25 minutes later the window frees its slot in 3600 - 1500 s.
    expect(refused.headers.get("retry-after")).toBe(String(3600 - 25 * 60));
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("25");
    clock.advance((3600 - 25 * 60) * 1000);
    expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(200);
    expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(429);
    expect((await a.request("/health", { headers: bearer(key) })).status).toBe(200);
    expect((await a.request("/v1/cli/usage", { headers: bearer(key) })).status).toBe(200);
  });

  test("exact under concurrency: 200 parallel requests against a limit of 25 let exactly 25 through", async () => {
    const a = await app();
    const { key } = await a.createKey("free");
    await a.request(fetchUrl("/forum"), { headers: bearer((await a.createKey("max")).key) });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        a.request(fetchUrl("/forum"), { headers: bearer(key) }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(statuses.filter((s) => s === 429)).toHaveLength(175);
  });

  test("past the weekly quota a request that wanted the browser runs HTTP-only and says so; Monday resets it", async () => {
    const clock = new TestClock();
    const a = await app({ plans: JSON.stringify({ free: { weeklyQuota: 2 } }) }, clock);
    const { key } = await a.createKey("free");
    for (const path of ["/article", "/docs"]) {
      expect((await a.request(fetchUrl(path, "&maxAge=0"), { headers: bearer(key) })).status).toBe(200);
    }
    const degraded = await a.request(fetchUrl("/article", "&render=true&maxAge=0"), { headers: bearer(key) });
    expect(degraded.status).toBe(200);
    expect(((await degraded.json()) as { method: string }).method).toBe("simple");
    expect(degraded.headers.get("x-soft-limited")).toBe("true");
    expect(degraded.headers.get("x-degraded")).toMatch(/Weekly quota.*skipped/);
    expect(degraded.headers.get("x-weekly-remaining")).toBe("0");
    const shot = await a.request("/v1/screenshot", {
      method: "POST",
      headers: bearer(key),
      body: JSON.stringify({ url: `${site.url}/article` }),
    });
    expect(shot.status).toBe(429);
    expect(Number(shot.headers.get("retry-after"))).toBeGreaterThan(0);
    clock.ms = Date.UTC(2026, 10, 23, 0, 0, 1);
    const fresh = await a.request(fetchUrl("/article", "&maxAge=0"), { headers: bearer(key) });
    expect(fresh.headers.get("x-soft-limited")).toBeNull();
    expect(fresh.headers.get("x-weekly-used")).toBe("1");
    expect(fresh.headers.get("x-weekly-resets-at")).toBe("2026-11-30T00:00:00.000Z");
  });

  test("with extra usage, full features continue and the charge is reported", async () => {
    const a = await app({ plans: JSON.stringify({ free: { weeklyQuota: 1, extraPricePerRequest: 0.25 } }) });
    const { key, accountId } = await a.createKey("free");
    await a.store.accounts.setExtraUsage(accountId, true, 1_000_000);
    await a.request(fetchUrl("/article", "&maxAge=0"), { headers: bearer(key) });
    const extra = await a.request(fetchUrl("/article", "&maxAge=0"), { headers: bearer(key) });
    expect(extra.headers.get("x-soft-limited")).toBeNull();
    expect(extra.headers.get("x-extra-usage-charged")).toBe("0.25");
    expect(extra.headers.get("x-extra-usage-new-balance")).toBe("0.75");
  });
});

/** The numeric usage headers of a response, each checked to be a plain non-negative integer. */
function numericHeaders(res: Response): Record<string, number> {
  const values: Record<string, number> = {};
  for (const name of [
    "x-credits-used",
    "x-weekly-limit",
    "x-weekly-used",
    "x-weekly-remaining",
    "x-burst-limit",
    "x-burst-used",
    "x-burst-remaining",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
  ]) {
    const text = res.headers.get(name);
    expect(text, name).toMatch(/^\d+$/);
    values[name] = Number(text);
  }
  return values;
}

describe("the local account is unlimited by default", () => {
  test("a keyless loopback daemon serves past the max plan's burst; headers stay numeric; usage and stats count it", async () => {
    const clock = new TestClock();
    const a = await app({ auth: "optional" }, clock);
    for (let i = 0; i < 600; i++) {
      const res = await a.request(fetchUrl("/article"));
      if (res.status !== 200) throw new Error(`request ${i + 1} answered ${res.status}`);
      await res.arrayBuffer();
      clock.advance(1);
    }
    const last = await a.request(fetchUrl("/article"));
    expect(last.status).toBe(200);
    expect(last.headers.get("x-service-plan")).toBe("unlimited");
    expect(last.headers.get("x-cache")).toBe("HIT");
    expect(last.headers.get("x-soft-limited")).toBeNull();
    expect(numericHeaders(last)).toMatchObject({
      "x-credits-used": 0,
      "x-weekly-limit": UNLIMITED,
      "x-weekly-used": 1,
      "x-weekly-remaining": UNLIMITED - 1,
      "x-burst-limit": UNLIMITED,
      "x-burst-used": 0,
      "x-burst-remaining": UNLIMITED,
      "x-ratelimit-limit": UNLIMITED,
      "x-ratelimit-remaining": UNLIMITED,
      "x-ratelimit-reset": Math.ceil(clock.ms / 1000),
    });

    const usageOf = async () => (await a.request("/v1/cli/usage")).json();
    expect(await usageOf()).toEqual({
      plan: { tier: "unlimited", weeklyLimit: UNLIMITED, burstLimit: UNLIMITED },
      weekly: {
        used: 1,
        limit: UNLIMITED,
        remaining: UNLIMITED - 1,
        resetsAt: "2026-11-23T00:00:00.000Z",
        percentUsed: 0,
      },
      // The hour's requests, counted from the request log: no window is kept for an unlimited account.
      burst: { used: 601, limit: UNLIMITED, resetsIn: "1h" },
      canFetch: true,
      upgradeUrl: "https://siphon.dev/pricing",
    });
    clock.advance(1);
    await a.request(fetchUrl("/article"));
    expect(await usageOf()).toMatchObject({ burst: { used: 602 } });

    // /v1/stats always needs a key: one added to the local account reads its log, keyless requests included.
    const { key } = await issueKey(a.store.accounts, {
      accountId: LOCAL_ACCOUNT_ID,
      name: "stats",
      kind: "live",
      now: clock.ms,
    });
    const stats = await a.request("/v1/stats", { headers: bearer(key) });
    expect(((await stats.json()) as { totalRequests: number }).totalRequests).toBe(602);
    // That key is on the local account's plan too.
    const keyed = await a.request(fetchUrl("/article"), { headers: bearer(key) });
    expect(keyed.headers.get("x-service-plan")).toBe("unlimited");
  }, 60_000);

  test("past any plan's weekly quota the local account is never degraded; its screenshots are not refused", async () => {
    const clock = new TestClock();
    const a = await app({ auth: "optional" }, clock);
    await a.store.usage.addCredits(LOCAL_ACCOUNT_ID, weekStart(clock.ms), 10_000);
    const res = await a.request(fetchUrl("/article", "&maxAge=0"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-soft-limited")).toBeNull();
    expect(res.headers.get("x-degraded")).toBeNull();
    expect(res.headers.get("x-weekly-used")).toBe("10001");
    // On a metered plan this answers 429 before any browser work; here it runs (or finds no browser).
    const shot = await a.request("/v1/screenshot", {
      method: "POST",
      body: JSON.stringify({ url: `${site.url}/article`, timeout: 15_000 }),
    });
    expect(shot.status).not.toBe(429);
  }, 60_000);

  test("the local account's crawl past the weekly quota keeps full features; on a plan it runs HTTP-only", async () => {
    // No browser here: a page that asks for rendering fails unless the quota made it HTTP-only.
    const crawl = async (localTier?: string) => {
      const clock = new TestClock();
      const a = await app({ auth: "optional", chromiumPath: "/nonexistent/chromium", localTier }, clock);
      // A store from before unlimited existed: the local account's row says max.
      await ensureLocalAccount(a.store, "max", clock.ms);
      await a.store.usage.addCredits(LOCAL_ACCOUNT_ID, weekStart(clock.ms), 10_000);
      const started = await a.request("/v1/crawl", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/article`, maxDepth: 0, scrapeOptions: { render: true } }),
      });
      expect(started.status).toBe(202);
      const { id } = (await started.json()) as { id: string };
      for (let i = 0; i < 200; i++) {
        const poll = (await (await a.request(`/v1/crawl/${id}`)).json()) as {
          status: string;
          completed: number;
          failed: number;
        };
        if (["completed", "failed"].includes(poll.status)) return poll;
        await Bun.sleep(50);
      }
      throw new Error("the crawl did not finish");
    };
    expect(await crawl()).toMatchObject({ status: "failed", failed: 1 });
    expect(await crawl("max")).toMatchObject({ status: "completed", completed: 1, failed: 0 });
  }, 60_000);

  test("SIPHON_LOCAL_TIER=free meters the local account as before: the 26th keyless request in the hour is 429", async () => {
    const clock = new TestClock();
    const a = await app({ auth: "optional", localTier: "free" }, clock);
    for (let i = 0; i < 25; i++) {
      const res = await a.request(fetchUrl("/article"));
      expect(res.status).toBe(200);
      expect(res.headers.get("x-service-plan")).toBe("free");
      clock.advance(60_000);
    }
    const refused = await a.request(fetchUrl("/article"));
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).type).toBe("rate_limited");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("25");
  });

  test("a key on the free plan is still limited while the local account is not; a key may be unlimited", async () => {
    const a = await app({ auth: "optional" });
    const { key } = await a.createKey("free");
    for (let i = 0; i < 25; i++)
      expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(200);
    expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(429);
    const unlimited = (await a.createKey("unlimited")).key;
    for (let i = 0; i < 60; i++) {
      expect((await a.request(fetchUrl("/article"))).status).toBe(200);
      const res = await a.request(fetchUrl("/article"), { headers: bearer(unlimited) });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-service-plan")).toBe("unlimited");
    }
    expect((await a.request(fetchUrl("/article"), { headers: bearer(key) })).status).toBe(429);
  });

  test("SIPHON_PLANS cannot give the unlimited tier limits", async () => {
    const refused = await startTestApp({ plans: JSON.stringify({ unlimited: { weeklyQuota: 5 } }) }).catch(
      (error) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused.message)).toMatch(/unlimited tier/);
  });
});

describe("usage and stats endpoints", () => {
  test("GET /v1/cli/usage answers the SPEC shape and is not metered", async () => {
    const a = await app({ upgradeUrl: "https://example.test/upgrade" });
    const { key } = await a.createKey("pro");
    await a.request(fetchUrl("/article", "&maxAge=0"), { headers: bearer(key) });
    const res = await a.request("/v1/cli/usage", { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-used")).toBeNull();
    const body = await res.json();
    expect(body).toEqual({
      plan: { tier: "pro", weeklyLimit: 1250, burstLimit: 100 },
      weekly: {
        used: 1,
        limit: 1250,
        remaining: 1249,
        resetsAt: "2026-11-23T00:00:00.000Z",
        percentUsed: 0.1,
      },
      burst: { used: 1, limit: 100, resetsIn: "1h" },
      canFetch: true,
      upgradeUrl: "https://example.test/upgrade",
    });
  });

  test("GET /v1/stats counts the account's requests, successes and timing", async () => {
    const a = await app();
    const { key } = await a.createKey("pro");
    const answers = [
      await a.request(fetchUrl("/article"), { headers: bearer(key) }),
      await a.request(fetchUrl("/slow?ms=300"), { headers: bearer(key) }),
      await a.request("/v1/fetch?url=http://127.0.0.1:1/", { headers: bearer(key) }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 502]);
    const res = await a.request("/v1/stats", { headers: bearer(key) });
    expect(res.status).toBe(200);
    const stats = (await res.json()) as {
      totalRequests: number;
      successRate: number;
      avgResponseTime: number;
    };
    expect(stats.totalRequests).toBe(3);
    expect(stats.successRate).toBeCloseTo(66.7, 1);
    // The slow page alone took 300 ms of the three requests' time, and none took longer than it reported.
    const reported = answers.map((r) => Number(r.headers.get("x-processing-time")));
    expect(stats.avgResponseTime).toBeGreaterThanOrEqual(100);
    const meanReported = reported.reduce((sum, ms) => sum + ms, 0) / reported.length;
    expect(stats.avgResponseTime).toBeLessThanOrEqual(Math.ceil(meanReported) + 1);
  });
});

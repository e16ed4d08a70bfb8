/**
 * The store contract: what every implementation of the interfaces in
 * src/store/types.ts must do, observable through those interfaces alone. It
 * runs unchanged on each backend (sqlite.contract.test.ts, pg.contract.test.ts);
 * behaviour only one backend has stays in that backend's own tests.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { hashKey } from "../../src/auth/keys.ts";
import { weekStart } from "../../src/auth/week.ts";
import { MAX_CACHE_AGE_MS } from "../../src/schemas/fetch.ts";
import type { Account, ApiKeyInfo, NewJob, PageSnapshot, Store } from "../../src/store/types.ts";
import { readWhileFinishing } from "../helpers/read-while-finishing.ts";

/** A fresh, empty database of one backend. */
export interface Database {
  /** Opens a store on this database; again, it is another process (or the same after a restart). */
  open(options?: { cacheMaxBytes?: number }): Promise<Store>;
}

export interface Backend {
  /** A fresh, empty database; the backend removes it when the run ends. */
  fresh(): Promise<Database>;
}

const HOUR = 3_600_000;
const KB = 1024;
/** A time in the past that no window or age check in these tests reaches back to. */
const T0 = 1_800_000_000_000;

const account = (id: string, over: Partial<Account> = {}): Account => ({
  id,
  name: id,
  tier: "pro",
  extraUsageEnabled: false,
  extraBalanceMicros: 0,
  createdAt: T0,
  ...over,
});

const keyInfo = (id: string, key: string, over: Partial<ApiKeyInfo> = {}): ApiKeyInfo => ({
  id,
  accountId: "acct_t",
  name: id,
  prefix: key.slice(0, 13),
  kind: "live",
  createdAt: T0,
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});

const newJob = (over: Partial<NewJob> = {}): NewJob => ({
  id: "job_1",
  type: "crawl",
  status: "queued",
  accountId: "acct_a",
  keyId: "key_a",
  input: { url: "https://a.example/", limit: 10 },
  webhook: null,
  error: null,
  createdAt: T0,
  updatedAt: T0,
  finishedAt: null,
  expiresAt: null,
  ...over,
});

const snap = (over: Partial<PageSnapshot> = {}): PageSnapshot => ({
  accountId: "acct_a",
  url: "https://example.com/page",
  tag: "",
  markdown: "# Page",
  statusCode: 200,
  scrapedAt: 1000,
  ...over,
});

const urls = (prefix: string, n: number, depth = 0) =>
  Array.from({ length: n }, (_, i) => ({ url: `https://a.example/${prefix}${i}`, depth }));

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
}

/** Waits until `check` holds, up to `ms`; answers whether it did. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 2_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await Bun.sleep(5);
  }
  return check();
}

/** Defines the contract suite for one backend. */
export function storeContract(name: string, backend: () => Backend): void {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0).reverse()) await store.close().catch(() => {});
  });

  /** A database and a first store on it; `another` opens a second store on the same database. */
  async function fresh(options?: { cacheMaxBytes?: number }) {
    const db = await backend().fresh();
    const another = async (opts = options) => {
      const store = await db.open(opts);
      open.push(store);
      return store;
    };
    return { store: await another(), another, db };
  }

  /** Two keys of one account, written as `issueKey` writes them, with known text. */
  async function twoKeys(store: Store) {
    await store.accounts.createAccount(account("acct_t"));
    const make = async (key: string, id: string, createdAt: number) => {
      const info = keyInfo(id, key, { createdAt });
      await store.accounts.createKey(info, hashKey(key));
      return { key, info };
    };
    return {
      first: await make(`sph_live_Ab3d${"q".repeat(28)}`, "key_Xy7zQ1w2e3r4", T0 + 1),
      second: await make(`sph_live_Cd5f${"q".repeat(28)}`, "key_Pz8aR5t6y7u8", T0 + 2),
    };
  }

  describe(`${name}: AccountStore`, () => {
    test("an account reads back as created; an unknown id is null", async () => {
      const { store } = await fresh();
      const created = account("acct_a", {
        tier: "starter",
        extraUsageEnabled: true,
        extraBalanceMicros: 5_000_000,
      });
      await store.accounts.createAccount(created);
      expect(await store.accounts.getAccount("acct_a")).toEqual(created);
      expect(await store.accounts.getAccount("acct_b")).toBeNull();
    });

    test("chargeExtra adds and takes, and refuses (null, balance kept) what would go below zero", async () => {
      const { store } = await fresh();
      await store.accounts.createAccount(account("acct_a", { extraBalanceMicros: 100 }));
      expect(await store.accounts.chargeExtra("acct_a", -30)).toBe(70);
      expect(await store.accounts.chargeExtra("acct_a", 50)).toBe(120);
      expect(await store.accounts.chargeExtra("acct_a", -121)).toBeNull();
      expect((await store.accounts.getAccount("acct_a"))?.extraBalanceMicros).toBe(120);
      expect(await store.accounts.chargeExtra("acct_a", -120)).toBe(0);
      expect(await store.accounts.chargeExtra("acct_missing", -1)).toBeNull();
    });

    test("concurrent charges from two processes never overdraw: exactly the balance is spent", async () => {
      const { store, another } = await fresh();
      const other = await another();
      await store.accounts.createAccount(account("acct_a", { extraBalanceMicros: 100 }));
      const charges = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).accounts.chargeExtra("acct_a", -10)),
      );
      expect(charges.filter((c) => c !== null).length).toBe(10);
      expect((await store.accounts.getAccount("acct_a"))?.extraBalanceMicros).toBe(0);
    });

    test("setExtraUsage sets the flag and the balance", async () => {
      const { store } = await fresh();
      await store.accounts.createAccount(account("acct_a"));
      await store.accounts.setExtraUsage("acct_a", true, 2_500_000);
      expect(await store.accounts.getAccount("acct_a")).toMatchObject({
        extraUsageEnabled: true,
        extraBalanceMicros: 2_500_000,
      });
      await store.accounts.setExtraUsage("acct_a", false, 0);
      expect(await store.accounts.getAccount("acct_a")).toMatchObject({
        extraUsageEnabled: false,
        extraBalanceMicros: 0,
      });
    });

    test("a key is found by its hash, revoked or not, and listed oldest first without its hash", async () => {
      const { store } = await fresh();
      const { first, second } = await twoKeys(store);
      expect(await store.accounts.findKeyByHash(hashKey(first.key))).toEqual(first.info);
      expect(await store.accounts.findKeyByHash(hashKey("sph_live_unknown"))).toBeNull();
      await store.accounts.revokeKey(second.info.id, T0 + 50);
      expect(await store.accounts.findKeyByHash(hashKey(second.key))).toEqual({
        ...second.info,
        revokedAt: T0 + 50,
      });
      const listed = await store.accounts.listKeys();
      expect(listed).toEqual([first.info, { ...second.info, revokedAt: T0 + 50 }]);
      expect(JSON.stringify(listed)).not.toContain(hashKey(first.key));
    });

    test("touchKey records when a key was last used", async () => {
      const { store } = await fresh();
      const { first } = await twoKeys(store);
      await store.accounts.touchKey(first.info.id, T0 + 99);
      expect((await store.accounts.findKeyByHash(hashKey(first.key)))?.lastUsedAt).toBe(T0 + 99);
      expect((await store.accounts.listKeys()).map((k) => k.lastUsedAt)).toEqual([T0 + 99, null]);
    });

    test("revokeKey finds a key by the key itself (its hash), its id, or a unique prefix of either", async () => {
      const { store } = await fresh();
      const { first } = await twoKeys(store);
      const refs = [
        first.key,
        first.info.id,
        first.info.id.slice(0, 6),
        first.info.prefix,
        first.info.prefix.slice(0, 11),
      ];
      for (const ref of refs) {
        const matches = await store.accounts.revokeKey(ref, 100);
        expect(matches.map((k) => k.id)).toEqual([first.info.id]);
        expect(matches[0]?.revokedAt).toBe(100);
      }
      const listed = await store.accounts.listKeys();
      expect(listed.filter((k) => k.revokedAt !== null).map((k) => k.id)).toEqual([first.info.id]);
    });

    test("revoking a revoked key changes nothing: it keeps its first revocation time", async () => {
      const { store } = await fresh();
      const { first } = await twoKeys(store);
      await store.accounts.revokeKey(first.info.id, 100);
      expect((await store.accounts.revokeKey(first.info.id, 200))[0]?.revokedAt).toBe(100);
      expect((await store.accounts.findKeyByHash(hashKey(first.key)))?.revokedAt).toBe(100);
      expect(await store.accounts.revokeKey("", 300)).toEqual([]);
    });

    test("an ambiguous prefix revokes nothing and answers every key it matched", async () => {
      const { store } = await fresh();
      const { first, second } = await twoKeys(store);
      for (const ref of ["key_", "sph_live_", "sph_"]) {
        const matches = await store.accounts.revokeKey(ref, 100);
        expect(matches.map((k) => k.id).sort()).toEqual([first.info.id, second.info.id].sort());
      }
      expect((await store.accounts.listKeys()).every((k) => k.revokedAt === null)).toBe(true);
    });

    test("prefixes match exactly: case counts, and a key's text past its listed prefix is never guessed at", async () => {
      const { store } = await fresh();
      const { first } = await twoKeys(store);
      const flipped = first.info.prefix.slice(0, 9) + swapCase(first.info.prefix.slice(9));
      const others = [
        flipped,
        // The listed prefix and more of some other key: only the hash could tell, so nothing matches.
        `${first.info.prefix}zzzz`,
        // A whole key that is not in this store shares no hash, and its prefix is not looked at.
        `${first.info.prefix}${"x".repeat(28)}`,
        swapCase(first.info.id),
        // LIKE's wildcards are plain characters here.
        "key_%",
        "sph_live_A_3d",
      ];
      for (const ref of others) expect(await store.accounts.revokeKey(ref, 100)).toEqual([]);
      expect((await store.accounts.listKeys()).every((k) => k.revokedAt === null)).toBe(true);
    });

    test("generation moves with every write to accounts or keys, and holds still without one", async () => {
      const { store } = await fresh();
      const steps: [string, () => Promise<unknown>][] = [
        ["createAccount", () => store.accounts.createAccount(account("acct_t"))],
        ["createKey", () => store.accounts.createKey(keyInfo("key_1", "sph_live_x"), hashKey("sph_live_x"))],
        ["chargeExtra", () => store.accounts.chargeExtra("acct_t", 5)],
        ["setExtraUsage", () => store.accounts.setExtraUsage("acct_t", true, 10)],
        ["revokeKey", () => store.accounts.revokeKey("key_1", T0 + 1)],
      ];
      for (const [, write] of steps) {
        const before = store.accounts.generation();
        await write();
        // Seen by the next request of this process at once.
        expect(store.accounts.generation()).not.toBe(before);
      }
      // Once any echo of those writes has arrived, nothing moves it.
      await Bun.sleep(100);
      const settled = store.accounts.generation();
      await store.accounts.getAccount("acct_t");
      await store.accounts.listKeys();
      await Bun.sleep(50);
      expect(store.accounts.generation()).toBe(settled);
    });

    test("a revocation by another process moves generation, and the key reads revoked here", async () => {
      const { store, another } = await fresh();
      const { first } = await twoKeys(store);
      const cli = await another();
      expect((await store.accounts.findKeyByHash(hashKey(first.key)))?.revokedAt).toBeNull();
      await Bun.sleep(100);
      const before = store.accounts.generation();
      await cli.accounts.revokeKey(first.info.id, T0 + 7);
      expect(await eventually(() => store.accounts.generation() !== before)).toBe(true);
      expect((await store.accounts.findKeyByHash(hashKey(first.key)))?.revokedAt).toBe(T0 + 7);
    });
  });

  describe(`${name}: UsageStore`, () => {
    test("takeBurstSlot admits up to the limit, then refuses until the oldest request leaves the window", async () => {
      const { store } = await fresh();
      const u = store.usage;
      for (let i = 0; i < 3; i++)
        expect(await u.takeBurstSlot("key:k", T0 + i * 1000, HOUR, 3)).toEqual({
          allowed: true,
          used: i + 1,
          oldestExpiresAt: T0 + HOUR,
        });
      expect(await u.takeBurstSlot("key:k", T0 + 5000, HOUR, 3)).toEqual({
        allowed: false,
        used: 3,
        oldestExpiresAt: T0 + HOUR,
      });
      // The first request leaves at T0 + HOUR exactly: one slot frees.
      expect(await u.takeBurstSlot("key:k", T0 + HOUR, HOUR, 3)).toEqual({
        allowed: true,
        used: 3,
        oldestExpiresAt: T0 + 1000 + HOUR,
      });
      expect((await u.takeBurstSlot("key:k", T0 + HOUR + 1, HOUR, 3)).allowed).toBe(false);
      // Subjects are separate windows.
      expect(await u.takeBurstSlot("key:other", T0 + 5000, HOUR, 3)).toEqual({
        allowed: true,
        used: 1,
        oldestExpiresAt: T0 + 5000 + HOUR,
      });
    });

    test("requests in the same millisecond count one by one", async () => {
      const { store } = await fresh();
      for (let i = 0; i < 4; i++)
        expect((await store.usage.takeBurstSlot("key:k", T0, 1000, 4)).used).toBe(i + 1);
      expect(await store.usage.takeBurstSlot("key:k", T0, 1000, 4)).toEqual({
        allowed: false,
        used: 4,
        oldestExpiresAt: T0 + 1000,
      });
      expect((await store.usage.takeBurstSlot("key:k", T0 + 1000, 1000, 4)).used).toBe(1);
    });

    test("concurrent requests never overshoot the limit", async () => {
      const { store } = await fresh();
      const verdicts = await Promise.all(
        Array.from({ length: 30 }, (_, i) => store.usage.takeBurstSlot("key:k", T0 + i, HOUR, 10)),
      );
      expect(verdicts.filter((v) => v.allowed).length).toBe(10);
      expect((await store.usage.peekBurst("key:k", T0 + 100, HOUR)).used).toBe(10);
    });

    test("peekBurst shows the window without counting; an empty window frees now", async () => {
      const { store } = await fresh();
      expect(await store.usage.peekBurst("key:k", T0, HOUR)).toEqual({ used: 0, oldestExpiresAt: T0 });
      await store.usage.takeBurstSlot("key:k", T0, HOUR, 5);
      await store.usage.takeBurstSlot("key:k", T0 + 2000, HOUR, 5);
      for (let i = 0; i < 3; i++)
        expect(await store.usage.peekBurst("key:k", T0 + 3000, HOUR)).toEqual({
          used: 2,
          oldestExpiresAt: T0 + HOUR,
        });
      expect(await store.usage.peekBurst("key:k", T0 + HOUR + 1, HOUR)).toEqual({
        used: 1,
        oldestExpiresAt: T0 + 2000 + HOUR,
      });
    });

    test("peekBurst of a subject that only logs requests (an unlimited plan) counts them", async () => {
      const { store } = await fresh();
      const log = (keyId: string | null, at: number) =>
        store.usage.logRequest({
          accountId: "acct_u",
          keyId,
          route: "fetch",
          status: 200,
          durationMs: 3,
          credits: 1,
          at,
        });
      for (const at of [T0, T0 + 1000, T0 + 2000]) await log("key_u", at);
      await log(null, T0 + 500);
      expect(await store.usage.peekBurst("key:key_u", T0 + 3000, HOUR)).toEqual({
        used: 3,
        oldestExpiresAt: T0 + HOUR,
      });
      expect(await store.usage.peekBurst("key:key_u", T0 + HOUR + 500, HOUR)).toEqual({
        used: 2,
        oldestExpiresAt: T0 + 1000 + HOUR,
      });
      // Keyless requests are the account's own window, apart from its keys'.
      expect(await store.usage.peekBurst("account:acct_u", T0 + 3000, HOUR)).toEqual({
        used: 1,
        oldestExpiresAt: T0 + 500 + HOUR,
      });
    });

    test("the burst window survives a restart", async () => {
      const { store, another } = await fresh();
      const now = Math.floor(Date.now() / 1000) * 1000;
      for (let i = 0; i < 5; i++) {
        expect((await store.usage.takeBurstSlot("key:k1", now + i * 1000, HOUR, 5)).allowed).toBe(true);
        await store.usage.logRequest({
          accountId: "a1",
          keyId: "k1",
          route: "fetch",
          status: 200,
          durationMs: 1,
          credits: 1,
          at: now + i * 1000,
        });
      }
      await store.close();
      const restarted = await another();
      expect(await restarted.usage.takeBurstSlot("key:k1", now + 10_000, HOUR, 5)).toEqual({
        allowed: false,
        used: 5,
        oldestExpiresAt: now + HOUR,
      });
      expect((await restarted.usage.takeBurstSlot("key:k2", now + 10_000, HOUR, 5)).allowed).toBe(true);
      expect((await restarted.usage.stats("a1")).totalRequests).toBe(5);
    });

    test("weekly credits add up, per account and week, and are read back exactly", async () => {
      const { store } = await fresh();
      expect(await store.usage.weeklyCredits("a1", T0)).toBe(0);
      expect(await store.usage.addCredits("a1", T0, 2)).toBe(2);
      expect(await store.usage.addCredits("a1", T0, 3)).toBe(5);
      expect(await store.usage.weeklyCredits("a1", T0)).toBe(5);
      expect(await store.usage.weeklyCredits("a1", T0 + 7 * 24 * HOUR)).toBe(0);
      expect(await store.usage.weeklyCredits("a2", T0)).toBe(0);
    });

    test("concurrent credits from two processes all count, and each sees the other's", async () => {
      const { store, another } = await fresh();
      const other = await another();
      expect(await other.usage.weeklyCredits("a1", T0)).toBe(0);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).usage.addCredits("a1", T0, 1)),
      );
      await Bun.sleep(5);
      expect(await store.usage.weeklyCredits("a1", T0)).toBe(20);
      expect(await other.usage.weeklyCredits("a1", T0)).toBe(20);
    });

    test("stats count, rate and average over logged requests; an account without any is 100% of 0", async () => {
      const { store } = await fresh();
      const at = Math.floor(Date.now() / 1000) * 1000;
      const log = (status: number, durationMs: number, offset: number) =>
        store.usage.logRequest({
          accountId: "a1",
          keyId: "k1",
          route: "fetch",
          status,
          durationMs,
          credits: 1,
          at: at + offset,
        });
      for (let i = 0; i < 3; i++) await log(200, 10, i);
      await log(429, 50, 5);
      await log(200, 30, 2500);
      expect(await store.usage.stats("a1")).toEqual({
        totalRequests: 5,
        successRate: 80,
        avgResponseTime: 22,
      });
      expect(await store.usage.stats("other")).toEqual({
        totalRequests: 0,
        successRate: 100,
        avgResponseTime: 0,
      });
    });

    test("daily counts requests and successes per UTC day from a day on, oldest first", async () => {
      const { store } = await fresh();
      const day = 86_400_000;
      const today = Math.floor(Date.now() / day) * day;
      const log = (accountId: string, status: number, at: number) =>
        store.usage.logRequest({
          accountId,
          keyId: null,
          route: "fetch",
          status,
          durationMs: 5,
          credits: 1,
          at,
        });
      await log("a1", 200, today - 3 * day + 10);
      await log("a1", 502, today - 3 * day + 20_000);
      await log("a1", 200, today - 3 * day + day - 1);
      await log("a1", 200, today + 1_000);
      await log("a1", 200, today - 10 * day);
      await log("other", 200, today + 2_000);
      expect(await store.usage.daily("a1", today - 5 * day)).toEqual([
        { day: today - 3 * day, requests: 3, succeeded: 2 },
        { day: today, requests: 1, succeeded: 1 },
      ]);
      expect(await store.usage.daily("nobody", today - 5 * day)).toEqual([]);
    });

    test("periods sum credits and LLM tokens per quota week (Monday 00:00 UTC), by key when asked", async () => {
      const { store } = await fresh();
      const week = 7 * 86_400_000;
      // 2027-01-04 was a Monday.
      const monday = Date.UTC(2027, 0, 4);
      const log = (keyId: string | null, at: number, credits: number, tokens: number, route = "fetch") =>
        store.usage.logRequest({
          accountId: "a1",
          keyId,
          route,
          status: 200,
          durationMs: 1,
          credits,
          tokens,
          at,
        });
      await log("k1", monday + 10, 1, 100);
      // The same key, route, status and second: one row, its tokens summed.
      await log("k1", monday + 20, 1, 50);
      await log("k2", monday + 3 * 86_400_000, 2, 0, "scrape");
      // Sunday 23:59:59.999 belongs to the week before the next Monday.
      await log(null, monday + week - 1, 1, 7);
      await log("k1", monday + week, 1, 1_000);
      await log("k1", monday - 1, 5, 5);
      await store.usage.logRequest({
        accountId: "other",
        keyId: "k9",
        route: "fetch",
        status: 200,
        durationMs: 1,
        credits: 9,
        at: monday + 5,
      });
      expect(await store.usage.periods("a1", monday, false)).toEqual([
        { start: monday, credits: 5, tokens: 157 },
        { start: monday + week, credits: 1, tokens: 1_000 },
      ]);
      expect(await store.usage.periods("a1", monday, true)).toEqual([
        { start: monday, keyId: null, credits: 1, tokens: 7 },
        { start: monday, keyId: "k1", credits: 2, tokens: 150 },
        { start: monday, keyId: "k2", credits: 2, tokens: 0 },
        { start: monday + week, keyId: "k1", credits: 1, tokens: 1_000 },
      ]);
      expect(await store.usage.periods("a1", monday - week, false)).toHaveLength(3);
      expect(await store.usage.periods("nobody", 0, false)).toEqual([]);
    });

    test("later work (count 0) adds credits and tokens to periods, and no request to stats, daily or bursts", async () => {
      const { store } = await fresh();
      const at = Math.floor(Date.now() / 1000) * 1000;
      const entry = { accountId: "a1", keyId: "k1", route: "crawl", status: 200, durationMs: 40 };
      await store.usage.logRequest({ ...entry, credits: 0, at });
      // A crawl's pages, in the same row's second and in a later one.
      await store.usage.logRequest({ ...entry, durationMs: 0, credits: 1, tokens: 30, at, count: 0 });
      await store.usage.logRequest({
        ...entry,
        durationMs: 0,
        credits: 2,
        tokens: 0,
        at: at + 1500,
        count: 0,
      });
      const week = weekStart(at);
      expect(await store.usage.periods("a1", week, true)).toEqual([
        { start: week, keyId: "k1", credits: 3, tokens: 30 },
      ]);
      expect(await store.usage.stats("a1")).toEqual({
        totalRequests: 1,
        successRate: 100,
        avgResponseTime: 40,
      });
      const daily = await store.usage.daily("a1", at - 86_400_000);
      expect(daily.reduce((sum, day) => sum + day.requests, 0)).toBe(1);
      expect((await store.usage.peekBurst("key:k1", at + 2000, 3_600_000)).used).toBe(1);
    });

    test("logged requests are kept when the store closes, and another process sees them", async () => {
      const { store, another } = await fresh();
      const at = Math.floor(Date.now() / 1000) * 1000;
      for (let i = 0; i < 4; i++)
        await store.usage.logRequest({
          accountId: "a1",
          keyId: i % 2 ? "k1" : "k2",
          route: i < 2 ? "fetch" : "search",
          status: 200,
          durationMs: 4,
          credits: 1,
          at: at + i,
        });
      await store.close();
      expect((await (await another()).usage.stats("a1")).totalRequests).toBe(4);
    });
  });

  describe(`${name}: JobStore`, () => {
    test("a job reads back as created, its items deduplicated and counted in total", async () => {
      const { store } = await fresh();
      const job = newJob({ webhook: { url: "https://hooks.example/x", events: ["completed"] }, total: 2 });
      await store.jobs.create(job, [...urls("p", 3), { url: "https://a.example/p0", depth: 1 }]);
      expect(await store.jobs.get("job_1")).toEqual({
        ...job,
        keyId: "key_a",
        total: 5,
        completed: 0,
        failed: 0,
        creditsUsed: 0,
        result: null,
      });
      // A job started without a key reads back with none.
      await store.jobs.create(newJob({ id: "job_2", keyId: undefined }), []);
      expect((await store.jobs.get("job_2"))?.keyId).toBeNull();
      expect((await store.jobs.pending("job_1", 10)).map((i) => i.url)).toEqual(
        urls("p", 3).map((u) => u.url),
      );
      expect(await store.jobs.get("job_missing")).toBeNull();
    });

    test("list: an account's jobs newest first, by type and status, up to the limit", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob({ id: "j1", createdAt: T0 + 1 }), []);
      await store.jobs.create(newJob({ id: "j2", createdAt: T0 + 2, type: "batch" }), []);
      await store.jobs.create(newJob({ id: "j3", createdAt: T0 + 3, status: "completed" }), []);
      await store.jobs.create(newJob({ id: "j4", createdAt: T0 + 4, accountId: "acct_b" }), []);
      const ids = async (filter: Partial<Parameters<Store["jobs"]["list"]>[0]>) =>
        (await store.jobs.list({ accountId: "acct_a", limit: 10, ...filter })).map((j) => j.id);
      expect(await ids({})).toEqual(["j3", "j2", "j1"]);
      expect(await ids({ type: "crawl" })).toEqual(["j3", "j1"]);
      expect(await ids({ status: "queued" })).toEqual(["j2", "j1"]);
      expect(await ids({ type: "crawl", status: "completed" })).toEqual(["j3"]);
      expect(await ids({ limit: 1 })).toEqual(["j3"]);
      expect(await ids({ accountId: "acct_c" })).toEqual([]);
    });

    test("transition moves a job only from the given states, with its patch in the same step", async () => {
      const { store } = await fresh();
      await store.jobs.create(
        newJob({ input: { url: "https://a.example/", headers: { cookie: "secret" } } }),
        [],
      );
      expect(await store.jobs.transition("job_1", ["processing"], "completed", {}, T0 + 1)).toBe(false);
      expect((await store.jobs.get("job_1"))?.status).toBe("queued");
      expect(await store.jobs.transition("job_1", ["queued"], "processing", {}, T0 + 2)).toBe(true);
      expect(await store.jobs.get("job_1")).toMatchObject({ status: "processing", updatedAt: T0 + 2 });
      const ended = {
        error: "boom",
        finishedAt: T0 + 3,
        expiresAt: T0 + 9,
        input: { url: "https://a.example/" },
      };
      expect(await store.jobs.transition("job_1", ["queued", "processing"], "failed", ended, T0 + 3)).toBe(
        true,
      );
      expect(await store.jobs.get("job_1")).toMatchObject({ status: "failed", updatedAt: T0 + 3, ...ended });
      // A terminal job stays as it ended.
      expect(await store.jobs.transition("job_1", ["queued", "processing"], "cancelled", {}, T0 + 4)).toBe(
        false,
      );
      expect(await store.jobs.get("job_1")).toMatchObject({ status: "failed", updatedAt: T0 + 3 });
      // A job whose result is made of its pages gets it with the transition that ends it.
      await store.jobs.create(newJob({ id: "job_3" }), []);
      await store.jobs.transition("job_3", ["queued"], "processing", {}, T0 + 5);
      const result = { llmsTxt: "# Site\n\n> All of it.\n", pages: 3 };
      expect(await store.jobs.transition("job_3", ["processing"], "completed", { result }, T0 + 6)).toBe(
        true,
      );
      expect(await store.jobs.get("job_3")).toMatchObject({ status: "completed", result, completed: 0 });
      // A patch without a field keeps it.
      await store.jobs.create(newJob({ id: "job_2", error: "kept" }), []);
      await store.jobs.transition("job_2", ["queued"], "processing", { finishedAt: T0 + 5 });
      expect(await store.jobs.get("job_2")).toMatchObject({
        error: "kept",
        finishedAt: T0 + 5,
        expiresAt: null,
      });
      expect(await store.jobs.transition("job_missing", ["queued"], "processing")).toBe(false);
    });

    test("transition is compare-and-set: of concurrent claims from two processes, exactly one wins", async () => {
      const { store, another } = await fresh();
      const other = await another();
      await store.jobs.create(newJob(), []);
      const wins = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? store : other).jobs.transition("job_1", ["queued"], "processing", {}, T0 + i),
        ),
      );
      expect(wins.filter(Boolean).length).toBe(1);
    });

    test("setResult keeps a processing job's result, adds its credits and counts it completed", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob({ type: "agent", total: 1 }), []);
      expect(await store.jobs.setResult("job_1", { answer: 42 }, 3, T0 + 1)).toBe(false);
      await store.jobs.transition("job_1", ["queued"], "processing");
      expect(await store.jobs.setResult("job_1", { answer: 42, sources: ["a", "b"] }, 3, T0 + 2)).toBe(true);
      expect(await store.jobs.get("job_1")).toMatchObject({
        result: { answer: 42, sources: ["a", "b"] },
        creditsUsed: 3,
        completed: 1,
        updatedAt: T0 + 2,
      });
      await store.jobs.transition("job_1", ["processing"], "completed");
      expect(await store.jobs.setResult("job_1", { answer: 0 }, 9)).toBe(false);
      expect((await store.jobs.get("job_1"))?.creditsUsed).toBe(3);
    });

    test("addItems adds only unseen URLs, in order, up to the cap, and counts them in total", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob(), urls("a", 2));
      expect(await store.jobs.addItems("job_1", [...urls("a", 2), ...urls("b", 2, 1)], 100)).toBe(2);
      expect(await store.jobs.addItems("job_1", [...urls("c", 5, 2), ...urls("c", 5, 2)], 6)).toBe(2);
      expect(await store.jobs.addItems("job_1", urls("d", 3), 6)).toBe(0);
      expect((await store.jobs.get("job_1"))?.total).toBe(6);
      expect((await store.jobs.pending("job_1", 100)).map((i) => i.url)).toEqual(
        [...urls("a", 2), ...urls("b", 2), ...urls("c", 2)].map((u) => u.url),
      );
    });

    test("concurrent addItems from two processes never pass the cap", async () => {
      const { store, another } = await fresh();
      const other = await another();
      await store.jobs.create(newJob(), []);
      const added = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? store : other).jobs.addItems("job_1", urls(`w${i}-`, 10), 25),
        ),
      );
      expect(added.reduce((a, b) => a + b, 0)).toBe(25);
      expect((await store.jobs.get("job_1"))?.total).toBe(25);
      expect((await store.jobs.pending("job_1", 100)).length).toBe(25);
    });

    test("pending: shallowest first, then in the order found, up to the limit", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob(), [...urls("d1-", 2, 1), ...urls("d0-", 2, 0)]);
      await store.jobs.addItems("job_1", [...urls("d2-", 1, 2), ...urls("d0b-", 1, 0)], 100);
      const pending = await store.jobs.pending("job_1", 4);
      expect(pending.map((i) => [i.url.replace("https://a.example/", ""), i.depth])).toEqual([
        ["d0-0", 0],
        ["d0-1", 0],
        ["d0b-0", 0],
        ["d1-0", 1],
      ]);
      expect(pending[0]).toEqual({
        url: "https://a.example/d0-0",
        depth: 0,
        state: "pending",
        data: null,
        error: null,
      });
    });

    test("finishItem records a page's outcome and counts it once, however often it is finished", async () => {
      const { store, another } = await fresh();
      const other = await another();
      await store.jobs.create(newJob(), urls("p", 3));
      const [a, b, c] = urls("p", 3).map((u) => u.url) as [string, string, string];
      expect(
        await store.jobs.finishItem("job_1", a, { state: "done", data: { markdown: "# A" }, credits: 2 }),
      ).toBe(true);
      expect(await store.jobs.finishItem("job_1", b, { state: "failed", error: "timeout", credits: 0 })).toBe(
        true,
      );
      // The same page finished again (a retry after a crash; two workers at once) counts once, and
      // each later call says it did not count it (its caller charges and announces nothing).
      const again = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? store : other).jobs.finishItem("job_1", a, {
            state: "done",
            data: { markdown: "# A2" },
            credits: 2,
          }),
        ),
      );
      expect(again).toEqual([false, false, false, false, false, false]);
      expect(await store.jobs.get("job_1")).toMatchObject({
        completed: 1,
        failed: 1,
        creditsUsed: 2,
        total: 3,
      });
      expect(await store.jobs.results("job_1", 0, 10)).toEqual([
        { url: a, depth: 0, state: "done", data: { markdown: "# A" }, error: null },
        { url: b, depth: 0, state: "failed", data: null, error: "timeout" },
      ]);
      expect((await store.jobs.pending("job_1", 10)).map((i) => i.url)).toEqual([c]);
      // A pending page finished by several processes at once: exactly one of them counts it.
      const racing = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? store : other).jobs.finishItem("job_1", c, { state: "done", data: i, credits: 1 }),
        ),
      );
      expect(racing.filter(Boolean).length).toBe(1);
      expect(await store.jobs.get("job_1")).toMatchObject({ completed: 2, creditsUsed: 3 });
    });

    test("results: finished items in the order they finished, skip and limit", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob(), urls("r", 5));
      // Found 0..4, finished 3, 0, 4, 1: results are read in the order they finished, so a page
      // found early and finished late never shifts what a reader already read.
      const page = async (skip: number, limit: number) =>
        (await store.jobs.results("job_1", skip, limit)).map((item) => item.data);
      for (const i of [3, 0]) {
        await store.jobs.finishItem("job_1", `https://a.example/r${i}`, {
          state: "done",
          data: i,
          credits: 1,
        });
      }
      expect(await page(0, 10)).toEqual([3, 0]);
      await store.jobs.finishItem("job_1", "https://a.example/r4", {
        state: "failed",
        error: "x",
        credits: 0,
      });
      await store.jobs.finishItem("job_1", "https://a.example/r1", { state: "done", data: 1, credits: 1 });
      expect(await page(2, 10)).toEqual([null, 1]);
      expect(await page(0, 10)).toEqual([3, 0, null, 1]);
      expect(await page(1, 2)).toEqual([0, null]);
      expect(await page(4, 2)).toEqual([]);
    });

    test("results read while two processes finish items: every item exactly once", async () => {
      const { store, another } = await fresh();
      const other = await another();
      const n = 60;
      await store.jobs.create(newJob(), urls("w", n));
      // Two workers finish the items in an order unlike the one they were found in, while a
      // reader pages through the results from where it got to.
      const order = urls("w", n)
        .map((u, i) => ({ url: u.url, key: (i * 37) % n }))
        .sort((x, y) => x.key - y.key);
      const finishing = Promise.all(
        [store, other].map(async (s, w) => {
          for (const [i, it] of order.entries()) {
            if (i % 2 !== w) continue;
            await s.jobs.finishItem("job_1", it.url, {
              state: i % 7 ? "done" : "failed",
              data: it.url,
              credits: 1,
            });
          }
        }),
      );
      const seen = await readWhileFinishing(store, "job_1", finishing, 7);
      expect(seen.length).toBe(n);
      expect(new Set(seen).size).toBe(n);
    });

    test("unfinished: queued and processing jobs of every account, oldest first", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob({ id: "j1", createdAt: T0 + 3 }), []);
      await store.jobs.create(newJob({ id: "j2", createdAt: T0 + 1, accountId: "acct_b" }), []);
      await store.jobs.create(newJob({ id: "j3", createdAt: T0 + 2 }), []);
      await store.jobs.create(newJob({ id: "j4", createdAt: T0 }), []);
      await store.jobs.transition("j3", ["queued"], "processing");
      await store.jobs.transition("j4", ["queued"], "cancelled");
      expect((await store.jobs.unfinished()).map((j) => j.id)).toEqual(["j2", "j3", "j1"]);
    });

    test("deleteExpired deletes jobs (and their items) that expired before now", async () => {
      const { store } = await fresh();
      await store.jobs.create(newJob({ id: "old", expiresAt: T0 + 10 }), urls("o", 3));
      await store.jobs.finishItem("old", "https://a.example/o0", { state: "done", data: 1, credits: 1 });
      await store.jobs.create(newJob({ id: "later", expiresAt: T0 + 1000 }), urls("l", 2));
      await store.jobs.create(newJob({ id: "kept" }), urls("k", 1));
      expect(await store.jobs.deleteExpired(T0 + 10)).toBe(0);
      expect(await store.jobs.deleteExpired(T0 + 11)).toBe(1);
      expect(await store.jobs.get("old")).toBeNull();
      expect(await store.jobs.results("old", 0, 10)).toEqual([]);
      expect(await store.jobs.pending("old", 10)).toEqual([]);
      expect((await store.jobs.pending("later", 10)).length).toBe(2);
      // A job created again under an expired id starts empty.
      await store.jobs.create(newJob({ id: "old" }), []);
      expect(await store.jobs.addItems("old", urls("o", 1), 10)).toBe(1);
      expect(await store.jobs.deleteExpired(Number.MAX_SAFE_INTEGER)).toBe(1);
      expect((await store.jobs.unfinished()).map((j) => j.id).sort()).toEqual(["kept", "old"]);
    });
  });

  describe(`${name}: CacheStore`, () => {
    const body = (kb: number, fill = 97) => new Uint8Array(kb * KB).fill(fill);

    test("keeps the value, the bytes and the write time, and returns them", async () => {
      const { store } = await fresh();
      const bytes = new Uint8Array(300).map((_, i) => i % 256);
      await store.cache.set("k", "https://a.example/", {
        value: { status: 200, headers: { a: "b" } },
        body: bytes,
        createdAt: T0,
      });
      const entry = await store.cache.get("k", T0 + 1000);
      expect(entry).toEqual({ value: { status: 200, headers: { a: "b" } }, body: bytes, createdAt: T0 });
      expect(entry?.body).toBeInstanceOf(Uint8Array);
      await store.cache.set("nobody", "https://a.example/", { value: [1, "two"], createdAt: T0 });
      expect(await store.cache.get("nobody", T0)).toEqual({ value: [1, "two"], body: null, createdAt: T0 });
      expect(await store.cache.get("missing", T0)).toBeNull();
    });

    test("a write replaces the entry under its key", async () => {
      const { store } = await fresh();
      await store.cache.set("k", "https://a.example/", { value: 1, body: body(2), createdAt: T0 });
      await store.cache.set("k", "https://a.example/", { value: 2, body: body(1, 98), createdAt: T0 + 5 });
      expect(await store.cache.get("k", T0 + 10)).toEqual({ value: 2, body: body(1, 98), createdAt: T0 + 5 });
    });

    test("an entry past the longest age is never returned", async () => {
      const { store } = await fresh();
      await store.cache.set("old", "https://a.example/", { value: 1, body: body(1), createdAt: T0 });
      expect(await store.cache.get("old", T0 + MAX_CACHE_AGE_MS - 1)).not.toBeNull();
      expect(await store.cache.get("old", T0 + MAX_CACHE_AGE_MS + 1)).toBeNull();
    });

    test("past the size cap the least recently used entries go, and reading an entry keeps it", async () => {
      const { store } = await fresh({ cacheMaxBytes: 100 * KB });
      let t = T0;
      for (let i = 0; i < 8; i++) {
        t += 1_000;
        await store.cache.set(`k${i}`, "https://a.example/", { value: i, body: body(10), createdAt: t });
      }
      // k0 and k1 are read later (more than a minute on), so they are the most recently used.
      t += 120_000;
      expect(await store.cache.get("k0", t)).not.toBeNull();
      expect(await store.cache.get("k1", t)).not.toBeNull();
      for (let i = 8; i < 12; i++) {
        t += 1_000;
        await store.cache.set(`k${i}`, "https://a.example/", { value: i, body: body(10), createdAt: t });
      }
      const present = [];
      for (let i = 0; i < 12; i++) if (await store.cache.get(`k${i}`, t)) present.push(`k${i}`);
      expect(present).toEqual(["k0", "k1", "k6", "k7", "k8", "k9", "k10", "k11"]);
    });

    test("an entry bigger than the whole cache is not stored, and evicts nothing", async () => {
      const { store } = await fresh({ cacheMaxBytes: 10 * KB });
      await store.cache.set("small", "https://a.example/", { value: 1, body: body(2), createdAt: T0 });
      await store.cache.set("huge", "https://a.example/", { value: 2, body: body(50), createdAt: T0 + 1 });
      expect(await store.cache.get("huge", T0 + 2)).toBeNull();
      expect(await store.cache.get("small", T0 + 2)).not.toBeNull();
    });

    test("the cap holds across processes: a second one evicts by what is stored", async () => {
      const { store, another } = await fresh({ cacheMaxBytes: 50 * KB });
      for (let i = 0; i < 4; i++)
        await store.cache.set(`a${i}`, "u", { value: i, body: body(10), createdAt: T0 + i });
      await store.close();
      const second = await another();
      for (let i = 0; i < 3; i++)
        await second.cache.set(`b${i}`, "u", { value: i, body: body(10), createdAt: T0 + 100 + i });
      const present = [];
      for (const key of ["a0", "a1", "a2", "a3", "b0", "b1", "b2"])
        if (await second.cache.get(key, T0 + 200)) present.push(key);
      expect(present).toEqual(["a3", "b0", "b1", "b2"]);
    });
  });

  describe(`${name}: SnapshotStore`, () => {
    test("latest is the newest recorded snapshot of the account, URL and tag, or null", async () => {
      const { store } = await fresh();
      const snapshots = store.snapshots;
      expect(await snapshots.latest("acct_a", "https://example.com/page", "")).toBeNull();
      await snapshots.record(snap({ markdown: "one", scrapedAt: 1000 }), 10);
      await snapshots.record(snap({ markdown: "two", scrapedAt: 2000 }), 10);
      expect(await snapshots.latest("acct_a", "https://example.com/page", "")).toEqual(
        snap({ markdown: "two", scrapedAt: 2000 }),
      );
      // Another account, URL or tag has a history of its own.
      expect(await snapshots.latest("acct_b", "https://example.com/page", "")).toBeNull();
      expect(await snapshots.latest("acct_a", "https://example.com/other", "")).toBeNull();
      expect(await snapshots.latest("acct_a", "https://example.com/page", "weekly")).toBeNull();
    });

    test("recording keeps only the newest `keep` snapshots of a page, newest first in history", async () => {
      const { store } = await fresh();
      const snapshots = store.snapshots;
      for (let i = 1; i <= 5; i++)
        await snapshots.record(snap({ markdown: `v${i}`, scrapedAt: i * 1000 }), 3);
      await snapshots.record(snap({ tag: "t", markdown: "tagged", scrapedAt: 9000 }), 3);
      const history = await snapshots.history("acct_a", "https://example.com/page", "", 10);
      expect(history.map((s) => s.markdown)).toEqual(["v5", "v4", "v3"]);
      expect(history[0]).toEqual(snap({ markdown: "v5", scrapedAt: 5000 }));
      expect(
        (await snapshots.history("acct_a", "https://example.com/page", "", 2)).map((s) => s.markdown),
      ).toEqual(["v5", "v4"]);
      expect(await snapshots.history("acct_a", "https://example.com/page", "t", 10)).toEqual([
        snap({ tag: "t", markdown: "tagged", scrapedAt: 9000 }),
      ]);
      // Keeping fewer than one still keeps the snapshot just recorded.
      await snapshots.record(snap({ markdown: "v6", scrapedAt: 6000 }), 0);
      expect(
        (await snapshots.history("acct_a", "https://example.com/page", "", 10)).map((s) => s.markdown),
      ).toEqual(["v6"]);
    });

    test("of snapshots scraped at the same time, the one recorded last is the latest", async () => {
      const { store } = await fresh();
      await store.snapshots.record(snap({ markdown: "first" }), 5);
      await store.snapshots.record(snap({ markdown: "second" }), 5);
      expect((await store.snapshots.latest("acct_a", "https://example.com/page", ""))?.markdown).toBe(
        "second",
      );
    });

    test("a page's markdown comes back exactly, whatever characters it holds", async () => {
      const { store } = await fresh();
      const markdown = "nul \u0000 here, emoji \u{1F600}, accents é, CJK 漢字, RTL שלום\r\n\ttabs";
      await store.snapshots.record(snap({ markdown }), 5);
      expect((await store.snapshots.latest("acct_a", "https://example.com/page", ""))?.markdown).toBe(
        markdown,
      );
    });
  });
}

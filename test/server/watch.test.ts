import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Value } from "@sinclair/typebox/value";
import { weekStart } from "../../src/auth/week.ts";
import {
  WatchCheckResponse,
  type WatchCheckViewShape,
  WatchDetailResponse,
  WatchListResponse,
  WatchResponse,
  type WatchViewShape,
} from "../../src/schemas/watch.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, setWatchPlans, startFixtureSite, WATCH_PLANS } from "../helpers/fixture-site.ts";

const HOUR = 3_600_000;
let site: FixtureSite;
let app: TestApp;
let clock: TestClock;
let key: string;
let auth: Record<string, string>;

/** A webhook receiver on loopback (SSRF protection is off in the test app). */
const received: { headers: Headers; body: string }[] = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  site = await startFixtureSite();
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push({ headers: request.headers, body: await request.text() });
      return new Response("ok");
    },
  });
  clock = new TestClock();
  app = await startTestApp({ webhookBaseDelayMs: 20, extractThreads: 0 }, clock, { watchScheduler: true });
  ({ key } = await app.createKey("pro"));
  auth = { authorization: `Bearer ${key}` };
});
afterAll(async () => {
  await app.close();
  await site.stop();
  receiver.stop(true);
});

async function call(method: string, path: string, body?: unknown, headers = auth) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return app.request(path, init);
}

async function create(body: Record<string, unknown>): Promise<WatchViewShape> {
  const res = await call("POST", "/v1/watch", body);
  const json = await res.json();
  expect({ status: res.status, valid: Value.Check(WatchResponse, json) }).toEqual({
    status: 201,
    valid: true,
  });
  return (json as { watch: WatchViewShape }).watch;
}

async function check(id: string): Promise<WatchCheckViewShape> {
  const res = await call("POST", `/v1/watch/${id}/check`);
  const json = await res.json();
  if (res.status !== 200) throw new Error(`check answered ${res.status}: ${JSON.stringify(json)}`);
  expect(Value.Check(WatchCheckResponse, json)).toBe(true);
  expect(res.headers.get("x-credits-used")).toBe("1");
  return json as WatchCheckViewShape;
}

async function detail(id: string, history = 10) {
  const res = await call("GET", `/v1/watch/${id}?history=${history}`);
  const json = await res.json();
  expect({ status: res.status, valid: Value.Check(WatchDetailResponse, json) }).toEqual({
    status: 200,
    valid: true,
  });
  return json as { watch: WatchViewShape; history: WatchCheckViewShape[] };
}

describe("watch lifecycle", () => {
  test("create, baseline, no change, a change with its diff, history, list, pause, resume, delete", async () => {
    const page = `${site.url}/watch/pricing/life`;
    setWatchPlans("life", WATCH_PLANS);
    const watch = await create({ url: page, interval: 30, selector: "#plans", name: "prices" });
    expect(watch).toMatchObject({
      url: page,
      name: "prices",
      status: "active",
      checkIntervalMinutes: 30,
      includeTags: ["#plans"],
      format: "markdown",
      lastFingerprint: null,
      lastCheckedAt: null,
      changeCount: 0,
      checkCount: 0,
      webhook: null,
      nextCheckAt: new Date(clock.ms).toISOString(),
    });
    expect(watch.ignore).toEqual({
      whitespace: true,
      dates: true,
      counters: true,
      patterns: [],
      selectors: [],
    });

    const baseline = await check(watch.id);
    expect(baseline).toMatchObject({
      success: true,
      watchId: watch.id,
      trigger: "manual",
      status: "baseline",
      changed: false,
      previousFingerprint: null,
      addedText: [],
      removedText: [],
      diff: null,
      statusCode: 200,
      error: null,
    });
    expect(baseline.currentFingerprint).toMatch(/^[0-9a-f]{16}$/);

    clock.advance(60_000);
    const same = await check(watch.id);
    expect(same).toMatchObject({ status: "same", changed: false, diff: null });
    expect(same.previousFingerprint).toBe(baseline.currentFingerprint);
    expect(same.currentFingerprint).toBe(baseline.currentFingerprint);

    setWatchPlans("life", [WATCH_PLANS[0]!, { name: "Pro", price: "$39 per month" }]);
    clock.advance(60_000);
    const changed = await check(watch.id);
    expect(changed).toMatchObject({
      status: "changed",
      changed: true,
      previousFingerprint: baseline.currentFingerprint,
      addedText: ["$39 per month"],
      removedText: ["$29 per month"],
      summary: '1 line added, 1 removed: "$29 per month" -> "$39 per month"',
    });
    expect(changed.currentFingerprint).not.toBe(baseline.currentFingerprint);
    expect(changed.diff).toContain("--- previous.md\n+++ current.md\n");
    expect(changed.diff).toContain("-$29 per month\n+$39 per month\n");

    const { watch: after, history } = await detail(watch.id);
    expect(after).toMatchObject({
      changeCount: 1,
      checkCount: 3,
      lastFingerprint: changed.currentFingerprint,
      lastCheckedAt: new Date(clock.ms).toISOString(),
      lastChangedAt: new Date(clock.ms).toISOString(),
      status: "active",
    });
    expect(history.map((c) => c.status)).toEqual(["changed", "same", "baseline"]);
    const { success: _success, ...recorded } = changed as WatchCheckViewShape & { success?: true };
    expect(history[0]).toEqual(recorded);
    expect((await detail(watch.id, 1)).history.map((c) => c.id)).toEqual([changed.id]);

    const listed = await call("GET", "/v1/watch");
    const list = (await listed.json()) as { watches: WatchViewShape[]; count: number };
    expect(Value.Check(WatchListResponse, list)).toBe(true);
    expect(list.watches.map((w) => w.id)).toContain(watch.id);

    const paused = await call("PATCH", `/v1/watch/${watch.id}`, { status: "paused" });
    expect(((await paused.json()) as { watch: WatchViewShape }).watch).toMatchObject({
      status: "paused",
      nextCheckAt: null,
    });
    // Resumed with a new interval: due an interval after the last check.
    const resumed = await call("PATCH", `/v1/watch/${watch.id}`, {
      status: "active",
      checkIntervalMinutes: 120,
    });
    expect(((await resumed.json()) as { watch: WatchViewShape }).watch).toMatchObject({
      status: "active",
      checkIntervalMinutes: 120,
      nextCheckAt: new Date(clock.ms + 2 * HOUR).toISOString(),
    });
    // Comparing another part of the page starts a new baseline, due at once.
    const moved = await call("PATCH", `/v1/watch/${watch.id}`, { selector: "main" });
    expect(((await moved.json()) as { watch: WatchViewShape }).watch).toMatchObject({
      includeTags: ["main"],
      lastFingerprint: null,
      nextCheckAt: new Date(clock.ms).toISOString(),
    });
    expect((await check(watch.id)).status).toBe("baseline");

    const gone = await call("DELETE", `/v1/watch/${watch.id}`);
    expect(await gone.json()).toEqual({ success: true, id: watch.id, deleted: true });
    for (const [method, path] of [
      ["GET", `/v1/watch/${watch.id}`],
      ["POST", `/v1/watch/${watch.id}/check`],
      ["PATCH", `/v1/watch/${watch.id}`],
      ["DELETE", `/v1/watch/${watch.id}`],
    ] as const) {
      const res = await call(method, path, method === "PATCH" ? { name: "x" } : undefined);
      expect(res.status).toBe(404);
      expect((await errorOf(res)).type).toBe("not_found");
    }
  });

  test("another account's watch is not found, whatever the method", async () => {
    const watch = await create({ url: `${site.url}/watch/pricing/mine` });
    const other = { authorization: `Bearer ${(await app.createKey("pro")).key}` };
    for (const [method, path] of [
      ["GET", `/v1/watch/${watch.id}`],
      ["POST", `/v1/watch/${watch.id}/check`],
      ["PATCH", `/v1/watch/${watch.id}`],
      ["DELETE", `/v1/watch/${watch.id}`],
    ] as const) {
      const res = await call(method, path, method === "PATCH" ? { status: "paused" } : undefined, other);
      expect(res.status).toBe(404);
    }
    const theirs = (await (await call("GET", "/v1/watch", undefined, other)).json()) as { count: number };
    expect(theirs.count).toBe(0);
    expect((await detail(watch.id)).watch.status).toBe("active");
  });

  test("a page that cannot be read is a failed check: 502, status error, baseline kept; the next good check recovers", async () => {
    const watch = await create({ url: `${site.url}/watch/pricing/flaky` });
    await check(watch.id);
    await call("PATCH", `/v1/watch/${watch.id}`, { url: `${site.url}/status/500` });
    const failed = await call("POST", `/v1/watch/${watch.id}/check`);
    expect(failed.status).toBe(502);
    expect(await errorOf(failed)).toMatchObject({
      type: "network_error",
      message: "The page answered HTTP 500",
    });
    const { watch: broken, history } = await detail(watch.id);
    expect(broken).toMatchObject({ status: "error", lastError: "The page answered HTTP 500" });
    expect(history[0]).toMatchObject({ status: "error", statusCode: 500, currentFingerprint: null });
    await call("PATCH", `/v1/watch/${watch.id}`, { url: `${site.url}/watch/pricing/flaky` });
    await check(watch.id);
    expect((await detail(watch.id)).watch).toMatchObject({ status: "active", lastError: null });
  });

  test("requests are checked: interval bounds and aliases, selectors, patterns, unknown fields, webhook targets", async () => {
    const url = `${site.url}/watch/pricing/bad`;
    const refusals: [Record<string, unknown>, string][] = [
      [{ url, checkIntervalMinutes: 1 }, "at least 5"],
      [{ url, interval: 10, intervalMinutes: 20 }, "give one"],
      [{ url, selector: "##" }, "not a valid CSS selector"],
      [{ url, selector: "main", includeTags: ["main"] }, "give one of them"],
      [{ url, ignore: { patterns: ["(a+)+"] } }, "exponential"],
      [{ url, ignore: { selectors: [":::"] } }, "ignore.selectors"],
      [{ url, ignore: { dates: "yes" } }, "ignore.dates"],
      [{ url, every: 5 }, 'unknown field "every"'],
      [{ url: "ftp://example.com/" }, "scheme"],
      [{ url, webhook: { url: "not a url" } }, "URL"],
    ];
    for (const [body, message] of refusals) {
      const res = await call("POST", "/v1/watch", body);
      expect({ body, status: res.status, message: (await errorOf(res)).message }).toEqual({
        body,
        status: body.url === url ? 400 : 403,
        message: expect.stringContaining(message),
      });
    }
    // The aliases name the same setting; the default is 60.
    expect((await create({ url, intervalMinutes: 15 })).checkIntervalMinutes).toBe(15);
    expect((await create({ url, interval: 15, checkIntervalMinutes: 15 })).checkIntervalMinutes).toBe(15);
    expect((await create({ url })).checkIntervalMinutes).toBe(60);
  });
});

describe("noise filters", () => {
  test("a page that only updates its clock and counters is not changed; without the filters it is", async () => {
    const filtered = await create({ url: `${site.url}/watch/clock/quiet` });
    const unfiltered = await create({
      url: `${site.url}/watch/clock/loud`,
      ignore: { dates: false, counters: false },
    });
    for (const watch of [filtered, unfiltered]) expect((await check(watch.id)).status).toBe("baseline");
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      const quiet = await check(filtered.id);
      expect({ status: quiet.status, diff: quiet.diff }).toEqual({ status: "same", diff: null });
    }
    const loud = await check(unfiltered.id);
    expect(loud.status).toBe("changed");
    expect(loud.diff).toContain("+Local time: ");
  });

  test("the caller's patterns and selectors take out noise the built-in rules do not know", async () => {
    // Dates off: only the caller's rules can hide the "Last updated" line; the counter line goes by selector.
    const watch = await create({
      url: `${site.url}/watch/pricing/own-rules`,
      ignore: { dates: false, counters: false, patterns: ["^Last updated .*$"], selectors: ["p:last-child"] },
    });
    expect(watch.ignore).toEqual({
      whitespace: true,
      dates: false,
      counters: false,
      patterns: ["^Last updated .*$"],
      selectors: ["p:last-child"],
    });
    await check(watch.id);
    clock.advance(60_000);
    expect((await check(watch.id)).status).toBe("same");
    const without = await create({
      url: `${site.url}/watch/pricing/own-rules`,
      ignore: { dates: false, counters: false, selectors: ["p:last-child"] },
    });
    await check(without.id);
    expect((await check(without.id)).addedText[0]).toStartWith("Last updated ");
  });
});

describe("webhook on change", () => {
  test("a change sends `changed`, signed with X-Siphon-Signature over the raw body; no change sends nothing", async () => {
    received.length = 0;
    setWatchPlans("hooked", WATCH_PLANS);
    const watch = await create({
      url: `${site.url}/watch/pricing/hooked`,
      selector: "#plans",
      webhook: {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        secret: "s3cret",
        metadata: { team: "pricing" },
      },
    });
    expect(watch.webhook).toEqual({
      url: `http://127.0.0.1:${receiver.port}/hook`,
      events: ["changed"],
      signed: true,
      metadata: { team: "pricing" },
    });
    expect(JSON.stringify(watch)).not.toContain("s3cret");
    await check(watch.id);
    await check(watch.id);
    setWatchPlans("hooked", [...WATCH_PLANS, { name: "Teams", price: "$99 per month" }]);
    const changed = await check(watch.id);
    for (let waited = 0; received.length === 0 && waited < 5000; waited += 20) await Bun.sleep(20);
    await Bun.sleep(100);
    expect(received.length).toBe(1);
    const [delivery] = received;
    const expected = `sha256=${createHmac("sha256", "s3cret").update(delivery!.body).digest("hex")}`;
    expect(delivery!.headers.get("x-siphon-signature")).toBe(expected);
    expect(delivery!.headers.get("x-siphon-event")).toBe("changed");
    const payload = JSON.parse(delivery!.body);
    expect(payload).toMatchObject({
      event: "changed",
      metadata: { team: "pricing" },
      data: {
        watchId: watch.id,
        url: watch.url,
        checkId: changed.id,
        previousFingerprint: changed.previousFingerprint,
        currentFingerprint: changed.currentFingerprint,
        summary: changed.summary,
        addedText: ["- ### Teams", "$99 per month"],
        removedText: [],
        diff: changed.diff,
      },
    });
    expect(Date.parse(payload.timestamp)).toBe(clock.ms);
  });
});

describe("scheduled checks", () => {
  test("the scheduler runs due watches on the movable clock, charges each check to the watch's account, skips paused ones", async () => {
    const { key: own, accountId: owner } = await app.createKey("pro");
    const headers = { authorization: `Bearer ${own}` };
    const res = await call("POST", "/v1/watch", { url: `${site.url}/watch/pricing/sched` }, headers);
    const watch = ((await res.json()) as { watch: WatchViewShape }).watch;
    const resPaused = await call(
      "POST",
      "/v1/watch",
      { url: `${site.url}/watch/pricing/sched-paused`, status: "paused" },
      headers,
    );
    expect(resPaused.status).toBe(201);
    const scheduler = app.scheduler!;
    const credits = () => app.store.usage.weeklyCredits(owner, weekStart(clock.ms));
    const before = await credits();
    // Other tests' watches are due too: run everything due now.
    while ((await scheduler.tick()) > 0) await scheduler.idle();
    await scheduler.idle();
    const { history } = (await (await call("GET", `/v1/watch/${watch.id}`, undefined, headers)).json()) as {
      history: WatchCheckViewShape[];
    };
    expect(history.map((c) => [c.trigger, c.status])).toEqual([["scheduled", "baseline"]]);
    expect((await credits()) - before).toBe(1);
    // Not due again until its interval (60 min, plus at most 5 min of jitter) has passed.
    clock.advance(59 * 60_000);
    while ((await scheduler.tick()) > 0) await scheduler.idle();
    expect(site.hits("/watch/pricing/sched")).toBe(1);
    clock.advance(7 * 60_000);
    while ((await scheduler.tick()) > 0) await scheduler.idle();
    await scheduler.idle();
    expect(site.hits("/watch/pricing/sched")).toBe(2);
    expect(site.hits("/watch/pricing/sched-paused")).toBe(0);
    expect((await credits()) - before).toBe(2);
  });
});

describe("OpenAPI", () => {
  test("every watch route is documented with its body, query and answers", async () => {
    const doc = (await (await app.request("/docs/json")).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths["/v1/watch"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/watch/{id}"] ?? {}).sort()).toEqual(["delete", "get", "patch"]);
    expect(Object.keys(doc.paths["/v1/watch/{id}/check"] ?? {})).toEqual(["post"]);
    expect(JSON.stringify(doc.paths["/v1/watch"]?.post?.requestBody)).toContain("checkIntervalMinutes");
    expect(doc.paths["/v1/watch"]?.post?.responses?.["201"]).toBeDefined();
    expect(JSON.stringify(doc.paths["/v1/watch/{id}/check"]?.post?.responses?.["200"])).toContain(
      "removedText",
    );
    expect(JSON.stringify(doc.paths["/v1/watch/{id}"]?.patch?.requestBody)).toContain("paused");
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { setWatchPlans } from "../helpers/site-pages/watch.ts";

/**
 * A cached GET /v1/fetch asked again and again takes shorter ways than the first answer: its
 * query is validated once (server/query-input.ts), its JSON is kept and only `elapsed` put in
 * (server/json-text.ts), its cache row is read from memory (src/store/sqlite-cache.ts). These
 * tests pin what those ways must keep: every header and body byte of the answer the long way
 * gives, the metering, the request log, and a page another process re-fetched.
 */

let site: FixtureSite;
const apps: TestApp[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await site.stop();
});

const PLANS = JSON.stringify({ pro: { weeklyQuota: 1000, burstPerHour: 1000 } });

async function app(overrides: Parameters<typeof startTestApp>[0] = {}, clock?: TestClock) {
  const started = await startTestApp({ escalation: false, plans: PLANS, ...overrides }, clock);
  apps.push(started);
  return started;
}

const fetchPath = (path: string, extra = "") =>
  `/v1/fetch?url=${encodeURIComponent(`${site.url}${path}`)}&format=text${extra}`;

/** Headers whose values belong to one request, whichever way it was answered. */
const PER_REQUEST = new Set(["x-request-id", "x-processing-time"]);

/** The time the answer took to make is the one field of a body that differs between requests. */
const withoutElapsed = (text: string) => text.replace(/,"elapsed":\d+/g, ',"elapsed":_');

interface Answer {
  status: number;
  headers: [string, string][];
  text: string;
}

async function answer(app: TestApp, path: string, init?: RequestInit): Promise<Answer> {
  const res = await app.request(path, init);
  return { status: res.status, headers: [...res.headers], text: await res.text() };
}

const header = (a: Answer, name: string) => a.headers.find(([n]) => n === name)?.[1];

describe("a cached GET /v1/fetch asked again and again", () => {
  for (const mode of ["local account", "key on a metered plan"] as const) {
    test(`${mode}: every hit has the first hit's headers and bytes, its own usage headers and a request-log row`, async () => {
      const clock = new TestClock();
      const a = await app({ auth: mode === "local account" ? "optional" : "required" }, clock);
      const { key, accountId } =
        mode === "local account" ? { key: null, accountId: LOCAL_ACCOUNT_ID } : await a.createKey("pro");
      const init = key ? { headers: { authorization: `Bearer ${key}` } } : {};
      const path = fetchPath("/article");

      const miss = await answer(a, path, init);
      expect(miss.status).toBe(200);
      expect(header(miss, "x-cache")).toBe("MISS");
      expect(header(miss, "x-credits-used")).toBe("1");
      const hits: Answer[] = [];
      for (let i = 0; i < 6; i++) hits.push(await answer(a, path, init));
      // The first hit is answered the long way (its query validated, its row read, its JSON made);
      // the later ones by the kept query, row and JSON.
      const [first, ...later] = hits as [Answer, ...Answer[]];
      expect(first.status).toBe(200);
      expect(header(first, "x-cache")).toBe("HIT");
      expect(header(first, "content-type")).toBe("application/json;charset=utf-8");
      for (const [i, hit] of hits.entries()) {
        expect(hit.status).toBe(200);
        // The same header names in the same order, and the same values but the per-request ones.
        expect(hit.headers.map(([name]) => name)).toEqual(first.headers.map(([name]) => name));
        const n = i + 2;
        for (const [name, value] of hit.headers) {
          if (PER_REQUEST.has(name)) continue;
          if (key && ["x-burst-used"].includes(name)) expect(value).toBe(String(n));
          else if (key && ["x-burst-remaining", "x-ratelimit-remaining"].includes(name))
            expect(value).toBe(String(1000 - n));
          else expect(value).toBe(header(first, name) as string);
        }
        expect(header(hit, "x-credits-used")).toBe("0");
        expect(header(hit, "x-weekly-used")).toBe("1");
        expect(header(hit, "x-service-plan")).toBe(key ? "pro" : "unlimited");
        // The bytes JSON.stringify gives (the long way) for the same result.
        expect(hit.text).toBe(JSON.stringify(JSON.parse(hit.text)));
        expect(withoutElapsed(hit.text)).toBe(withoutElapsed(first.text));
      }
      expect(later.length).toBe(5);

      // POST validates its body every time: the same page, the same bytes.
      const posted = await answer(a, "/v1/fetch", {
        method: "POST",
        headers: { "content-type": "application/json", ...(init.headers ?? {}) },
        body: JSON.stringify({ url: `${site.url}/article`, format: "text" }),
      });
      expect(posted.status).toBe(200);
      expect(withoutElapsed(posted.text)).toBe(withoutElapsed(first.text));

      // One request-log row per request, each counted (8: the miss, six hits and the POST).
      const stats = await a.store.usage.stats(accountId);
      expect(stats.totalRequests).toBe(8);
      expect(stats.successRate).toBe(100);
    });
  }

  test("each query keeps its own answer: formats asked in turn never get another's", async () => {
    const a = await app({ auth: "optional" });
    const formats = ["text", "markdown", "html"] as const;
    const firsts = new Map<string, string>();
    for (let round = 0; round < 4; round++) {
      for (const format of formats) {
        const path = `/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&format=${format}`;
        const got = await answer(a, path);
        expect(got.status).toBe(200);
        const content = (JSON.parse(got.text) as { content: string }).content;
        if (round === 0) firsts.set(format, content);
        else expect(content).toBe(firsts.get(format) as string);
      }
    }
    expect(new Set(firsts.values()).size).toBe(3);
  });

  test("a query refused once is refused every time, and a POST body is still checked", async () => {
    const a = await app({ auth: "optional" });
    for (let i = 0; i < 3; i++) {
      const res = await a.request(fetchPath("/article", "&wait=-5"));
      expect(res.status).toBe(400);
      expect((await errorOf(res)).type).toBe("invalid_request");
    }
    const posted = await a.request("/v1/fetch", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${site.url}/article`, format: "pdf" }),
    });
    expect(posted.status).toBe(400);
  });

  test("a page another process fetched again is served from the next request on, not the page this one kept", async () => {
    const id = `cached-${crypto.randomUUID()}`;
    setWatchPlans(id, [{ name: "Solo", price: "$5 per month" }]);
    const a = await app({ auth: "optional" });
    // Another server (or `siphon fetch --max-age 0`) on the same SQLite file: another connection.
    const other = await app({ auth: "optional", home: a.home });
    const path = `/v1/fetch?url=${encodeURIComponent(`${site.url}/watch/pricing/${id}`)}&format=text`;
    const contentOf = (got: Answer) => (JSON.parse(got.text) as { content: string }).content;

    const miss = await answer(a, path);
    expect(header(miss, "x-cache")).toBe("MISS");
    for (let i = 0; i < 3; i++) {
      const hit = await answer(a, path);
      expect(header(hit, "x-cache")).toBe("HIT");
      expect(contentOf(hit)).toBe(contentOf(miss));
    }
    setWatchPlans(id, [{ name: "Team", price: "$50 per month" }]);
    const refetched = await answer(other, `${path}&maxAge=0`);
    expect(contentOf(refetched)).toContain("$50 per month");
    // A commit by another connection is seen a millisecond later (src/store/read-memo.ts).
    await Bun.sleep(5);
    const after = await answer(a, path);
    expect(header(after, "x-cache")).toBe("HIT");
    expect(contentOf(after)).toBe(contentOf(refetched));
    expect(contentOf(after)).not.toContain("$5 per month");
  });
});

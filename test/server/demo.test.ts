import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { fingerprint } from "../../src/pipeline/result.ts";
import { AnswerResponse } from "../../src/schemas/answer.ts";
import { CrawlPoll, DEMO_KINDS } from "../../src/schemas/demo.ts";
import { FetchResult } from "../../src/schemas/fetch.ts";
import { SearchResponse } from "../../src/schemas/search.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FakeSearch, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

/** Each kind and the real endpoint's response schema it must match. */
const SCHEMAS: Record<(typeof DEMO_KINDS)[number], TSchema> = {
  fetch: FetchResult,
  search: SearchResponse,
  answer: AnswerResponse,
  crawl: CrawlPoll,
};

const clock = new TestClock();
let app: TestApp;

beforeAll(async () => {
  // Required auth, a closed port for every outside service and SSRF on: the demo needs none of them.
  app = await startTestApp(
    {
      auth: "required",
      disableSsrfProtection: false,
      duckduckgoUrl: "http://127.0.0.1:1/",
      braveUrl: "http://127.0.0.1:1/",
      youtubeUrl: "http://127.0.0.1:1/",
    },
    clock,
  );
});
afterAll(() => app.close());

function demo(body: unknown, headers: Record<string, string> = {}) {
  return app.request("/v1/demo", { method: "POST", headers, body: JSON.stringify(body) });
}

describe("POST /v1/demo", () => {
  test("every kind answers without a key, shaped as the real endpoint's response", async () => {
    for (const kind of DEMO_KINDS) {
      const res = await demo({ kind });
      expect([kind, res.status, res.headers.get("x-siphon-demo")]).toEqual([kind, 200, "true"]);
      const body = await res.json();
      const errors = [...Value.Errors(SCHEMAS[kind], body)].map((e) => `${e.path}: ${e.message}`);
      expect([kind, errors]).toEqual([kind, []]);
    }
  });

  test("the pre-baked pages follow the fetch rules: tokens and fingerprint of their content", async () => {
    const page = (await (await demo({ kind: "fetch" })).json()) as FetchResult;
    expect(page.tokens).toBe(Math.ceil(page.content.length / 4));
    expect(page.fingerprint).toBe(fingerprint(page.content));
    const crawl = (await (await demo({ kind: "crawl" })).json()) as CrawlPoll;
    expect(crawl.data[0]?.markdown).toBe(page.content);
    expect(crawl).toMatchObject({
      status: "completed",
      completed: crawl.data.length,
      total: crawl.data.length,
    });
    expect(crawl.expiresAt).toBe(new Date(clock.ms + 86_400_000).toISOString());
    const answer = (await (await demo({ kind: "answer" })).json()) as AnswerResponse;
    const markers = [...answer.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(Math.max(...markers)).toBe(answer.citations.length);
  });

  test("no quota and no burst window: a free key past its hourly burst still gets answers, uncharged", async () => {
    const { key } = await app.createKey("free");
    const headers = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 30; i++) {
      const res = await demo({ kind: DEMO_KINDS[i % DEMO_KINDS.length] }, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-credits-used")).toBeNull();
    }
    // The key's own usage shows nothing spent and nothing counted.
    const usage = (await (await app.request("/v1/cli/usage", { headers })).json()) as {
      weekly: { used: number };
      burst: { used: number };
    };
    expect([usage.weekly.used, usage.burst.used]).toEqual([0, 0]);
  });

  test("a key is not read: a revoked or made-up one changes nothing", async () => {
    const res = await demo({ kind: "search" }, { authorization: `Bearer sph_live_${"A".repeat(32)}` });
    expect(res.status).toBe(200);
  });

  test("an unknown or missing kind is a 400 naming the kinds", async () => {
    for (const body of [{ kind: "screenshot" }, {}, { kind: "fetch", url: "https://example.com/" }]) {
      const res = await demo(body);
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.type).toBe("invalid_request");
    }
    expect((await errorOf(await demo({ kind: "screenshot" }))).message).toBe(
      "kind must be one of fetch, search, answer, crawl",
    );
    expect((await errorOf(await demo({}))).message).toBe("kind is required");
  });
});

describe("the demo's shapes are the real endpoints' own", () => {
  let site: FixtureSite;
  let engines: FakeSearch;
  let real: TestApp;

  beforeAll(async () => {
    site = await startFixtureSite();
    engines = startFakeSearch(site.url);
    real = await startTestApp({ duckduckgoUrl: engines.duckduckgoUrl, escalation: false });
  });
  afterAll(async () => {
    await real.close();
    await engines.stop();
    await site.stop();
  });

  const keysOf = (value: object) => Object.keys(value).sort();

  test("fetch, search and a finished crawl poll have the same fields as live answers", async () => {
    const fetched = await (
      await real.request("/v1/fetch", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/article` }),
      })
    ).json();
    const searched = await (await real.request("/v1/search?q=tide+mills")).json();
    const started = (await (
      await real.request("/v1/crawl", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/article`, limit: 1, maxDepth: 0 }),
      })
    ).json()) as { id: string };
    let poll: CrawlPoll | undefined;
    for (let i = 0; i < 100 && poll?.status !== "completed"; i++) {
      await Bun.sleep(50);
      poll = (await (await real.request(`/v1/crawl/${started.id}`)).json()) as CrawlPoll;
    }

    const shown = async (kind: string) => (await demo({ kind })).json();
    const fetchDemo = await shown("fetch");
    const searchDemo = await shown("search");
    const crawlDemo = (await shown("crawl")) as CrawlPoll;
    expect(keysOf(fetchDemo)).toEqual(keysOf(fetched));
    expect(keysOf(fetchDemo.metadata)).toEqual(keysOf(fetched.metadata));
    expect(keysOf(searchDemo.data.web[0])).toEqual(keysOf(searched.data.web[0]));
    expect(poll?.status).toBe("completed");
    expect(keysOf(crawlDemo)).toEqual(keysOf(poll as CrawlPoll));
    expect(keysOf(crawlDemo.data[0] as object)).toEqual(keysOf(poll?.data[0] as object));
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { weekStart } from "../../src/auth/week.ts";
import type { ExtractJobPoll } from "../../src/schemas/extract.ts";
import type { JobRecord } from "../../src/store/types.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FakeLlm, type FakeLlmRequest, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_TITLE } from "../helpers/site-pages/article.ts";
import { DOCS_TITLE } from "../helpers/site-pages/docs.ts";
import { PRODUCT_NAME } from "../helpers/site-pages/product.ts";

const KEY = "sk-extract-jobs-4f3e2d1c0b9a8877SECRET";

let site: FixtureSite;
let llm: FakeLlm;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
  app = await startTestApp({
    openaiBaseUrl: llm.baseUrl("openai"),
    escalation: false,
    fetchTimeoutMs: 5000,
    webhookBaseDelayMs: 10,
  });
});
afterAll(async () => {
  await app.close();
  await llm.stop();
  await site.stop();
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = () => ({});
});

/** Every answer this file received, to check none shows the key. */
const seen: string[] = [];
let run = 0;
/** A URL of the fixture site no earlier request fetched (so never a cache hit). */
const fresh = (path: string) => `${site.url}${path}?run=${++run}`;

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: ["string", "null"] },
    price: { type: ["number", "null"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["name", "price", "tags"],
};

/** The page a fake LLM request is about (the prompt names it as "(url)"). */
const pageOf = (req: FakeLlmRequest) =>
  /\((http:[^)\s]+)\)/.exec(req.messages.at(-1)?.content ?? "")?.[1] ?? "";

async function send(path: string, init: RequestInit = {}, on = app) {
  const res = await on.request(path, init);
  seen.push(await res.clone().text());
  return res;
}
const post = (path: string, body: unknown, on = app, headers: Record<string, string> = {}) =>
  send(path, { method: "POST", headers, body: JSON.stringify(body) }, on);

async function start(body: Record<string, unknown>, path = "/v1/extract", on = app, headers = {}) {
  const res = await post(path, body, on, headers);
  const started = (await res.json()) as { success: boolean; id: string; url: string };
  if (res.status !== 202) throw new Error(`HTTP ${res.status}: ${JSON.stringify(started)}`);
  return started;
}

type Poll = ExtractJobPoll & { data?: Record<string, unknown> };
const TERMINAL = ["completed", "failed", "cancelled"];

async function until(path: string, on = app, headers: Record<string, string> = {}): Promise<Poll> {
  for (let i = 0; i < 400; i++) {
    const poll = (await (await send(path, { headers }, on)).json()) as Poll;
    if (TERMINAL.includes(poll.status)) return poll;
    await Bun.sleep(25);
  }
  throw new Error(`${path} did not finish`);
}

const stored = async (id: string, on = app) => (await on.store.jobs.get(id)) as JobRecord;
const jobCount = async (on = app) =>
  ((await (await send("/v1/jobs?limit=1000", {}, on)).json()) as { count: number }).count;

describe("POST /v1/extract with urls: an extraction job", () => {
  test("202, then the poll gives the merged data, per-page results, credits as fetched, tokens, a listing; the key is erased", async () => {
    const [product, article, docs] = [fresh("/product"), fresh("/article"), fresh("/docs")];
    const answers: Record<string, unknown> = {
      [product]: { name: PRODUCT_NAME, price: null, tags: ["coffee"] },
      [article]: { name: null, price: 12.5, tags: ["solar", "council"] },
      [docs]: { name: DOCS_TITLE, price: 3, tags: [] },
    };
    llm.reply = (req) => ({
      json: answers[pageOf(req)] ?? { name: "?", price: null, tags: [] },
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    });
    site.resetHits();
    const week = weekStart(Date.now());
    const charged = await app.store.usage.weeklyCredits(LOCAL_ACCOUNT_ID, week);
    const started = await start({
      urls: [product, article, "not a url", docs],
      schema: SCHEMA,
      llmProvider: "openai",
      llmApiKey: KEY,
    });
    expect(started.id).toMatch(/^extract_[0-9a-f-]{36}$/);
    expect(started.url).toBe(`http://localhost/v1/extract/${started.id}`);

    const poll = await until(`/v1/extract/${started.id}`);
    expect(poll).toMatchObject({
      success: true,
      status: "completed",
      progress: 100,
      total: 4,
      completed: 4,
      failed: 1,
      tokensUsed: { input: 300, output: 30 },
    });
    // Arrays concatenated in the order of urls; any other field from the first page that has it.
    expect(poll.data).toEqual({
      name: PRODUCT_NAME,
      price: 12.5,
      tags: ["coffee", "solar", "council"],
    });
    expect(poll.results.map((r) => r.url)).toEqual([product, article, "not a url", docs]);
    expect(poll.results[0]).toEqual({
      url: product,
      data: answers[product] as Record<string, unknown>,
      method: "llm",
      tokensUsed: { input: 100, output: 10 },
    });
    expect(poll.results[2]).toMatchObject({ url: "not a url", error: { type: "invalid_url" } });
    expect(poll.next).toBeUndefined();
    // One credit per page fetched from its site: the fixture site saw each page once.
    const hits = site.hits("/product") + site.hits("/article") + site.hits("/docs");
    expect(hits).toBe(3);
    expect(poll.creditsUsed).toBe(hits);
    expect((await app.store.usage.weeklyCredits(LOCAL_ACCOUNT_ID, week)) - charged).toBe(hits);
    expect(Date.parse(poll.expiresAt ?? "")).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    const page = (await (await send(`/v1/extract/${started.id}?skip=1&limit=2`)).json()) as Poll;
    expect(page.results.map((r) => r.url)).toEqual([article, "not a url"]);
    expect(page.next).toBe(`http://localhost/v1/extract/${started.id}?skip=3&limit=2`);
    expect(page.data).toEqual(poll.data);

    const list = (await (await send("/v1/jobs?type=extract")).json()) as {
      jobs: { id: string; type: string; status: string; total: number }[];
    };
    expect(list.jobs[0]).toMatchObject({ id: started.id, type: "extract", status: "completed", total: 4 });

    const job = await stored(started.id);
    expect(job.input).toMatchObject({ urls: [product, article, "not a url", docs], schema: SCHEMA });
    expect(JSON.stringify(job.input)).not.toContain(KEY);
    expect(llm.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  test("pages without an LLM: selectors and the heuristic path; duplicates count once; a job whose pages all fail ends failed", async () => {
    const [product, article] = [fresh("/product"), fresh("/article")];
    const started = await start({
      urls: [product, article, product],
      selectors: { title: "h1", links: ["main a@href"] },
    });
    const poll = await until(`/v1/extract/${started.id}`);
    expect(poll).toMatchObject({ status: "completed", total: 2, completed: 2, failed: 0, creditsUsed: 2 });
    expect(poll.tokensUsed).toBeUndefined();
    expect(poll.data?.title).toBe(PRODUCT_NAME);
    const links = poll.results.flatMap((r) => ("data" in r ? (r.data.links as string[]) : []));
    expect(poll.data?.links).toEqual(links);
    expect(poll.results.map((r) => ("method" in r ? r.method : r.error))).toEqual(["selectors", "selectors"]);
    expect((poll.results[1] as unknown as { data: { title: string } }).data.title).toBe(ARTICLE_TITLE);
    // The same pages again come from the cache: no fetch, no credit.
    site.resetHits();
    const again = await until(
      `/v1/extract/${(await start({ urls: [product], selectors: { title: "h1" } })).id}`,
    );
    expect(again).toMatchObject({ status: "completed", creditsUsed: 0, data: { title: PRODUCT_NAME } });
    expect(site.hits("/product")).toBe(0);

    const heuristic = await start({ urls: [fresh("/structured/product/json-ld")], schema: SCHEMA });
    const found = await until(`/v1/extract/${heuristic.id}`);
    expect(found.status).toBe("completed");
    expect(found.results[0]).toMatchObject({ method: "heuristic", sources: { name: "json-ld" } });
    expect(found.data?.name).toBe((found.results[0] as unknown as { data: { name: string } }).data.name);

    const failing = await start({ urls: ["http://127.0.0.1:1/", "nope"], selectors: { t: "h1" } });
    const failed = await until(`/v1/extract/${failing.id}`);
    expect(failed).toMatchObject({ status: "failed", failed: 2, error: "Every page of the job failed" });
    expect(failed.data).toBeUndefined();
  });

  test("DELETE cancels a running job and erases its key; a second DELETE keeps cancelled; SSE ends with done", async () => {
    const base = app.listen();
    const started = await start({
      urls: [`${site.url}/slow?ms=4000&run=${++run}`],
      schema: SCHEMA,
      llmProvider: "openai",
      llmApiKey: KEY,
    });
    expect(JSON.stringify((await stored(started.id)).input)).toContain(KEY);
    const stream = fetch(`${base}/v1/extract/${started.id}`, { headers: { accept: "text/event-stream" } });
    await Bun.sleep(100);
    const cancel = await send(`/v1/extract/${started.id}`, { method: "DELETE" });
    expect(await cancel.json()).toEqual({ success: true, status: "cancelled" });
    const again = await send(`/v1/extract/${started.id}`, { method: "DELETE" });
    expect(await again.json()).toEqual({ success: true, status: "cancelled" });
    const events = (await (await stream).text())
      .split("\n\n")
      .filter((chunk) => chunk.startsWith("data: "))
      .map((chunk) => JSON.parse(chunk.slice(6)));
    expect(events[0]).toMatchObject({ type: "progress" });
    expect(events.at(-1)).toEqual({ type: "done", status: "cancelled", completed: 0, total: 1 });
    const poll = await until(`/v1/extract/${started.id}`);
    expect(poll.status).toBe("cancelled");
    expect(JSON.stringify((await stored(started.id)).input)).not.toContain(KEY);
  });

  test("webhooks: started, page and completed (with the merged data) arrive signed, without the key", async () => {
    const received: { body: string; signature: string | null }[] = [];
    const receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        received.push({ body: await req.text(), signature: req.headers.get("x-siphon-signature") });
        return new Response("ok");
      },
    });
    try {
      llm.reply = (req) => ({ json: { name: pageOf(req), price: 1, tags: [pageOf(req)] } });
      const urls = [fresh("/product"), fresh("/article")];
      const started = await start({
        urls,
        schema: SCHEMA,
        llmProvider: "openai",
        llmApiKey: KEY,
        webhook: { url: `http://127.0.0.1:${receiver.port}/hook`, secret: "whsec", metadata: { n: 1 } },
      });
      await until(`/v1/extract/${started.id}`);
      for (let i = 0; i < 100 && !received.some((r) => r.body.includes('"completed"')); i++)
        await Bun.sleep(20);
      const events = received.map((r) => JSON.parse(r.body));
      expect(events.map((e) => e.event).sort()).toEqual(["completed", "page", "page", "started"]);
      expect(events[0]).toMatchObject({ event: "started", data: { jobId: started.id, type: "extract" } });
      expect(events.at(-1)).toMatchObject({
        event: "completed",
        metadata: { n: 1 },
        data: { jobId: started.id, total: 2, completed: 2, data: { name: urls[0], price: 1, tags: urls } },
      });
      const page = events.find((e) => e.event === "page");
      expect(page.data).toMatchObject({ jobId: started.id, method: "llm", data: { price: 1 } });
      for (const r of received) {
        expect(r.signature).toBe(`sha256=${createHmac("sha256", "whsec").update(r.body).digest("hex")}`);
        expect(r.body).not.toContain(KEY);
      }
    } finally {
      receiver.stop(true);
    }
  });

  test("a key the vendor refuses fails the page; neither the poll nor the stored job shows the key", async () => {
    const badKey = "sk-wrong-key-1234567890abcdefWRONG";
    const started = await start({
      urls: [fresh("/product")],
      schema: SCHEMA,
      llmProvider: "openai",
      llmApiKey: badKey,
    });
    const poll = await until(`/v1/extract/${started.id}`);
    // Checked before any asymmetric matcher, which bun writes into the object it matched.
    expect(JSON.stringify(poll)).not.toContain(badKey);
    expect(JSON.stringify((await stored(started.id)).input)).not.toContain(badKey);
    expect(poll.status).toBe("failed");
    const page = poll.results[0] as { error: { type: string; message: string } };
    expect(page.error.type).toBe("invalid_request");
    expect(page.error.message).toContain("rejected the API key");
  });

  test("bad requests are 400s before any job exists: url and urls, neither, 101 urls, a bad extraction, a webhook with url", async () => {
    const before = await jobCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: fresh("/product"), urls: [fresh("/article")], schema: SCHEMA }, /url or urls, not both/],
      [{ schema: SCHEMA }, /url or urls is required/],
      [{ urls: [], schema: SCHEMA }, /urls/],
      [{ urls: Array.from({ length: 101 }, (_, i) => `${site.url}/p${i}`), schema: SCHEMA }, /at most 100/],
      [{ urls: [fresh("/product")] }, /Nothing to extract/],
      [{ urls: [fresh("/product")], prompt: "prices" }, /A prompt needs an LLM/],
      [
        { urls: [fresh("/product")], schema: { type: "object", properties: { a: { type: "nope" } } } },
        /schema/,
      ],
      [{ urls: [fresh("/product")], selectors: { a: "h1" }, schema: SCHEMA }, /selectors cannot be combined/],
      [{ urls: [fresh("/product")], schema: SCHEMA, llmProvider: "openai" }, /needs llmApiKey/],
      [
        { url: fresh("/product"), schema: SCHEMA, webhook: { url: "https://x.example/h" } },
        /webhook needs urls/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post("/v1/extract", body);
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toMatch(message);
    }
    expect(await jobCount()).toBe(before);
  });

  test("100 URLs are accepted", async () => {
    const started = await start({
      urls: Array.from({ length: 100 }, (_, i) => `not-a-url-${i}`),
      selectors: { t: "h1" },
    });
    const poll = await until(`/v1/extract/${started.id}`);
    expect(poll).toMatchObject({ total: 100, completed: 100, failed: 100 });
    expect(poll.results).toHaveLength(100);
  });

  test("404 for an unknown job, a batch's id, another account's, and once the 24 h are over", async () => {
    const clock = new TestClock(Date.now());
    const own = await startTestApp({ auth: "required", escalation: false }, clock);
    try {
      const mine = { authorization: `Bearer ${(await own.createKey("pro")).key}` };
      const theirs = { authorization: `Bearer ${(await own.createKey("pro")).key}` };
      const started = await start(
        { urls: [fresh("/product")], selectors: { t: "h1" } },
        "/v1/extract",
        own,
        mine,
      );
      const path = `/v1/extract/${started.id}`;
      expect((await until(path, own, mine)).status).toBe("completed");
      const batch = await start({ urls: [fresh("/article")] }, "/v1/batch/scrape", own, mine);
      const listed = (await (await send("/v1/jobs?type=extract", { headers: theirs }, own)).json()) as {
        count: number;
      };
      expect(listed.count).toBe(0);
      for (const [where, headers] of [
        ["/v1/extract/extract_00000000-0000-0000-0000-000000000000", mine],
        [`/v1/extract/${batch.id}`, mine],
        [path, theirs],
      ] as const) {
        for (const method of ["GET", "DELETE"]) {
          const res = await send(where, { method, headers }, own);
          expect(res.status).toBe(404);
          expect((await errorOf(res)).type).toBe("not_found");
        }
      }
      clock.advance(24 * 3_600_000 + 1000);
      expect((await send(path, { headers: mine }, own)).status).toBe(404);
    } finally {
      await own.close();
    }
  });
});

describe("extraction in batch and crawl", () => {
  test("batch extract: every item gains json; a json formats entry does the same; the key is erased at the end", async () => {
    llm.reply = (req) => ({
      json: { name: pageOf(req), price: 2, tags: [] },
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    const urls = [fresh("/product"), fresh("/article")];
    const started = await start(
      { urls, extract: { schema: SCHEMA }, llmProvider: "openai", llmApiKey: KEY },
      "/v1/batch/scrape",
    );
    const poll = (await until(`/v1/batch/scrape/${started.id}`)) as unknown as {
      status: string;
      data: { url: string; json: unknown; extractTokensUsed: unknown; content: string }[];
    };
    expect(poll.status).toBe("completed");
    // Each item's json is its own page's (items come in the order they finished).
    const byName = (a: unknown, b: unknown) =>
      String((a as { name: string }).name).localeCompare(String((b as { name: string }).name));
    expect(poll.data.map((item) => item.json).sort(byName)).toEqual(
      urls.map((url) => ({ name: url, price: 2, tags: [] })).sort(byName),
    );
    for (const item of poll.data) expect((item.json as { name: string }).name).toBe(item.url);
    expect(poll.data[0]?.extractTokensUsed).toEqual({ input: 7, output: 3 });
    expect(poll.data[0]?.content.length).toBeGreaterThan(0);
    expect(JSON.stringify((await stored(started.id)).input)).not.toContain(KEY);

    const json = await start(
      { urls: [fresh("/product")], formats: ["markdown", { type: "json", selectors: { title: "h1" } }] },
      "/v1/batch/scrape",
    );
    const viaFormats = (await until(`/v1/batch/scrape/${json.id}`)) as unknown as {
      data: { json: unknown; markdown?: string }[];
    };
    expect(viaFormats.data[0]?.json).toEqual({ title: PRODUCT_NAME });
  });

  test("a job's pages count in the usage history: credits and LLM tokens, under the key that started it", async () => {
    const own = await startTestApp({
      auth: "required",
      openaiBaseUrl: llm.baseUrl("openai"),
      escalation: false,
    });
    try {
      const { key, keyId } = await own.createKey("max");
      const auth = { authorization: `Bearer ${key}` };
      llm.reply = (req) => ({
        json: { name: pageOf(req), price: 2, tags: [] },
        usage: { prompt_tokens: 7, completion_tokens: 3 },
      });
      const urls = [fresh("/product"), fresh("/article")];
      const started = await start(
        { urls, extract: { schema: SCHEMA }, llmProvider: "openai", llmApiKey: KEY },
        "/v1/batch/scrape",
        own,
        auth,
      );
      expect((await until(`/v1/batch/scrape/${started.id}`, own, auth)).status).toBe("completed");
      const history = async (kind: "token" | "credit") => {
        const res = await own.request(`/v2/team/${kind}-usage/historical?byApiKey=true`, { headers: auth });
        return ((await res.json()) as { periods: Record<string, unknown>[] }).periods;
      };
      // Settled as each page finishes, so the history has them once the job has ended.
      expect(await history("token")).toEqual([expect.objectContaining({ apiKey: keyId, tokensUsed: 20 })]);
      expect(await history("credit")).toEqual([expect.objectContaining({ apiKey: keyId, creditsUsed: 2 })]);
      // The pages are no requests: the account's statistics count the start alone (polls are unmetered).
      const stats = (await (await own.request("/v1/stats", { headers: auth })).json()) as {
        totalRequests: number;
      };
      expect(stats.totalRequests).toBe(1);
    } finally {
      await own.close();
    }
  });

  test("crawl scrapeOptions.extract: every page gains json; the key in scrapeOptions is erased at the end", async () => {
    llm.reply = (req) => ({ json: { name: pageOf(req), price: null, tags: ["x"] } });
    const url = fresh("/article");
    const started = await start(
      {
        url,
        maxDepth: 0,
        ignoreSitemap: true,
        scrapeOptions: { extract: { schema: SCHEMA }, llmProvider: "openai", llmApiKey: KEY },
      },
      "/v1/crawl",
    );
    const poll = (await until(`/v1/crawl/${started.id}`)) as unknown as {
      status: string;
      data: { url: string; json: unknown }[];
    };
    expect(poll.status).toBe("completed");
    expect(poll.data).toHaveLength(1);
    expect(poll.data[0]?.json).toEqual({ name: poll.data[0]?.url, price: null, tags: ["x"] });
    const input = (await stored(started.id)).input as { scrapeOptions: Record<string, unknown> };
    expect(input.scrapeOptions.extract).toEqual({ schema: SCHEMA });
    expect(JSON.stringify(input)).not.toContain(KEY);
  });

  test("a bad extraction in a batch or crawl is a 400 before the job exists", async () => {
    const before = await jobCount();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["/v1/batch/scrape", { urls: [fresh("/product")], extract: { prompt: "x" } }, /A prompt needs an LLM/],
      ["/v1/batch/scrape", { urls: [fresh("/product")], extract: {} }, /Nothing to extract/],
      ["/v1/batch/scrape", { urls: [fresh("/product")], llmApiKey: KEY }, /only apply with extract/],
      ["/v1/batch/scrape", { urls: [fresh("/product")], formats: ["json"] }, /needs a schema or a prompt/],
      [
        "/v1/batch/scrape",
        {
          urls: [fresh("/product")],
          extract: { schema: SCHEMA },
          formats: [{ type: "json", schema: SCHEMA }],
        },
        /not both/,
      ],
      ["/v1/batch/scrape", { urls: [fresh("/product")], extract: { schema: SCHEMA, junk: 1 } }, /junk/],
      [
        "/v1/crawl",
        { url: fresh("/product"), scrapeOptions: { extract: { schema: SCHEMA }, llmProvider: "openai" } },
        /needs llmApiKey/,
      ],
      [
        "/v1/crawl",
        {
          url: fresh("/product"),
          scrapeOptions: { formats: [{ type: "json", schema: { type: "string" } }] },
        },
        /object/,
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
    }
    expect(await jobCount()).toBe(before);
  });
});

describe("the key and the documentation", () => {
  test("the OpenAPI document describes the extraction job's routes", async () => {
    const doc = (await (await app.request("/docs/json")).json()) as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown>; requestBody?: unknown }>>;
    };
    const post = doc.paths["/v1/extract"]?.post;
    expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(["200", "202", "400"]));
    expect(JSON.stringify(post?.requestBody)).toContain('"urls"');
    expect(JSON.stringify(doc.paths["/v1/extract/{id}"]?.get?.responses?.["200"])).toContain('"results"');
    expect(doc.paths["/v1/extract/{id}"]?.delete).toBeDefined();
    const batch = JSON.stringify(doc.paths["/v1/batch/scrape"]?.post?.requestBody);
    expect(batch).toContain('"llmApiKey"');
  });

  test("no answer, poll, list or log of this file showed the key", () => {
    expect(seen.length).toBeGreaterThan(30);
    for (const text of [...seen, ...app.logs]) expect(text).not.toContain(KEY);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import Firecrawl, { type Document, SdkError } from "@mendable/firecrawl-js";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { BRAVE_KEY, type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, PRODUCT_NAME, SITEMAP_PATHS, startFixtureSite } from "../helpers/fixture-site.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * Firecrawl's crawl, batch, map, search, extract and agent driven by Firecrawl's own JS SDK
 * (@mendable/firecrawl-js: its v2 client and its v1 client `fc.v1`) against a real siphon on
 * loopback: the fixture site and a generated one, the fake search engines, a fake
 * OpenAI-compatible LLM as the operator's model, and a webhook receiver.
 */

const OPERATOR_KEY = "operator-llm-key-7d1c";
const WEBHOOK_SECRET = "whsec-firecrawl-test";

let site: FixtureSite;
let gen: GeneratedSite;
let slow: GeneratedSite;
let llm: FakeLlm;
let engines: FakeSearch;
/** The operator's LLM (the fake) and DuckDuckGo (the fake). */
let app: TestApp;
/** No LLM; Brave (the fake) as its search provider. */
let plain: TestApp;
/** SSRF protection on. */
let guarded: TestApp;
let fc: Firecrawl;
let fcPlain: Firecrawl;
let fcGuarded: Firecrawl;
let apiUrl: string;
let key: string;
let receiver: ReturnType<typeof Bun.serve>;
const deliveries: { headers: Headers; raw: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  gen = startGeneratedSite(130);
  slow = startGeneratedSite(60, { latencyMs: 150 });
  llm = await startFakeLlm({ keys: [OPERATOR_KEY] });
  engines = startFakeSearch(site.url);
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const raw = await request.text();
      deliveries.push({ headers: request.headers, raw, body: JSON.parse(raw) });
      return new Response("ok");
    },
  });
  const search = {
    duckduckgoUrl: engines.duckduckgoUrl,
    braveUrl: engines.braveUrl,
    searxngUrl: engines.searxngUrl,
  };
  app = await startTestApp({
    escalation: false,
    fetchTimeoutMs: 5000,
    webhookBaseDelayMs: 10,
    llmProvider: "openai",
    llmApiKey: OPERATOR_KEY,
    openaiBaseUrl: llm.baseUrl("openai"),
    ...search,
  });
  plain = await startTestApp({
    escalation: false,
    fetchTimeoutMs: 5000,
    searchProvider: "brave",
    braveApiKey: BRAVE_KEY,
    ...search,
  });
  guarded = await startTestApp({ escalation: false, fetchTimeoutMs: 5000, disableSsrfProtection: false });
  apiUrl = app.listen();
  key = (await app.createKey("max")).key;
  fc = new Firecrawl({ apiKey: key, apiUrl });
  fcPlain = new Firecrawl({ apiKey: (await plain.createKey("max")).key, apiUrl: plain.listen() });
  fcGuarded = new Firecrawl({ apiKey: (await guarded.createKey("max")).key, apiUrl: guarded.listen() });
});

afterAll(async () => {
  await app.close();
  await plain.close();
  await guarded.close();
  receiver.stop(true);
  await engines.stop();
  await llm.stop();
  gen.stop();
  slow.stop();
  await site.stop();
});

beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = () => ({});
});

/** The SdkError a call rejects with. */
async function sdkError(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** The error (of any class) a call rejects with. */
async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the call to fail");
}

const pathOf = (doc: Document) => new URL(String(doc.metadata?.sourceURL)).pathname;
const auth = () => ({ authorization: `Bearer ${key}` });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await Bun.sleep(50);
  }
}

describe("crawl through the v2 SDK", () => {
  test("crawl polls to the end and follows `next`: 120 pages arrive as documents with Firecrawl's metadata", async () => {
    const job = await fc.crawl(`${gen.url}/g/0`, { limit: 120, crawlEntireDomain: true, pollInterval: 1 });
    expect(job.status).toBe("completed");
    expect(job.total).toBe(120);
    // The server pages its answer by 100: the SDK got the rest by following `next`.
    expect(job.data).toHaveLength(120);
    expect(new Set(job.data.map(pathOf)).size).toBe(120);
    const first = job.data.find((doc) => pathOf(doc) === "/g/0") as Document;
    expect(first.markdown).toContain("This generated page has enough prose");
    expect(first.html).toBeUndefined();
    expect(first.metadata).toMatchObject({
      title: "Generated page 0",
      sourceURL: `${gen.url}/g/0`,
      url: `${gen.url}/g/0`,
      statusCode: 200,
      contentType: "text/html",
      creditsUsed: 1,
    });
    expect(job.creditsUsed).toBe(120);
  }, 30_000);

  test("`next` is absolute on the request's own origin and left out (not null) on the last page", async () => {
    const { id, url } = await fc.startCrawl(`${gen.url}/g/0`, { limit: 6, crawlEntireDomain: true });
    expect(url).toBe(`${apiUrl}/v2/crawl/${id}`);
    await until(
      () => fc.getCrawlStatus(id),
      (s) => s.status === "completed",
    );
    const page = (await (await fetch(`${apiUrl}/v2/crawl/${id}?limit=4`, { headers: auth() })).json()) as {
      next?: string;
      data: unknown[];
    };
    expect(page.data).toHaveLength(4);
    expect(page.next).toBe(`${apiUrl}/v2/crawl/${id}?skip=4&limit=4`);
    const last = (await (await fetch(page.next as string, { headers: auth() })).json()) as Record<
      string,
      unknown
    >;
    expect(last.data).toHaveLength(2);
    expect("next" in last).toBe(false);
    // Asked through another name for the same server, the links follow the request.
    const other = apiUrl.replace("127.0.0.1", "localhost");
    const viaName = (await (await fetch(`${other}/v2/crawl/${id}?limit=4`, { headers: auth() })).json()) as {
      next: string;
    };
    expect(viaName.next).toStartWith(`${other}/v2/crawl/`);
  });

  test("by default only links below the start URL's path are followed; crawlEntireDomain lifts that", async () => {
    const below = await fc.crawl(`${gen.url}/g/1`, { limit: 40, pollInterval: 1 });
    const paths = below.data.map(pathOf);
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.every((path) => path.startsWith("/g/1"))).toBe(true);
    const everywhere = await fc.crawl(`${gen.url}/g/1`, {
      limit: 12,
      crawlEntireDomain: true,
      pollInterval: 1,
    });
    expect(everywhere.data.map(pathOf).some((path) => !path.startsWith("/g/1"))).toBe(true);
  }, 30_000);

  test("scrapeOptions are each page's scrape: formats, onlyMainContent", async () => {
    const job = await fc.crawl(`${gen.url}/g/2`, {
      limit: 2,
      crawlEntireDomain: true,
      pollInterval: 1,
      scrapeOptions: { formats: ["html", "links"], onlyMainContent: false },
    });
    const doc = job.data[0] as Document;
    expect(doc.markdown).toBeUndefined();
    expect(doc.html).toContain("<h1>Generated page");
    expect(doc.links).toContain(`${gen.url}/g/0`);
    expect(
      await sdkError(fc.startCrawl(`${gen.url}/g/0`, { scrapeOptions: { formats: ["audio"] } })),
    ).toMatchObject({ status: 400, code: "not_implemented" });
  });

  test("the watcher follows the crawl over the WebSocket: documents, then done", async () => {
    const { id } = await fc.startCrawl(`${slow.url}/g/0`, { limit: 8, crawlEntireDomain: true });
    // Polls 30 s apart: only the socket gets the pages here within the test's time.
    const watcher = fc.watcher(id, { kind: "crawl", pollInterval: 30 });
    const documents: Document[] = [];
    watcher.on("document", (doc: Document) => documents.push(doc));
    const done = new Promise<{ status: string }>((resolve) => watcher.on("done", resolve));
    await watcher.start();
    expect((await done).status).toBe("completed");
    expect(new Set(documents.map(pathOf)).size).toBe(8);
  }, 20_000);

  test("the WebSocket speaks Firecrawl's messages: catchup, a document per page, then done as the close reason", async () => {
    const { id } = await fc.startCrawl(`${slow.url}/g/0`, { limit: 5, crawlEntireDomain: true });
    const socket = new WebSocket(`${apiUrl.replace("http", "ws")}/v2/crawl/${id}`, key);
    const messages: { type: string; data?: Record<string, unknown> }[] = [];
    socket.onmessage = (event) => messages.push(JSON.parse(String(event.data)));
    const closed = await new Promise<CloseEvent>((resolve) => {
      socket.onclose = resolve;
    });
    // The key came as the subprotocol, and the handshake named it back.
    expect(socket.protocol).toBe(key);
    expect(JSON.parse(closed.reason)).toEqual({ type: "done" });
    expect(messages[0]?.type).toBe("catchup");
    expect(messages[0]?.data).toMatchObject({ success: true, total: expect.any(Number) });
    const documents = [
      ...((messages[0]?.data?.data as Document[]) ?? []),
      ...messages.filter((m) => m.type === "document").map((m) => m.data as Document),
    ];
    expect(new Set(documents.map(pathOf)).size).toBe(5);

    const unknown = new WebSocket(`${apiUrl.replace("http", "ws")}/v2/crawl/crawl_nope`, key);
    const refused = await new Promise<CloseEvent>((resolve) => {
      unknown.onclose = resolve;
    });
    expect(refused.code).toBe(1008);
    expect(JSON.parse(refused.reason)).toEqual({ type: "error", error: "Job not found" });
  });

  test("the v1 client's crawlUrlAndWatch gets every document over the WebSocket", async () => {
    const watcher = await fc.v1.crawlUrlAndWatch(`${slow.url}/g/0`, { limit: 4, crawlEntireDomain: true });
    const documents: Document[] = [];
    watcher.addEventListener("document", (event) => {
      documents.push((event as CustomEvent<Document>).detail);
    });
    const done = await new Promise<{ status: string }>((resolve) =>
      watcher.addEventListener("done", (event) => resolve((event as CustomEvent<{ status: string }>).detail)),
    );
    expect(done.status).toBe("completed");
    expect(new Set(documents.map(pathOf)).size).toBe(4);
  });

  test("getCrawlErrors lists the pages that failed; getActiveCrawls the crawls running; cancel stops one", async () => {
    const { id } = await fc.startCrawl(`${slow.url}/g/0`, { limit: 50, crawlEntireDomain: true });
    const active = await fc.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(id);
    expect(active.crawls.find((c) => c.id === id)?.url).toBe(`${slow.url}/g/0`);
    expect(await fc.cancelCrawl(id)).toBe(true);
    const status = await fc.getCrawlStatus(id);
    expect(status.status).toBe("cancelled");
    expect(status.completed).toBeLessThan(50);
    expect((await fc.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(id);

    const batch = await fc.batchScrape([`${site.url}/article`, "http://127.0.0.1:1/refused"], {
      pollInterval: 1,
    });
    expect(batch.data).toHaveLength(1);
    const errors = await fc.getBatchScrapeErrors(batch.id as string);
    expect(errors.robotsBlocked).toEqual([]);
    expect(errors.errors).toEqual([
      expect.objectContaining({
        url: "http://127.0.0.1:1/refused",
        code: "network_error",
        error: expect.any(String),
      }),
    ]);
    expect((await fc.getCrawlErrors(id)).errors).toEqual([]);
  });
});

describe("batch scrape through the v2 SDK", () => {
  test("batchScrape scrapes every URL with the options given and polls to the end", async () => {
    const job = await fc.batchScrape([`${site.url}/article`, `${site.url}/product`], {
      options: { formats: ["markdown", "links"] },
      pollInterval: 1,
    });
    expect(job.status).toBe("completed");
    expect(job.completed).toBe(2);
    const product = job.data.find((doc) => pathOf(doc) === "/product") as Document;
    expect(product.markdown).toContain(PRODUCT_NAME);
    expect(Array.isArray(product.links)).toBe(true);
    expect(product.metadata).toMatchObject({ sourceURL: `${site.url}/product`, statusCode: 200 });
  });

  test("invalid URLs: a 400 naming them, or left out and listed with ignoreInvalidURLs", async () => {
    const refused = await sdkError(fc.startBatchScrape([`${site.url}/article`, "not a url"]));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("urls[1]");
    const started = await fc.startBatchScrape([`${site.url}/docs`, "not a url"], { ignoreInvalidURLs: true });
    expect(started.invalidURLs).toEqual(["not a url"]);
    const done = await until(
      () => fc.getBatchScrapeStatus(started.id),
      (s) => s.status === "completed",
    );
    expect(done.data.map(pathOf)).toEqual(["/docs"]);
    expect(
      await sdkError(fc.startBatchScrape([`${site.url}/docs`], { appendToId: "batch_x" })),
    ).toMatchObject({
      status: 400,
      code: "not_implemented",
    });
  });
});

describe("map and search through the v2 SDK", () => {
  test("map lists the site's URLs as {url}; sitemap only lists the sitemap's URLs alone, crawl too", async () => {
    const mapped = await fc.map(`${gen.url}/g/0`, { limit: 5 });
    expect(mapped.links).toHaveLength(5);
    expect(mapped.links[0]).toEqual({ url: `${gen.url}/g/0`, title: undefined, description: undefined });
    const listed = SITEMAP_PATHS.map((path) => `${site.url}${path}`).sort();
    site.resetHits();
    const only = await fc.map(`${site.url}/docs`, { sitemap: "only" });
    expect(only.links.map((link) => link.url).sort()).toEqual(listed);
    expect(site.hits("/docs")).toBe(0);
    const crawled = await fc.crawl(`${site.url}/`, {
      sitemap: "only",
      crawlEntireDomain: true,
      limit: 50,
      pollInterval: 1,
    });
    expect(crawled.data.map((doc) => doc.metadata?.sourceURL ?? doc.metadata?.url).sort()).toEqual(listed);
    expect(site.hits("/recipes/1")).toBe(0);
  });

  test("search keeps to includeDomains and away from excludeDomains", async () => {
    engines.results = [
      { path: "http://docs.example.test/a", title: "A", snippet: "a" },
      { path: "http://other.test/b", title: "B", snippet: "b" },
    ];
    try {
      engines.clear();
      const kept = await fc.search("solar farm", { limit: 5, includeDomains: ["example.test"] });
      expect(kept.web?.map((r) => (r as { url: string }).url)).toEqual(["http://docs.example.test/a"]);
      expect(engines.requests.at(-1)?.params.q).toContain("site:example.test");
      const away = await fc.search("solar farm", { limit: 5, excludeDomains: ["example.test"] });
      expect(away.web?.map((r) => (r as { url: string }).url)).toEqual(["http://other.test/b"]);
    } finally {
      engines.results = null;
    }
  });

  test("search answers web results from the operator's provider; scrapeOptions scrapes each of them", async () => {
    const bare = await fc.search("solar farm", { limit: 3 });
    expect(bare.web?.map((r) => (r as { url: string }).url)).toEqual(
      RESULT_PAGES.slice(0, 3).map((p) => `${site.url}${p.path}`),
    );
    expect(bare.web?.[0]).toMatchObject({
      title: RESULT_PAGES[0]?.title,
      description: expect.any(String),
      position: 1,
    });
    const scraped = await fc.search("solar farm", { limit: 2, scrapeOptions: { formats: ["markdown"] } });
    const article = scraped.web?.[0] as Document & { url: string };
    expect(article.url).toBe(`${site.url}/article`);
    expect(article.markdown).toContain("solar");
    expect(article.metadata?.sourceURL).toBe(`${site.url}/article`);
  });

  test("news and images come in Firecrawl's shapes; a source the provider lacks and Alexandria are refused", async () => {
    const found = await fcPlain.search("solar farm", { limit: 2, sources: ["web", "news", "images"] });
    expect(found.web).toHaveLength(2);
    expect(found.news?.[0]).toMatchObject({
      title: expect.any(String),
      url: expect.any(String),
      position: 1,
    });
    expect(found.images?.[0]).toMatchObject({
      imageUrl: expect.any(String),
      url: expect.any(String),
      position: 1,
    });
    // DuckDuckGo has no news search.
    expect(await sdkError(fc.search("solar farm", { sources: ["news"] }))).toMatchObject({ status: 400 });
    const alexandria = await sdkError(fc.search("solar farm", { sources: ["web", "alexandria" as "web"] }));
    expect(alexandria).toMatchObject({ status: 403, message: "Exchange is not enabled for this team." });
    expect(await sdkError(fc.search("solar farm", { tbs: "qdr:h" }))).toMatchObject({
      status: 400,
      code: "not_implemented",
    });
  });
});

describe("extract and agent through the v2 SDK", () => {
  const schema = {
    type: "object",
    properties: { name: { type: ["string", "null"] }, price: { type: ["number", "null"] } },
    required: ["name", "price"],
  };

  test("extract runs as a job on the operator's LLM, which the stored job never holds", async () => {
    llm.reply = () => ({ json: { name: "Aeropress", price: 39.95 } });
    const result = await fc.extract({
      urls: [`${site.url}/product`],
      schema,
      prompt: "The product",
      pollInterval: 1,
    });
    expect(result).toMatchObject({
      success: true,
      status: "completed",
      data: { name: "Aeropress", price: 39.95 },
    });
    expect(llm.requests.at(-1)?.authorization).toBe(`Bearer ${OPERATOR_KEY}`);
    const job = await app.store.jobs.get(result.id as string);
    expect(JSON.stringify(job?.input)).not.toContain(OPERATOR_KEY);
  });

  test("without any LLM a schema is filled from the page's structured data; a prompt alone is a 400", async () => {
    const result = await fcPlain.extract({
      urls: [`${site.url}/structured/product/json-ld`],
      schema,
      pollInterval: 1,
    });
    expect(result.status).toBe("completed");
    expect(typeof (result.data as { name: unknown }).name).toBe("string");
    expect(
      await sdkError(fcPlain.startExtract({ urls: [`${site.url}/product`], prompt: "Anything" })),
    ).toMatchObject({
      status: 400,
      code: "invalid_request",
    });
    expect(await sdkError(fc.startExtract({ urls: [`${site.url}/*`], schema }))).toMatchObject({
      status: 400,
      code: "not_implemented",
    });
  });

  test("agent runs siphon's agent on the operator's LLM; without any LLM it is a clear 400", async () => {
    llm.reply = (request) =>
      request.body?.response_format
        ? { json: { council: "approved the solar farm" } }
        : { text: "Approved [1]." };
    const result = await fc.agent({
      prompt: "What did the council approve?",
      urls: [`${site.url}/article`],
      schema: { type: "object", properties: { council: { type: "string" } }, required: ["council"] },
      pollInterval: 1,
    });
    expect(result).toMatchObject({
      success: true,
      status: "completed",
      data: { council: "approved the solar farm" },
    });
    expect(llm.requests.every((r) => r.authorization === `Bearer ${OPERATOR_KEY}`)).toBe(true);
    const refused = await sdkError(fcPlain.startAgent({ prompt: "What did the council approve?" }));
    expect(refused).toMatchObject({
      status: 400,
      message: "The agent needs an LLM, and this server has none",
    });
    expect(await sdkError(fc.startAgent({ prompt: "x", strictConstrainToURLs: true }))).toMatchObject({
      status: 400,
      code: "not_implemented",
    });
  });

  test("an agent job is cancelled with cancelAgent", async () => {
    llm.reply = () => ({ text: "Slow.", delayMs: 2000 });
    const { id } = await fc.startAgent({ prompt: "Slowly", urls: [`${site.url}/article`] });
    expect(await fc.cancelAgent(id as string)).toBe(true);
    expect((await fc.getAgentStatus(id as string)).status as string).toBe("cancelled");
  });
});

describe("webhooks of jobs a Firecrawl route started", () => {
  beforeEach(() => {
    deliveries.length = 0;
  });
  const hookUrl = () => `http://127.0.0.1:${receiver.port}/hook`;

  test("crawl: Firecrawl's payloads (crawl.started, crawl.page with the document, crawl.completed), signed X-Firecrawl-Signature", async () => {
    const job = await fc.crawl(`${gen.url}/g/3`, {
      limit: 2,
      crawlEntireDomain: true,
      pollInterval: 1,
      webhook: {
        url: hookUrl(),
        metadata: { run: "42" },
        headers: { "x-receiver-token": "t0k" },
        events: ["started", "page", "crawl.completed"],
        secret: WEBHOOK_SECRET,
      } as never,
    });
    const id = job.id;
    await until(
      async () => deliveries.length,
      (n) => n >= 4,
    );
    expect(deliveries.map((d) => d.body.type)).toEqual([
      "crawl.started",
      "crawl.page",
      "crawl.page",
      "crawl.completed",
    ]);
    for (const delivery of deliveries) {
      expect(delivery.body).toMatchObject({
        success: true,
        id,
        metadata: { run: "42" },
        webhookId: expect.any(String),
      });
      const hmac = createHmac("sha256", WEBHOOK_SECRET).update(delivery.raw).digest("hex");
      expect(delivery.headers.get("x-firecrawl-signature")).toBe(`sha256=${hmac}`);
      expect(delivery.headers.get("x-siphon-signature")).toBeNull();
      expect(delivery.headers.get("x-receiver-token")).toBe("t0k");
    }
    const page = deliveries[1]?.body.data as Document[];
    expect(page).toHaveLength(1);
    expect(page[0]?.markdown).toContain("This generated page has enough prose");
    expect(page[0]?.metadata?.sourceURL).toStartWith(`${gen.url}/g/`);
    expect(deliveries[3]?.body.data).toEqual([]);
  });

  test("batch: a webhook URL receives every batch_scrape event, unsigned; a failed batch says why", async () => {
    await fc.batchScrape(["http://127.0.0.1:1/refused"], { webhook: hookUrl(), pollInterval: 1 });
    await until(
      async () => deliveries.length,
      (n) => n >= 2,
    );
    expect(deliveries.map((d) => d.body.type)).toEqual(["batch_scrape.started", "batch_scrape.failed"]);
    expect(deliveries[1]?.body).toMatchObject({
      success: false,
      error: "Every page of the job failed",
      data: [],
    });
    expect(deliveries[0]?.headers.get("x-firecrawl-signature")).toBeNull();
    expect(
      await sdkError(
        fc.startBatchScrape([`${site.url}/docs`], {
          webhook: { url: hookUrl(), events: ["nope" as "page"] },
        }),
      ),
    ).toMatchObject({
      status: 400,
    });
  });
});

describe("the v1 client (fc.v1)", () => {
  test("crawlUrl polls /v1/crawl/:id (status scraping) to the end and follows next", async () => {
    const job = (await fc.v1.crawlUrl(`${gen.url}/g/0`, { limit: 105, crawlEntireDomain: true }, 1)) as {
      status: string;
      data: Document[];
    };
    expect(job.status).toBe("completed");
    expect(job.data).toHaveLength(105);
    expect(job.data[0]?.metadata?.sourceURL).toStartWith(`${gen.url}/g/`);
  }, 30_000);

  test("asyncCrawlUrl, checkCrawlStatus, checkCrawlErrors (a DELETE) and cancelCrawl", async () => {
    const started = (await fc.v1.asyncCrawlUrl(`${slow.url}/g/0`, {
      limit: 30,
      crawlEntireDomain: true,
    })) as {
      success: boolean;
      id: string;
      url: string;
    };
    expect(started).toMatchObject({ success: true, url: `${apiUrl}/v1/crawl/${started.id}` });
    const status = (await fc.v1.checkCrawlStatus(started.id)) as { status: string; success: boolean };
    expect(status.success).toBe(true);
    expect(["scraping", "completed"]).toContain(status.status);
    expect(await fc.v1.checkCrawlErrors(started.id)).toMatchObject({ errors: [], robotsBlocked: [] });
    expect((await fc.v1.cancelCrawl(started.id)) as unknown).toEqual({ success: true, status: "cancelled" });
  });

  test("batchScrapeUrls polls the batch on /v1/crawl/:id; mapUrl answers links as strings", async () => {
    const batch = (await fc.v1.batchScrapeUrls(
      [`${site.url}/article`, `${site.url}/docs`],
      { formats: ["markdown"] },
      1,
    )) as {
      status: string;
      data: Document[];
    };
    expect(batch.status).toBe("completed");
    expect(batch.data.map(pathOf).sort()).toEqual(["/article", "/docs"]);
    const mapped = (await fc.v1.mapUrl(`${gen.url}/g/0`, { limit: 3 })) as {
      success: boolean;
      links: string[];
    };
    expect(mapped).toEqual({
      success: true,
      links: [`${gen.url}/g/0`, expect.any(String), expect.any(String)],
    });
  });

  test("search (country us and lang en become the region us-en) and extract", async () => {
    engines.clear();
    const found = (await fc.v1.search("solar farm", {
      limit: 2,
      scrapeOptions: { formats: ["markdown"] },
    })) as {
      data: (Document & { url: string })[];
    };
    expect(found.data.map((r) => r.url)).toEqual([`${site.url}/article`, `${site.url}/docs`]);
    expect(found.data[0]?.markdown).toContain("solar");
    expect(engines.of("duckduckgo")[0]?.params.kl).toBe("us-en");
    llm.reply = () => ({ json: { name: "Aeropress", price: 39.95 } });
    const extracted = (await fc.v1.extract([`${site.url}/product`], {
      prompt: "The product",
      schema: { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } },
    } as never)) as { success: boolean; data: unknown };
    expect(extracted).toMatchObject({ success: true, data: { name: "Aeropress", price: 39.95 } });
  });

  test("errors surface as the v1 client's FirecrawlError", async () => {
    const bad = await failure(fc.v1.crawlUrl("not a url", {}));
    expect(bad.message).toContain("Request failed with status code 400");
    expect(bad.statusCode).toBe(400);
    const missing = await failure(fc.v1.checkCrawlStatus("crawl_nope"));
    expect(missing.message).toContain("404");
  });
});

describe("errors surface as the SDK's own", () => {
  test("a bad URL is a 400, a blocked address a 403, an unknown job a 404", async () => {
    expect(await sdkError(fc.startCrawl("notaurl"))).toMatchObject({ status: 400, code: "invalid_url" });
    const blocked = await sdkError(fcGuarded.map("http://127.0.0.1:9/"));
    expect(blocked).toMatchObject({ status: 403, code: "forbidden_url" });
    expect(await sdkError(fc.getCrawlStatus("crawl_nope"))).toMatchObject({ status: 404, code: "not_found" });
    expect(await sdkError(fc.getBatchScrapeStatus("batch_nope"))).toMatchObject({ status: 404 });
    expect(await sdkError(fc.getAgentStatus("job_nope"))).toMatchObject({ status: 404 });
    // A crawl prompt needs an LLM; this server has none.
    const noModel = await sdkError(fcPlain.startCrawl(`${site.url}/`, { prompt: "docs only" }));
    expect(noModel).toMatchObject({ status: 400, code: "invalid_request" });
    expect(noModel.message).toContain("A crawl prompt needs an LLM");
  });

  test("a blocked crawl start is refused at submit: a 403 to the SDK's crawl and to the v1 client", async () => {
    expect(await sdkError(fcGuarded.crawl("http://127.0.0.1:9/", { pollInterval: 1 }))).toMatchObject({
      status: 403,
      code: "forbidden_url",
    });
    const v1 = await failure(fcGuarded.v1.crawlUrl("http://127.0.0.1:9/", {}, 1));
    expect(v1.statusCode).toBe(403);
  });
});

describe("the paths siphon's own API shares", () => {
  test("POST /v1/crawl without origin is siphon's (202, format B); with it Firecrawl's (200, Firecrawl's errors)", async () => {
    const post = (body: unknown) =>
      app.request("/v1/crawl", { method: "POST", headers: auth(), body: JSON.stringify(body) });
    const native = await post({ url: `${gen.url}/g/0`, limit: 1 });
    expect(native.status).toBe(202);
    const firecrawl = await post({ url: `${gen.url}/g/0`, limit: 1, origin: "curl" });
    expect(firecrawl.status).toBe(200);
    const nativeId = ((await native.json()) as { id: string }).id;
    const nativePoll = await until(
      async () =>
        (await (await app.request(`/v1/crawl/${nativeId}`, { headers: auth() })).json()) as Record<
          string,
          unknown
        >,
      (p) => p.status === "completed",
    );
    // siphon's own poll keeps its shape: status "completed" with progress, items with url and title.
    expect(nativePoll).toMatchObject({
      progress: 100,
      data: [expect.objectContaining({ url: expect.any(String) })],
    });
    const badNative = (await (await post({ url: "notaurl" })).json()) as { error: { type: string } };
    expect(badNative.error.type).toBe("invalid_url");
    const badFirecrawl = (await (await post({ url: "notaurl", origin: "curl" })).json()) as Record<
      string,
      unknown
    >;
    expect(badFirecrawl).toMatchObject({ success: false, error: expect.any(String), code: "invalid_url" });
    // A batch a Firecrawl client started answers on /v1/crawl/:id; siphon's own batches do not.
    const nativeBatch = (await (
      await app.request("/v1/batch/scrape", {
        method: "POST",
        headers: auth(),
        body: JSON.stringify({ urls: [`${site.url}/docs`] }),
      })
    ).json()) as { id: string };
    expect((await app.request(`/v1/crawl/${nativeBatch.id}`, { headers: auth() })).status).toBe(404);
  });
});

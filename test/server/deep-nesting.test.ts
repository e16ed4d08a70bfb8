import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Pages nested 200,000 elements deep (1.4 MB of `<div>`) through every
 * surface that extracts: each answers 200 with the text a browser shows
 * (src/extract/depth.ts bounds the tree at 512 levels as Chromium does),
 * never a 500 from a stack overflow. Deep JSON and XML bodies too.
 */

// Each test parses pages of 1.4 MB nested 200,000 deep: 2-5 s on a 2-core machine.
setDefaultTimeout(30_000);

const SENTENCE = "The deepest sentence survives.";
const LEVELS = 200_000;
/** Enough words that the page reads as an article, not an app shell: no browser escalation, one fetch per request. */
const FILLER = "Plain words of the article that a reader came for, long enough to be content. ".repeat(8);

const deep = (inner: string, levels = LEVELS): string =>
  `${"<div>".repeat(levels)}${inner}${"</div>".repeat(levels)}`;
const page = (title: string, body: string): string =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const deepArticle = (title: string, extra = ""): string =>
  page(title, deep(`<p>${SENTENCE} ${FILLER}</p>${extra}`));

const JSON_DEEP = `${"[".repeat(LEVELS)}"${SENTENCE}"${"]".repeat(LEVELS)}`;
const JSON_7000 = `${"[".repeat(7_000)}1${"]".repeat(7_000)}`;
const RSS_DEEP = `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep feed</title><item><title>Deep item</title><description>${"<b>".repeat(LEVELS)}${SENTENCE}${"</b>".repeat(LEVELS)}</description></item></channel></rss>`;
const XML_DEEP = `<?xml version="1.0"?><root>${"<a>".repeat(LEVELS)}${SENTENCE}${"</a>".repeat(LEVELS)}</root>`;

const ROUTES: Record<string, [string, string]> = {
  "/fetch": [deepArticle("Deep fetch"), "text/html"],
  "/reader": [deepArticle("Deep reader"), "text/html"],
  "/scrape": [deepArticle("Deep scrape"), "text/html"],
  "/crawl": [deepArticle("Deep crawl", '<p><a href="/crawl/next">Next page</a></p>'), "text/html"],
  "/crawl/next": [deepArticle("Deep crawl, next"), "text/html"],
  "/mixed": [
    page(
      "Mixed",
      `<nav><a href="/">Home</a></nav><main><h1>Mixed page</h1><p>Before the deep part. ${FILLER}</p>${deep(`<p>${SENTENCE}</p>`)}<p>After the deep part. ${FILLER}</p></main><footer>Site footer</footer>`,
    ),
    "text/html",
  ],
  // The page of the report: 7,000 <div> around a sentence alone, which reads as an app shell and is rendered.
  "/shell": [page("Shell", deep(`<p>${SENTENCE}</p>`, 7_000)), "text/html"],
  "/ok": [page("Fine", `<main><h1>Fine</h1><p>${FILLER}</p></main>`), "text/html"],
  "/deep.json": [JSON_DEEP, "application/json"],
  "/deep-7000.json": [JSON_7000, "application/json"],
  "/deep.rss": [RSS_DEEP, "application/rss+xml"],
  "/deep.xml": [XML_DEEP, "application/xml"],
};

let app: TestApp;
let site: ReturnType<typeof Bun.serve>;
let origin: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const route = ROUTES[path];
      if (!route) return new Response("not found", { status: 404 });
      return new Response(route[0], { headers: { "content-type": route[1] } });
    },
  });
  origin = `http://127.0.0.1:${site.port}`;
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
  site.stop(true);
});

const fetchPage = (path: string, query = "") =>
  app.request(`/v1/fetch?url=${encodeURIComponent(origin + path)}&maxAge=0${query}`);

describe("200,000 nested <div> around a sentence", () => {
  for (const onlyMainContent of [true, false]) {
    test(`GET /v1/fetch, onlyMainContent ${onlyMainContent}: markdown and text hold the sentence`, async () => {
      const before = hits.get("/fetch") ?? 0;
      const res = await fetchPage("/fetch", `&formats=markdown,text&onlyMainContent=${onlyMainContent}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as FetchResult;
      expect(body.title).toBe("Deep fetch");
      expect(body.markdown).toStartWith(SENTENCE);
      expect(body.text).toStartWith(SENTENCE);
      expect(hits.get("/fetch")).toBe(before + 1);
    });
  }

  test("GET /r/ answers the reader's text with the sentence", async () => {
    const res = await app.request(`/r/${origin}/reader`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Title: Deep reader");
    expect(text).toContain(SENTENCE);
    expect(hits.get("/reader")).toBe(1);
  });

  test("POST /v1/scrape answers markdown and html with the sentence", async () => {
    const res = await app.request("/v1/scrape", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${origin}/scrape`, formats: ["markdown", "html"] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { markdown: string; html: string } };
    expect(body.success).toBe(true);
    expect(body.data.markdown).toStartWith(SENTENCE);
    expect(body.data.html).toContain(`<p>${SENTENCE}`);
    expect(hits.get("/scrape")).toBe(1);
  });

  test("a crawl reads both deep pages, each once, and finds the link inside the deep part", async () => {
    const started = await app.request("/v1/crawl", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${origin}/crawl`, limit: 10 }),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    let job: { status: string; data: { url: string; markdown: string }[] } | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(100)) {
      job = (await (await app.request(`/v1/crawl/${id}`)).json()) as typeof job;
      if (job?.status === "completed" || job?.status === "failed") break;
    }
    expect(job?.status).toBe("completed");
    const pages = new Map(job!.data.map((item) => [new URL(item.url).pathname, item.markdown]));
    expect([...pages.keys()].sort()).toEqual(["/crawl", "/crawl/next"]);
    for (const markdown of pages.values()) expect(markdown).toStartWith(SENTENCE);
    expect(hits.get("/crawl")).toBe(1);
    expect(hits.get("/crawl/next")).toBe(1);
  });

  test("normal content before and after the deep part survives, in order", async () => {
    for (const onlyMainContent of [true, false]) {
      const res = await fetchPage("/mixed", `&onlyMainContent=${onlyMainContent}`);
      expect(res.status).toBe(200);
      const { content } = (await res.json()) as FetchResult;
      expect(content).toContain("# Mixed page");
      const [before, deepest, after] = ["Before the deep part.", SENTENCE, "After the deep part."].map((s) =>
        content.indexOf(s),
      );
      expect(before).toBeGreaterThanOrEqual(0);
      expect(deepest).toBeGreaterThan(before!);
      expect(after).toBeGreaterThan(deepest!);
    }
  });

  test("the reported page (7,000 levels around a sentence alone) is rendered and answers the sentence", async () => {
    const res = await fetchPage("/shell");
    expect(res.status).toBe(200);
    expect(((await res.json()) as FetchResult).content).toBe(SENTENCE);
  });
});

describe("deep JSON and XML bodies", () => {
  test("200,000 nested arrays answer the body as served in a json block; 7,000 do not balloon", async () => {
    const res = await fetchPage("/deep.json");
    expect(res.status).toBe(200);
    expect(((await res.json()) as FetchResult).content).toBe(`\`\`\`json\n${JSON_DEEP}\n\`\`\``);
    const small = (await (await fetchPage("/deep-7000.json", "&format=text")).json()) as FetchResult;
    expect(small.content).toBe(JSON_7000);
  });

  test("an RSS item nested 200,000 deep reads as its text; other XML as served", async () => {
    const rss = await fetchPage("/deep.rss");
    expect(rss.status).toBe(200);
    expect(((await rss.json()) as FetchResult).content).toBe(`# Deep feed\n\n## Deep item\n\n${SENTENCE}`);
    const xml = await fetchPage("/deep.xml", "&format=text");
    expect(xml.status).toBe(200);
    expect(((await xml.json()) as FetchResult).content).toBe(XML_DEEP);
  });
});

test("the server is healthy after: a normal page answers, and no request failed unexpectedly", async () => {
  const res = await fetchPage("/ok");
  expect(res.status).toBe(200);
  expect(((await res.json()) as FetchResult).title).toBe("Fine");
  expect(app.logs.filter((line) => / failed: /.test(line))).toEqual([]);
});

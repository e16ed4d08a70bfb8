import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { TWIN_MARK, TWIN_TEXT, TWIN_TITLE } from "../helpers/site-pages/site-markdown.ts";

let site: FixtureSite;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp({ fetchTimeoutMs: 3000, escalation: false });
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

let run = 0;
/** A fresh URL of a page (never a cache hit of an earlier test). */
const fresh = (path: string) => `${site.url}${path}?run=${++run}`;

async function fetchPage(body: Record<string, unknown>): Promise<FetchResult> {
  const res = await app.request("/v1/fetch", {
    method: "POST",
    body: JSON.stringify({ maxAge: 0, ...body }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text}`);
  return JSON.parse(text) as FetchResult;
}

describe("the site's own markdown", () => {
  test("a site that negotiates answers markdown to the Accept; it is the content, front matter dropped", async () => {
    site.resetHits();
    const result = await fetchPage({ url: fresh("/md/negotiate") });
    expect(result.source).toBe("site-markdown");
    expect(result.content).toStartWith(`# ${TWIN_TITLE}\n\n${TWIN_MARK}`);
    expect(result.content).not.toContain("lang: en");
    expect(result.title).toBe(TWIN_TITLE);
    expect(result.links).toContain(`${site.url}/md/almanac`);
    // Answered with the markdown alone: its front matter is the metadata, its links the links.
    expect(result.metadata).toMatchObject({
      description: "How the miller works the tide.",
      author: "The miller",
    });
    // One request: the markdown alone answers a request for markdown.
    expect(site.hits("/md/negotiate")).toBe(1);
  });

  test("asked for more than markdown, the page is fetched as HTML too, and other formats come from it", async () => {
    site.resetHits();
    const result = await fetchPage({ url: fresh("/md/negotiate"), formats: ["markdown", "html", "rawHtml"] });
    expect(result.source).toBe("site-markdown");
    expect(result.markdown).toContain(TWIN_MARK);
    expect(result.html).toContain(TWIN_TEXT);
    expect(result.html).not.toContain(TWIN_MARK);
    expect(result.rawHtml).toStartWith("<!DOCTYPE html>");
    expect(site.hits("/md/negotiate")).toBe(2);
  });

  test("a <link rel=alternate type=text/markdown> twin and a Link header twin are used", async () => {
    for (const path of ["/md/link", "/md/header"]) {
      site.resetHits();
      const result = await fetchPage({ url: fresh(path), formats: ["markdown", "text"] });
      expect(result.source).toBe("site-markdown");
      expect(result.markdown).toContain(TWIN_MARK);
      expect(result.content).toContain(TWIN_MARK);
      // Text still comes from the page.
      expect(result.text).toContain(TWIN_TEXT);
      expect(result.text).not.toContain(TWIN_MARK);
      expect(site.hits(`${path}.md`)).toBe(1);
    }
  });

  test("twins that are missing, an HTML error page, a stub or an error in markdown are not used", async () => {
    for (const path of ["/md/missing", "/md/html-error", "/md/stub", "/md/error-md", "/md/negotiate-stub"]) {
      const result = await fetchPage({ url: fresh(path) });
      expect(result.source).toBeUndefined();
      expect(result.content).toContain(TWIN_TEXT);
      expect(result.content).not.toContain(TWIN_MARK);
      expect(result.content).not.toMatch(/not found|went wrong|See the page/i);
    }
    expect(site.hits("/md/missing.md")).toBeGreaterThan(0);
  });

  test("a twin that never answers costs the page at most half the fetch timeout, then the page stands", async () => {
    const started = performance.now();
    const result = await fetchPage({ url: fresh("/md/slow-twin") });
    const ms = performance.now() - started;
    expect(result.source).toBeUndefined();
    expect(result.content).toContain(TWIN_TEXT);
    // The app's fetch timeout is 3000 ms: the twin gets 1500.
    expect(ms).toBeGreaterThan(1400);
    expect(ms).toBeLessThan(2900);
  });

  test("a twin on another origin is never fetched", async () => {
    site.resetHits();
    const result = await fetchPage({ url: fresh("/md/offsite") });
    expect(result.source).toBeUndefined();
    expect(site.hits("/md/link.md")).toBe(0);
  });

  test("siteMarkdown: false (and ?siteMarkdown=false) extracts the page and asks for no markdown", async () => {
    site.resetHits();
    const off = await fetchPage({ url: fresh("/md/negotiate"), siteMarkdown: false });
    expect(off.source).toBeUndefined();
    expect(off.content).toContain(TWIN_TEXT);
    expect(off.content).not.toContain(TWIN_MARK);
    expect(site.hits("/md/negotiate")).toBe(1);
    const viaQuery = await app.request(
      `/v1/fetch?url=${encodeURIComponent(fresh("/md/link"))}&siteMarkdown=false&maxAge=0`,
    );
    const read = (await viaQuery.json()) as FetchResult;
    expect(read.source).toBeUndefined();
    expect(site.hits("/md/link.md")).toBe(0);
  });

  test("a cached page keeps its twin: the second request fetches nothing and says site-markdown", async () => {
    const url = fresh("/md/link");
    site.resetHits();
    const first = await fetchPage({ url, maxAge: 60_000 });
    const again = await fetchPage({ url, maxAge: 60_000 });
    expect(first.source).toBe("site-markdown");
    expect(again).toMatchObject({ source: "site-markdown", content: first.content });
    expect(site.hits("/md/link")).toBe(1);
    expect(site.hits("/md/link.md")).toBe(1);
    // Without site markdown the same page is another cache entry, and extracted.
    const off = await fetchPage({ url, maxAge: 60_000, siteMarkdown: false });
    expect(off.source).toBeUndefined();
  });

  test("a site that does not negotiate is asked with markdown below HTML, and answers its page", async () => {
    const accept = async (body: Record<string, unknown>) => {
      const res = await app.request("/v1/fetch", {
        method: "POST",
        body: JSON.stringify({ url: fresh("/headers"), maxAge: 0, ...body }),
      });
      const { content, rawHtml } = (await res.json()) as FetchResult;
      return (JSON.parse(rawHtml ?? content) as Record<string, string>).accept;
    };
    expect(await accept({ formats: ["markdown", "rawHtml"] })).toMatch(/^text\/html,.*text\/markdown;q=0\.9/);
    // Asked for no markdown and not kept in the cache, the request states none.
    expect(await accept({ format: "text", storeInCache: false })).not.toContain("markdown");
  });

  test("a request for text or HTML alone that the cache does not keep looks for no twin", async () => {
    site.resetHits();
    const text = await fetchPage({ url: fresh("/md/negotiate"), format: "text", storeInCache: false });
    expect(text.source).toBeUndefined();
    expect(text.content).toContain(TWIN_TEXT);
    // One request, as HTML: a negotiated markdown answer would have cost a second.
    expect(site.hits("/md/negotiate")).toBe(1);
    const html = await fetchPage({ url: fresh("/md/link"), formats: ["html", "links"], storeInCache: false });
    expect(html.source).toBeUndefined();
    expect(site.hits("/md/link.md")).toBe(0);

    // Kept in the cache, the page is fetched with its twin, so that a later request for markdown is a hit.
    const url = fresh("/md/link");
    site.resetHits();
    await fetchPage({ url, format: "text", maxAge: 60_000 });
    const markdown = await fetchPage({ url, maxAge: 60_000 });
    expect(markdown).toMatchObject({ source: "site-markdown" });
    expect(markdown.content).toContain(TWIN_MARK);
    expect(site.hits("/md/link")).toBe(1);
    expect(site.hits("/md/link.md")).toBe(1);
  });

  test("a crawl reads the site's llms.txt once and uses the .md twins it lists", async () => {
    const hits = new Map<string, number>();
    const article = (title: string) =>
      `<html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
      `<p>${TWIN_TEXT} ${"The gates are greased each spring before the first big tide. ".repeat(3)}</p>` +
      `<a href="/guide.html">guide</a> <a href="/faq">faq</a></article></body></html>`;
    const docs = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        const path = new URL(request.url).pathname;
        hits.set(path, (hits.get(path) ?? 0) + 1);
        const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
        const md = (body: string) => new Response(body, { headers: { "content-type": "text/markdown" } });
        if (path === "/llms.txt")
          return md(
            "# Mill docs\n\n> How the tide mill works.\n\n## Docs\n\n- [Guide](/guide.html.md): the guide\n",
          );
        if (path === "/guide.html.md")
          return md(
            `# Guide\n\n${TWIN_MARK}\n\n${TWIN_TEXT} ${"The gates are greased each spring before the first big tide. ".repeat(3)}`,
          );
        if (path === "/") return html(article("Home"));
        if (path === "/guide.html") return html(article("Guide"));
        if (path === "/faq") return html(article("FAQ"));
        return new Response("not found", { status: 404 });
      },
    });
    try {
      const base = `http://127.0.0.1:${docs.port}`;
      const res = await app.request("/v1/crawl", {
        method: "POST",
        body: JSON.stringify({ url: `${base}/`, limit: 10, sitemap: "skip", scrapeOptions: { maxAge: 0 } }),
      });
      const { id } = (await res.json()) as { id: string };
      let poll: { status: string; data: { url: string; markdown: string; source?: string }[] } = {
        status: "",
        data: [],
      };
      for (let i = 0; i < 200 && !["completed", "failed"].includes(poll.status); i++) {
        await Bun.sleep(25);
        poll = await (await app.request(`/v1/crawl/${id}`)).json();
      }
      expect(poll.status).toBe("completed");
      const byUrl = new Map(poll.data.map((item) => [item.url, item]));
      expect(byUrl.get(`${base}/guide.html`)).toMatchObject({ source: "site-markdown" });
      expect(byUrl.get(`${base}/guide.html`)?.markdown).toContain(TWIN_MARK);
      expect(byUrl.get(`${base}/faq`)?.source).toBeUndefined();
      expect(byUrl.get(`${base}/`)?.source).toBeUndefined();
      expect(hits.get("/llms.txt")).toBe(1);
      expect(hits.get("/guide.html.md")).toBe(1);
    } finally {
      docs.stop(true);
    }
  });
});

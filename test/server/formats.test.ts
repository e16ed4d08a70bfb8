import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import {
  ARTICLE_SENTENCE,
  DATA_JSON,
  type FixtureSite,
  SPA_TEXT,
  startFixtureSite,
} from "../helpers/fixture-site.ts";

/** One fetch, any set of formats; the cache keeps the fetch, so any later format is a hit. */

let site: FixtureSite;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp();
}, 60_000);
afterAll(async () => {
  await app.close();
  await site.stop();
});

const post = (body: Record<string, unknown>) =>
  app.request("/v1/fetch", { method: "POST", body: JSON.stringify(body) });

async function resultOf(res: Response): Promise<FetchResult> {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as FetchResult;
}

describe("formats", () => {
  test("markdown, text, html, rawHtml, links and images come from one fetch of the page", async () => {
    site.resetHits();
    const result = await resultOf(
      await post({
        url: `${site.url}/article`,
        maxAge: 0,
        formats: ["markdown", "html", "text", "rawHtml", "links", "images"],
      }),
    );
    expect(site.hits("/article")).toBe(1);
    // content is the first content format named.
    expect(result.content).toBe(result.markdown!);
    expect(result.markdown).toContain(ARTICLE_SENTENCE);
    expect(result.markdown).toMatch(/^#|\n#/);
    expect(result.text).toContain(ARTICLE_SENTENCE);
    expect(result.text).not.toContain("<p>");
    expect(result.html).toMatch(/<p>[^<]*/);
    expect(result.rawHtml).toContain("<!DOCTYPE html>");
    // rawHtml is the page as sent, chrome and scripts included; html is the cleaned content.
    expect(result.rawHtml!.length).toBeGreaterThan(result.html!.length);
    expect(result.links.length).toBeGreaterThan(3);
    expect(Array.isArray(result.images)).toBe(true);
  });

  test("GET takes formats as a comma-separated list", async () => {
    const url = encodeURIComponent(`${site.url}/article`);
    const result = await resultOf(await app.request(`/v1/fetch?url=${url}&maxAge=0&formats=text,rawHtml`));
    expect(result.content).toBe(result.text!);
    expect(result.rawHtml).toContain("<!DOCTYPE html>");
  });

  test("without formats the result has content only, in format", async () => {
    const result = await resultOf(await post({ url: `${site.url}/article`, maxAge: 0, format: "text" }));
    expect(result.content).toContain(ARTICLE_SENTENCE);
    expect(result.markdown).toBeUndefined();
    expect(result.rawHtml).toBeUndefined();
  });

  test("formats work on JSON too: each format, and rawHtml is the JSON as sent", async () => {
    const result = await resultOf(
      await post({ url: `${site.url}/data.json`, maxAge: 0, formats: ["text", "markdown", "rawHtml"] }),
    );
    expect(result.contentType).toBe("json");
    expect(JSON.parse(result.rawHtml!)).toEqual(DATA_JSON);
    expect(result.markdown).toContain("```json");
    expect(result.text).not.toContain("```");
  });

  test("a format siphon cannot make is a 400 naming it", async () => {
    const res = await post({ url: `${site.url}/article`, formats: ["markdown", "product"] });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain('"product"');
  });
});

describe("the cache keeps the fetch, not one format", () => {
  test("a later request for other formats, tags or onlyMainContent is a hit", async () => {
    const url = `${site.url}/docs`;
    site.resetHits();
    const first = await post({ url, format: "markdown" });
    expect(first.headers.get("x-cache")).toBe("MISS");
    const markdown = (await resultOf(first)).content;
    for (const body of [
      { format: "text" },
      { formats: ["html", "rawHtml"] },
      { onlyMainContent: true, excludeTags: ["pre"] },
      { format: "markdown" },
    ]) {
      const res = await post({ url, ...body });
      expect(res.headers.get("x-cache")).toBe("HIT");
      const result = await resultOf(res);
      if (body.format === "markdown") expect(result.content).toBe(markdown);
      else expect(result.content).not.toBe(markdown);
    }
    expect(site.hits("/docs")).toBe(1);
  });

  test("what changes the fetch (rendering, location) is a miss", async () => {
    const url = `${site.url}/service`;
    site.resetHits();
    await resultOf(await post({ url }));
    const located = await post({ url, location: "DE" });
    expect(located.headers.get("x-cache")).toBe("MISS");
    const rendered = await post({ url, render: true });
    expect(rendered.headers.get("x-cache")).toBe("MISS");
    expect((await resultOf(rendered)).method).toBe("browser");
    const renderedAgain = await post({ url, render: true, format: "text" });
    expect(renderedAgain.headers.get("x-cache")).toBe("HIT");
    expect((await resultOf(renderedAgain)).method).toBe("browser");
    expect(site.hits("/service")).toBe(3);
  }, 60_000);

  test("an escalated page is cached as rendered: the hit has the rendered content", async () => {
    const url = `${site.url}/spa`;
    const first = await resultOf(await post({ url, format: "text" }));
    expect(first.method).toBe("browser");
    const res = await post({ url, format: "markdown" });
    expect(res.headers.get("x-cache")).toBe("HIT");
    const hit = await resultOf(res);
    expect(hit.method).toBe("browser");
    expect(hit.content).toContain(SPA_TEXT);
  }, 60_000);

  test("a degraded answer (escalation skipped) is not cached", async () => {
    const plain = await startTestApp({ escalation: false });
    try {
      const body = JSON.stringify({ url: `${site.url}/spa` });
      const first = await plain.request("/v1/fetch", { method: "POST", body });
      expect(first.headers.get("x-degraded")).toMatch(/JavaScript/);
      const second = await plain.request("/v1/fetch", { method: "POST", body });
      expect(second.headers.get("x-cache")).toBe("MISS");
    } finally {
      await plain.close();
    }
  });

  test("maxAge above 30 days is refused: the cache keeps nothing older", async () => {
    const res = await post({ url: `${site.url}/docs`, maxAge: 31 * 24 * 3600 * 1000 });
    expect(res.status).toBe(400);
  });
});

/** Polls a job until it ends; returns its poll body. */
async function finished(path: string): Promise<{ status: string; data: Record<string, unknown>[] }> {
  for (let i = 0; i < 300; i++) {
    const body = (await (await app.request(path)).json()) as {
      status: string;
      data: Record<string, unknown>[];
    };
    if (!["queued", "processing"].includes(body.status)) return body;
    await Bun.sleep(100);
  }
  throw new Error(`${path} did not finish`);
}

describe("formats in jobs", () => {
  test("a batch returns every format asked for, per item", async () => {
    const res = await app.request("/v1/batch/scrape", {
      method: "POST",
      body: JSON.stringify({
        urls: [`${site.url}/article`, `${site.url}/docs`],
        formats: ["text", "rawHtml"],
      }),
    });
    expect(res.status).toBe(202);
    const job = await finished(new URL(((await res.json()) as { url: string }).url).pathname);
    expect(job.status).toBe("completed");
    expect(job.data).toHaveLength(2);
    for (const item of job.data) {
      expect(item.content).toBe(item.text as string);
      expect(String(item.rawHtml)).toContain("<!DOCTYPE html>");
    }
  });

  test("a crawl's scrapeOptions.formats adds those outputs to each item", async () => {
    const res = await app.request("/v1/crawl", {
      method: "POST",
      body: JSON.stringify({
        url: `${site.url}/docs`,
        limit: 1,
        scrapeOptions: { formats: ["markdown", "html"] },
      }),
    });
    expect(res.status).toBe(202);
    const job = await finished(new URL(((await res.json()) as { url: string }).url).pathname);
    expect(job.data).toHaveLength(1);
    expect(String(job.data[0]!.markdown)).toMatch(/#/);
    expect(String(job.data[0]!.html)).toContain("<");
  });

  test("an unknown format is refused when the job is submitted", async () => {
    const batch = await app.request("/v1/batch/scrape", {
      method: "POST",
      body: JSON.stringify({ urls: [`${site.url}/article`], formats: ["markdown", "product"] }),
    });
    expect(batch.status).toBe(400);
    const crawl = await app.request("/v1/crawl", {
      method: "POST",
      body: JSON.stringify({ url: `${site.url}/docs`, scrapeOptions: { formats: ["product"] } }),
    });
    expect(crawl.status).toBe(400);
  });
});

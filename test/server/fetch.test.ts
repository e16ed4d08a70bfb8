import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import {
  ARTICLE_AUTHOR,
  ARTICLE_CANONICAL_PATH,
  ARTICLE_DESCRIPTION,
  ARTICLE_IMAGE_PATH,
  ARTICLE_PUBLISHED,
  ARTICLE_SENTENCE,
  ARTICLE_TITLE,
} from "../helpers/site-pages/article.ts";
import { DATA_JSON, FEED_ITEMS, PLAIN_TEXT } from "../helpers/site-pages/data.ts";
import { DOCS_TABLE_HEADERS, DOCS_TITLE, DOCS_TS_CODE } from "../helpers/site-pages/docs.ts";
import { DOCX_PARAGRAPHS, PDF_PAGES, PDF_TITLE } from "../helpers/site-pages/documents.ts";
import { FORUM_TITLE } from "../helpers/site-pages/forum.ts";
import { COOKIE_TEXT } from "../helpers/site-pages/layout.ts";
import { PRODUCT_NAME } from "../helpers/site-pages/product.ts";
import { NOT_FOUND_TEXT } from "../helpers/site-pages/special.ts";

let site: FixtureSite;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  // Escalation off: these tests are about the simple path; escalation has its own tests (browser.test.ts).
  app = await startTestApp({ fetchTimeoutMs: 1500, escalation: false });
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

const get = (target: string, params = "") =>
  app.request(`/v1/fetch?url=${encodeURIComponent(target)}${params ? `&${params}` : ""}`);

async function resultOf(res: Response): Promise<FetchResult> {
  expect(res.status).toBe(200);
  return (await res.json()) as FetchResult;
}

describe("GET /v1/fetch on the fixture site", () => {
  test("an article comes back with every SPEC field filled", async () => {
    const res = await get(`${site.url}/article`, "maxAge=0");
    const result = await resultOf(res);
    expect(result.url).toBe(`${site.url}/article`);
    expect(result.title).toContain(ARTICLE_TITLE);
    expect(result.content).toContain(ARTICLE_SENTENCE);
    expect(result.content).not.toContain(COOKIE_TEXT);
    expect(result.metadata).toEqual({
      description: ARTICLE_DESCRIPTION,
      author: ARTICLE_AUTHOR,
      published: ARTICLE_PUBLISHED,
      image: `${site.url}${ARTICLE_IMAGE_PATH}`,
      canonical: `${site.url}${ARTICLE_CANONICAL_PATH}`,
    });
    expect(result.links.length).toBeGreaterThan(3);
    for (const link of result.links) {
      expect(link).toMatch(/^https?:\/\//);
      expect(link).not.toContain("#");
    }
    expect(new Set(result.links).size).toBe(result.links.length);
    expect(result.tokens).toBe(Math.ceil(result.content.length / 4));
    const sha = new Bun.CryptoHasher("sha256").update(result.content).digest("hex");
    expect(result.fingerprint).toBe(sha.slice(0, 16));
    expect(result.method).toBe("simple");
    expect(result.contentType).toBe("html");
    expect(result.statusCode).toBe(200);
    expect(result.quality).toBeGreaterThan(0.5);
    expect(result.quality).toBeLessThanOrEqual(1);
    expect(Number.isInteger(result.elapsed)).toBe(true);
    expect(result.elapsed).toBeLessThanOrEqual(Number(res.headers.get("x-processing-time")));
    expect(result.images).toBeUndefined();
    expect(res.headers.get("x-processing-time")).toMatch(/^\d+$/);
    expect(res.headers.get("x-fetch-type")).toBe("basic");
  });

  test("format=text has no markdown syntax; format=html is cleaned HTML", async () => {
    const text = await resultOf(await get(`${site.url}/article`, "format=text"));
    expect(text.content).toContain(ARTICLE_SENTENCE);
    expect(text.content).not.toMatch(/^#+ /m);
    expect(text.content).not.toMatch(/\]\(http/);
    const html = await resultOf(await get(`${site.url}/article`, "format=html"));
    expect(html.content).toMatch(/<p[\s>]/);
    expect(html.content).not.toMatch(/<script/i);
  });

  test("images=true lists images with absolute src", async () => {
    const result = await resultOf(await get(`${site.url}/article`, "images=true"));
    expect(result.images?.length).toBeGreaterThan(0);
    for (const image of result.images ?? []) expect(image.src).toMatch(/^https?:\/\//);
  });

  test("elapsed is the time the fetch took", async () => {
    const res = await get(`${site.url}/slow?ms=250`, "maxAge=0");
    const result = await resultOf(res);
    expect(result.content).toContain("Answered after 250 ms.");
    expect(result.elapsed).toBeGreaterThanOrEqual(250);
    expect(result.elapsed).toBeLessThanOrEqual(Number(res.headers.get("x-processing-time")));
  });

  test("POST takes the same options as JSON, with or without a JSON content type", async () => {
    const body = JSON.stringify({ url: `${site.url}/article`, format: "text", onlyMainContent: true });
    for (const headers of [
      { "content-type": "application/json" },
      { "content-type": "application/x-www-form-urlencoded" },
    ]) {
      const result = await resultOf(await app.request("/v1/fetch", { method: "POST", body, headers }));
      expect(result.content).toContain(ARTICLE_SENTENCE);
    }
  });

  test("excludeTags removes what it names", async () => {
    const whole = await resultOf(await get(`${site.url}/docs`, "maxAge=0"));
    expect(whole.content).toContain("```");
    expect(whole.content).toContain(DOCS_TS_CODE);
    expect(whole.content).toContain(`| ${DOCS_TABLE_HEADERS.join(" | ")} |`);
    const result = await resultOf(
      await app.request("/v1/fetch", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/docs`, excludeTags: ["pre", "table"], maxAge: 0 }),
      }),
    );
    expect(result.content).toContain(DOCS_TITLE);
    expect(result.content).not.toContain("```");
    expect(result.content).not.toContain(DOCS_TS_CODE);
    expect(result.content).not.toContain("| ---");
    expect(result.content).not.toContain(DOCS_TABLE_HEADERS.join(" | "));
  });
});

describe("the cache (docs/fetching.md: Cache)", () => {
  // Its own app and clock: entries age by hand, and no other test's fetches are in its cache.
  const clock = new TestClock();
  let cached: TestApp;
  beforeAll(async () => {
    cached = await startTestApp({ fetchTimeoutMs: 1500, escalation: false }, clock);
  });
  afterAll(() => cached.close());

  const fetchCached = (path: string, params = "") =>
    cached.request(`/v1/fetch?url=${encodeURIComponent(`${site.url}${path}`)}${params ? `&${params}` : ""}`);
  /** The result without `elapsed`, which is measured anew for every answer. */
  const stable = ({ elapsed: _, ...rest }: FetchResult) => rest;

  test("a second identical request is a HIT with the same content, its age, and no request to the site", async () => {
    const before = site.hits("/docs");
    const first = await fetchCached("/docs");
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("x-cache-age")).toBeNull();
    const firstBody = await resultOf(first);
    expect(firstBody.content).toContain(DOCS_TS_CODE);
    expect(site.hits("/docs")).toBe(before + 1);

    clock.advance(90_000);
    const second = await fetchCached("/docs");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("x-cache-age")).toBe("90");
    expect(stable(await resultOf(second))).toEqual(stable(firstBody));
    expect(site.hits("/docs")).toBe(before + 1);
  });

  test("maxAge: an entry up to maxAge old is served, an older one is fetched again, 0 always fetches", async () => {
    const before = site.hits("/forum");
    const first = await resultOf(await fetchCached("/forum"));
    expect(first.title).toContain(FORUM_TITLE);
    clock.advance(60_000);

    const young = await fetchCached("/forum", "maxAge=120000");
    expect(young.headers.get("x-cache")).toBe("HIT");
    expect(young.headers.get("x-cache-age")).toBe("60");
    expect(site.hits("/forum")).toBe(before + 1);

    const old = await fetchCached("/forum", "maxAge=30000");
    expect(old.headers.get("x-cache")).toBe("MISS");
    expect(stable(await resultOf(old))).toEqual(stable(first));
    expect(site.hits("/forum")).toBe(before + 2);

    for (let i = 1; i <= 2; i++) {
      const bypass = await fetchCached("/forum", "maxAge=0");
      expect(bypass.headers.get("x-cache")).toBe("MISS");
      expect(bypass.headers.get("x-cache-age")).toBeNull();
      expect((await resultOf(bypass)).content).toBe(first.content);
      expect(site.hits("/forum")).toBe(before + 2 + i);
    }

    // The default maxAge is 2 days.
    clock.advance(2 * 86_400_000 - 1000);
    expect((await fetchCached("/forum")).headers.get("x-cache")).toBe("HIT");
    clock.advance(2000);
    expect((await fetchCached("/forum")).headers.get("x-cache")).toBe("MISS");
    expect(site.hits("/forum")).toBe(before + 5);
  });

  test("storeInCache=false answers without writing the cache", async () => {
    const before = site.hits("/product");
    const unstored = await fetchCached("/product", "storeInCache=false");
    expect(unstored.headers.get("x-cache")).toBe("MISS");
    expect((await resultOf(unstored)).title).toContain(PRODUCT_NAME);
    const next = await fetchCached("/product");
    expect(next.headers.get("x-cache")).toBe("MISS");
    expect(site.hits("/product")).toBe(before + 2);
    const stored = await fetchCached("/product");
    expect(stored.headers.get("x-cache")).toBe("HIT");
    expect(site.hits("/product")).toBe(before + 2);
  });

  test("each format comes back in that format, whether or not it is served from the cache", async () => {
    const markdown = await resultOf(await fetchCached("/article?cache=formats"));
    expect(markdown.content).toContain(ARTICLE_SENTENCE);
    expect(markdown.content).toMatch(/^#+ /m);
    for (let i = 0; i < 2; i++) {
      const text = await resultOf(await fetchCached("/article?cache=formats", "format=text"));
      expect(text.content).toContain(ARTICLE_SENTENCE);
      expect(text.content).not.toMatch(/^#+ /m);
      expect(text.content).not.toMatch(/\]\(http/);
      const html = await resultOf(await fetchCached("/article?cache=formats", "format=html"));
      expect(html.content).toContain("42,000 panels are expected to supply");
      expect(html.content).toMatch(/<p[\s>]/);
    }
    const again = await fetchCached("/article?cache=formats");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect((await resultOf(again)).content).toBe(markdown.content);
  });

  test("a request the site answers differently (another language) is never served another's entry", async () => {
    const before = site.hits("/headers");
    const sent = async (params: string) => {
      const res = await fetchCached("/headers", params);
      const body = await resultOf(res);
      const json = /```json\n([\s\S]*)\n```/.exec(body.content)?.[1] ?? "{}";
      return { cache: res.headers.get("x-cache"), headers: JSON.parse(json) as Record<string, string> };
    };
    const plain = await sent("");
    expect(plain.cache).toBe("MISS");
    const german = await sent("location=DE");
    expect(german.cache).toBe("MISS");
    expect(german.headers["accept-language"]).toStartWith("de-DE");
    const french = await sent("languages=fr");
    expect(french.cache).toBe("MISS");
    expect(french.headers["accept-language"]).toStartWith("fr");
    expect(site.hits("/headers")).toBe(before + 3);
    expect((await sent("location=DE")).headers["accept-language"]).toStartWith("de-DE");
    expect(site.hits("/headers")).toBe(before + 3);
  });

  test("only 2xx answers are cached", async () => {
    const before = site.hits("/status/404");
    for (let i = 1; i <= 2; i++) {
      const res = await fetchCached("/status/404");
      expect(res.headers.get("x-cache")).toBe("MISS");
      const result = await resultOf(res);
      expect(result.statusCode).toBe(404);
      expect(result.content).toContain(NOT_FOUND_TEXT);
      expect(site.hits("/status/404")).toBe(before + i);
    }
  });

  test("requests with custom headers or cookies are never cached", async () => {
    const before = site.hits("/service");
    const bodies = [
      { headers: { "x-trace": "1" } },
      { headers: { "x-trace": "1" } },
      { cookies: ["session=abc"] },
      { cookies: ["session=abc"] },
    ];
    for (const [i, extra] of bodies.entries()) {
      const res = await cached.request("/v1/fetch", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/service`, ...extra }),
      });
      expect(res.headers.get("x-cache")).toBe("MISS");
      await resultOf(res);
      expect(site.hits("/service")).toBe(before + i + 1);
    }
  });
});

describe("other content types", () => {
  test("/data.json is json: the served object, pretty-printed in a fenced block", async () => {
    const result = await resultOf(await get(`${site.url}/data.json`));
    expect(result.contentType).toBe("json");
    expect(result.content).toBe(`\`\`\`json\n${JSON.stringify(DATA_JSON, null, 2)}\n\`\`\``);
  });

  test("/feed.xml is xml: one heading and link per item", async () => {
    const result = await resultOf(await get(`${site.url}/feed.xml`));
    expect(result.contentType).toBe("xml");
    for (const item of FEED_ITEMS) {
      expect(result.content).toContain(`## [${item.title}](${site.url}${item.path})`);
      expect(result.content).toContain(item.summary);
    }
  });

  test("/plain.txt is text, returned as is", async () => {
    for (const format of ["markdown", "text"]) {
      const result = await resultOf(await get(`${site.url}/plain.txt`, `format=${format}`));
      expect(result.contentType).toBe("text");
      expect(result.content).toBe(PLAIN_TEXT);
    }
  });

  test("/doc.pdf is a document with every page's text, in order, and the PDF's title", async () => {
    for (const format of ["markdown", "text"]) {
      const result = await resultOf(await get(`${site.url}/doc.pdf`, `format=${format}`));
      expect(result.contentType).toBe("document");
      expect(result.title).toBe(PDF_TITLE);
      const [first, second] = PDF_PAGES.map((page) => result.content.indexOf(page));
      expect(first).toBe(0);
      expect(second).toBeGreaterThan(PDF_PAGES[0].length);
    }
  });

  test("/doc.docx is a document: its paragraphs, with headings as markdown headings", async () => {
    const markdown = await resultOf(await get(`${site.url}/doc.docx`));
    expect(markdown.contentType).toBe("document");
    expect(markdown.title).toBe("Employee Handbook");
    expect(markdown.content).toBe(
      DOCX_PARAGRAPHS.map((p) => (p.heading ? `${"#".repeat(p.heading)} ${p.text}` : p.text)).join("\n\n"),
    );
    const text = await resultOf(await get(`${site.url}/doc.docx`, "format=text"));
    expect(text.content).toBe(DOCX_PARAGRAPHS.map((p) => p.text).join("\n\n"));
  });

  test("an image is 422 unsupported_content", async () => {
    const res = await get(`${site.url}/image.png`);
    expect(res.status).toBe(422);
    expect((await errorOf(res)).type).toBe("unsupported_content");
  });
});

describe("failures map to SPEC errors", () => {
  test("an upstream 404 page is returned with its statusCode", async () => {
    const result = await resultOf(await get(`${site.url}/status/404`));
    expect(result.statusCode).toBe(404);
  });

  test("a bot wall is 403 blocked", async () => {
    for (const path of ["/status/403-botwall", "/botwall-200"]) {
      const res = await get(`${site.url}${path}`);
      expect(res.status).toBe(403);
      expect((await errorOf(res)).type).toBe("blocked");
    }
  });

  test("a hanging server is 504 timeout", async () => {
    const res = await get(`${site.url}/hang`);
    expect(res.status).toBe(504);
    expect((await errorOf(res)).type).toBe("timeout");
  });

  test("a closed port is 502 network_error", async () => {
    const res = await get("http://127.0.0.1:1/");
    expect(res.status).toBe(502);
    expect((await errorOf(res)).type).toBe("network_error");
  });

  test("redirects are followed and url is the final one", async () => {
    const result = await resultOf(await get(`${site.url}/redirect/chain/3`));
    expect(result.url).toBe(`${site.url}/article`);
  });
});

describe("SSRF protection on", () => {
  test("loopback targets are 403 forbidden_url", async () => {
    const guarded = await startTestApp({ disableSsrfProtection: false });
    try {
      for (const target of [
        `${site.url}/article`,
        "http://localhost/",
        "http://[::1]/",
        "http://2130706433/",
      ]) {
        const res = await guarded.request(`/v1/fetch?url=${encodeURIComponent(target)}`);
        expect(res.status).toBe(403);
        expect((await errorOf(res)).type).toBe("forbidden_url");
      }
    } finally {
      await guarded.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
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
import { COOKIE_TEXT } from "../helpers/site-pages/layout.ts";

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
    expect(result.elapsed).toBeGreaterThanOrEqual(0);
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

  test("the cache answers the second request and maxAge=0 bypasses it", async () => {
    const target = `${site.url}/docs`;
    const before = site.hits("/docs");
    const first = await get(target);
    expect(first.headers.get("x-cache")).toBe("MISS");
    const firstBody = await resultOf(first);
    const second = await get(target);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("x-cache-age")).toMatch(/^\d+$/);
    expect((await resultOf(second)).content).toBe(firstBody.content);
    expect(site.hits("/docs")).toBe(before + 1);
    const bypass = await get(target, "maxAge=0");
    expect(bypass.headers.get("x-cache")).toBe("MISS");
    expect(site.hits("/docs")).toBe(before + 2);
  });

  test("options that change the output get their own cache entry", async () => {
    const target = `${site.url}/forum`;
    await get(target);
    const other = await get(target, "format=text");
    expect(other.headers.get("x-cache")).toBe("MISS");
  });

  test("storeInCache=false does not write the cache", async () => {
    const target = `${site.url}/product`;
    await get(target, "storeInCache=false");
    const again = await get(target);
    expect(again.headers.get("x-cache")).toBe("MISS");
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
    const result = await resultOf(
      await app.request("/v1/fetch", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/docs`, excludeTags: ["pre", "table"], maxAge: 0 }),
      }),
    );
    expect(result.content).not.toContain("```");
    expect(result.content).not.toContain("| ---");
  });
});

describe("other content types", () => {
  const cases: [string, FetchResult["contentType"], RegExp][] = [
    ["/data.json", "json", /```json/],
    ["/feed.xml", "xml", /^## \[/m],
    ["/plain.txt", "text", /\S/],
    ["/doc.pdf", "document", /\S/],
    ["/doc.docx", "document", /\S/],
  ];
  for (const [path, contentType, pattern] of cases) {
    test(`${path} is ${contentType}`, async () => {
      const result = await resultOf(await get(`${site.url}${path}`));
      expect(result.contentType).toBe(contentType);
      expect(result.content).toMatch(pattern);
    });
  }

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

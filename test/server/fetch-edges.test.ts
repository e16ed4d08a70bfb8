import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";
import { COMPRESSED_TEXT } from "../helpers/site-pages/dynamic.ts";
import { ENCODED_PAGES } from "../helpers/site-pages/encodings.ts";

let site: FixtureSite;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

const get = (a: TestApp, target: string) =>
  a.request(`/v1/fetch?url=${encodeURIComponent(target)}&maxAge=0&format=text`);

describe("through the whole pipeline", () => {
  for (const page of ENCODED_PAGES) {
    test(`${page.path} (${page.charset}, declared in ${page.declaredIn}) decodes correctly`, async () => {
      const res = await get(app, `${site.url}${page.path}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as FetchResult).content).toContain(page.expected);
    });
  }

  for (const path of ["/gzip", "/br", "/deflate"]) {
    test(`${path}: a compressed body is decoded`, async () => {
      const res = await get(app, `${site.url}${path}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as FetchResult).content).toContain(COMPRESSED_TEXT);
    });
  }

  test("a body over 10 MiB is 502 content_too_large", async () => {
    const res = await get(app, `${site.url}/huge`);
    expect(res.status).toBe(502);
    const error = await errorOf(res);
    expect(error.type).toBe("content_too_large");
    expect(error.message).toMatch(/10485760-byte limit/);
  });

  test("redirect loops and chains over 10 hops are 502 network_error", async () => {
    for (const path of ["/redirect/loop", "/redirect/many"]) {
      const res = await get(app, `${site.url}${path}`);
      expect(res.status).toBe(502);
      expect((await errorOf(res)).type).toBe("network_error");
    }
  });

  test("a redirect chain of 3 hops lands on the article", async () => {
    const res = await get(app, `${site.url}/redirect/chain/3`);
    expect(((await res.json()) as FetchResult).content).toContain(ARTICLE_SENTENCE);
  });
});

describe("SSRF guard on, fixture origin allow-listed", () => {
  test("a redirect from an allowed origin to a private or loopback address is refused at the hop", async () => {
    const guarded = await startTestApp({ disableSsrfProtection: false, ssrfAllow: `127.0.0.1:${site.port}` });
    try {
      const ok = await get(guarded, `${site.url}/article`);
      expect(ok.status).toBe(200);
      for (const target of [
        "http://10.0.0.1/",
        "http://127.0.0.1:1/",
        "http://[::1]/",
        "http://169.254.169.254/latest/meta-data/",
      ]) {
        const res = await get(guarded, `${site.url}/redirect/to?url=${encodeURIComponent(target)}`);
        expect(res.status).toBe(403);
        expect((await errorOf(res)).type).toBe("forbidden_url");
      }
    } finally {
      await guarded.close();
    }
  });
});

describe("a page streamed after its shell (React's out-of-order rendering)", () => {
  // Its plain HTML already holds the page a browser shows: read without rendering it, its markdown is the product.
  for (const onlyMainContent of [true, false]) {
    test(`GET /v1/fetch, onlyMainContent ${onlyMainContent}: the streamed product, read without a browser`, async () => {
      const before = site.hits("/product/streamed");
      const url = `${site.url}/product/streamed`;
      const res = await app.request(
        `/v1/fetch?url=${encodeURIComponent(url)}&maxAge=0&formats=markdown&onlyMainContent=${onlyMainContent}`,
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as FetchResult;
      expect(body.markdown).toStartWith("# Harbour linen shirt\n\n€68.00");
      expect(body.markdown).toContain("Regular fit, true to size");
      expect(body.markdown).not.toContain("Loading");
      expect(body.markdown).not.toContain("Aran Mills");
      expect(body.markdown).not.toContain("Your email address");
      // One request: the plain HTML was enough, no browser rendered the page again.
      expect(site.hits("/product/streamed")).toBe(before + 1);
    }, 30_000);
  }
});

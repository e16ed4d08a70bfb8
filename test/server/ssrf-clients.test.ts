import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { startFakeSearch } from "../helpers/fake-search.ts";

/**
 * The redirect matrix for every server-side client other than the LLM's (search engines,
 * YouTube, robots.txt and sitemaps, stylesheets): SSRF protection on, each service on an
 * allowed origin that redirects (301, 302, 303, 307, 308) to an internal address that counts
 * every request it gets. It must get none, and nothing it would answer may reach the caller.
 * The LLM's routes are in ssrf-llm-routes.test.ts; webhooks in src/jobs/webhooks.test.ts.
 */

const CODES = [301, 302, 303, 307, 308] as const;
const SECRET = "INTERNAL-SECRET-HTML";

let internal: ReturnType<typeof Bun.serve>;
let internalHits = 0;
let allowed: ReturnType<typeof Bun.serve>;
/** The status the allowed origin's /dyn/ paths redirect with. */
let code = 302;
let app: TestApp;

const secretUrl = () => `http://127.0.0.1:${internal.port}/admin/secret?`;

beforeAll(async () => {
  internal = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      internalHits++;
      return new Response(`<html><body>${SECRET}</body></html>`, {
        headers: { "content-type": "text/html" },
      });
    },
  });
  allowed = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith("/dyn/")) {
        return new Response(null, { status: code, headers: { location: secretUrl() } });
      }
      if (pathname === "/site/robots.txt" || pathname.startsWith("/site/sitemap")) {
        return new Response(null, { status: code, headers: { location: `${secretUrl()}sitemap.xml` } });
      }
      if (pathname === "/site/style.css") {
        return new Response(null, { status: code, headers: { location: `${secretUrl()}style.css` } });
      }
      if (pathname === "/site/" || pathname === "/site/next") {
        return new Response(
          `<html><head><title>Site</title><link rel="stylesheet" href="/site/style.css">
           <link rel="sitemap" href="/site/sitemap-linked.xml"></head>
           <body><main><h1>A page</h1><p>Some text of a page that is long enough to read.</p>
           <a href="/site/next">next</a></main></body></html>`,
          { headers: { "content-type": "text/html" } },
        );
      }
      return new Response("not here", { status: 404 });
    },
  });
  const base = `http://127.0.0.1:${allowed.port}`;
  app = await startTestApp({
    disableSsrfProtection: false,
    ssrfAllow: `127.0.0.1:${allowed.port}`,
    braveUrl: `${base}/dyn/brave`,
    braveApiKey: "brave-operator-key",
    searxngUrl: `${base}/dyn/searxng`,
    duckduckgoUrl: `${base}/dyn/ddg/html/`,
    youtubeUrl: `${base}/dyn/youtube`,
  });
});

afterAll(async () => {
  await app.close();
  internal.stop(true);
  allowed.stop(true);
});

beforeEach(() => {
  internalHits = 0;
});

async function bodyOf(response: Response): Promise<string> {
  return response.text();
}

describe.each(CODES)("a service that redirects with %i to an internal address", (status) => {
  beforeEach(() => {
    code = status;
  });

  for (const provider of ["duckduckgo", "brave", "searxng"]) {
    test(`search with ${provider}: search_failed naming the refusal, no connection`, async () => {
      const response = await app.request(`/v1/search?q=tide+mills&provider=${provider}`);
      const text = await bodyOf(response);
      expect(response.status).toBe(500);
      const body = JSON.parse(text) as { error: { type: string; message: string } };
      expect(body.error.type).toBe("search_failed");
      expect(body.error.message).toContain("not a public address");
      expect(text).not.toContain(SECRET);
      expect(internalHits).toBe(0);
    });
  }

  test("YouTube: forbidden_url, no connection", async () => {
    const response = await app.request(
      `/v1/youtube?url=${encodeURIComponent("https://www.youtube.com/watch?v=dQw4w9WgXcQ")}`,
    );
    const text = await bodyOf(response);
    expect(response.status).toBe(403);
    expect((JSON.parse(text) as { error: { type: string } }).error.type).toBe("forbidden_url");
    expect(text).not.toContain(SECRET);
    expect(internalHits).toBe(0);
  });

  test("map: robots.txt and sitemaps that redirect inside are skipped, the page's links still come", async () => {
    const response = await app.request("/v1/map", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${allowed.port}/site/` }),
    });
    const text = await bodyOf(response);
    expect(response.status).toBe(200);
    expect((JSON.parse(text) as { links: string[] }).links).toContain(
      `http://127.0.0.1:${allowed.port}/site/next`,
    );
    expect(text).not.toContain(SECRET);
    expect(internalHits).toBe(0);
  });

  test("branding: a stylesheet that redirects inside is not read", async () => {
    const response = await app.request("/v1/scrape", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: `http://127.0.0.1:${allowed.port}/site/`,
        formats: ["branding", "markdown"],
      }),
    });
    const text = await bodyOf(response);
    expect(response.status).toBe(200);
    expect(text).toContain("A page");
    expect(text).not.toContain(SECRET);
    expect(internalHits).toBe(0);
  });
});

describe("operator-configured services stay usable with protection on", () => {
  test("a SearXNG on loopback, not in SIPHON_SSRF_ALLOW, answers: the operator's own origin is trusted", async () => {
    const engines = startFakeSearch(`http://127.0.0.1:${allowed.port}/site/`);
    const local = await startTestApp({ disableSsrfProtection: false, searxngUrl: engines.searxngUrl });
    try {
      const response = await local.request("/v1/search?q=tide+mills&provider=searxng");
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { web: unknown[] } };
      expect(body.data.web.length).toBeGreaterThan(0);
    } finally {
      await local.close();
      engines.stop();
    }
  });
});

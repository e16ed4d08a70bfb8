import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Errors a request meets before any route's own work: a URL or headers too long (431), a wrong
 * method on a path the app serves (405 with Allow), each in the error shape of the path's API.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A Firecrawl error body: `{success: false, error, code}`. */
async function firecrawlErrorOf(response: Response): Promise<{ error: string; code: string }> {
  const body = (await response.json()) as { success: boolean; error: unknown; code: string };
  expect(body.success).toBe(false);
  expect(typeof body.error).toBe("string");
  return body as { error: string; code: string };
}

describe("a request line or headers too long: 431 with a body saying so", () => {
  const longQuery = `q=${"a".repeat(32 * 1024)}`;
  const bigHeader = { "x-big": "b".repeat(20 * 1024) };

  test("a 32 KB query string on a native route: format B, invalid_request, the limit named", async () => {
    const res = await app.request(`/v1/fetch?url=https://example.com/&${longQuery}`);
    expect(res.status).toBe(431);
    const error = await errorOf(res);
    expect(error.type).toBe("invalid_request");
    expect(error.message).toContain("URL is");
    expect(error.message).toContain("16384 bytes");
    expect(error.requestId).toBe(res.headers.get("x-request-id") ?? "missing");
  });

  test("a 20 KB header on a native route: format B naming the headers", async () => {
    const res = await app.request("/v1/search?q=x", { headers: bigHeader });
    expect(res.status).toBe(431);
    const error = await errorOf(res);
    expect(error.type).toBe("invalid_request");
    expect(error.message).toContain("headers are");
    expect(res.headers.get("x-request-id")).toBe(error.requestId);
  });

  test("on Firecrawl's routes: Firecrawl's error shape, with the request id header", async () => {
    const long = await app.request(`/v2/crawl/crawl_x?${longQuery}`);
    expect(long.status).toBe(431);
    expect(await firecrawlErrorOf(long)).toMatchObject({ code: "invalid_request" });
    expect(long.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const headers = await app.request("/v1/scrape", {
      method: "POST",
      headers: { "content-type": "application/json", ...bigHeader },
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    expect(headers.status).toBe(431);
    expect((await firecrawlErrorOf(headers)).error).toContain("16384 bytes");
  });

  test("requests as browsers send them, up to the limit, are served", async () => {
    // A browser's headers with a few KB of cookies, and a long but ordinary URL.
    const cookies = { cookie: Array.from({ length: 40 }, (_, i) => `c${i}=${"v".repeat(200)}`).join("; ") };
    expect((await app.request("/health", { headers: cookies })).status).toBe(200);
    expect((await app.request(`/health?${"a".repeat(12 * 1024)}`)).status).toBe(200);
  });
});

/** The paths and methods the app's own OpenAPI document lists (derived from its routes). */
async function documentedRoutes(): Promise<[string, string[]][]> {
  const doc = (await (await app.request("/docs/json")).json()) as { paths: Record<string, object> };
  return Object.entries(doc.paths).map(([path, methods]) => [
    path.replace(/\{[^}]+\}/g, "x1"),
    Object.keys(methods).map((m) => m.toUpperCase()),
  ]);
}

describe("a wrong method on a path the app serves: 405 with Allow", () => {
  test("every documented route refuses a method it does not serve, naming the ones it does", async () => {
    const routes = await documentedRoutes();
    expect(routes.length).toBeGreaterThan(40);
    for (const [path, methods] of routes) {
      const wrong = ["PUT", "PATCH", "POST", "DELETE"].find((m) => !methods.includes(m)) ?? "PUT";
      const res = await app.request(path, { method: wrong });
      expect({ path, wrong, status: res.status }).toEqual({ path, wrong, status: 405 });
      const allow = (res.headers.get("allow") ?? "").split(", ");
      for (const method of methods)
        expect({ path, allow }).toEqual({ path, allow: expect.arrayContaining([method]) });
      expect(allow).not.toContain(wrong);
    }
  });

  test("native paths answer format B method_not_allowed; Firecrawl's answer Firecrawl's shape", async () => {
    const native = await app.request("/v1/crawl", { method: "GET" });
    expect(native.status).toBe(405);
    expect(native.headers.get("allow")).toBe("POST");
    const error = await errorOf(native);
    expect(error.type).toBe("method_not_allowed");
    expect(error.message).toContain("GET is not allowed on /v1/crawl");
    const poll = await app.request("/v1/crawl/crawl_abc", { method: "POST" });
    expect(poll.status).toBe(405);
    expect(poll.headers.get("allow")).toBe("DELETE, GET, HEAD");
    for (const [method, path] of [
      ["GET", "/v2/scrape"],
      ["PUT", "/v1/scrape"],
      ["POST", "/v2/crawl/crawl_abc"],
    ] as const) {
      const res = await app.request(path, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBeTruthy();
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(await firecrawlErrorOf(res)).toMatchObject({ code: "method_not_allowed" });
    }
  });

  test("an unknown path stays 404; HEAD on a GET route is served; GET /mcp keeps its own 405", async () => {
    for (const path of ["/v1/nope", "/v1/crawl/x/y/z", "/nothing"]) {
      const res = await app.request(path, { method: "POST" });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).type).toBe("not_found");
    }
    expect((await app.request("/v2/nope", { method: "POST" })).status).toBe(404);
    expect((await app.request("/health", { method: "HEAD" })).status).toBe(200);
    const mcp = await app.request("/mcp", { headers: { accept: "text/event-stream" } });
    expect(mcp.status).toBe(405);
    expect((await errorOf(mcp)).message).toContain("stateless");
  });
});

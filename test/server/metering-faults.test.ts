import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SiphonError } from "../../src/errors.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";

/**
 * A request whose charge cannot be recorded (the usage store went away after the page was
 * fetched) fails, and keeps nothing: the page it fetched is not cached, so its retry fetches
 * again and pays instead of being a free cache hit.
 */

let hits = 0;
let site: ReturnType<typeof Bun.serve>;
let app: TestApp;
let key: string;
let unlimitedKey: string;

beforeAll(async () => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      hits++;
      return new Response(
        "<html><head><title>Tide mills</title></head><body><main><h1>Tide mills</h1><p>A page worth a credit.</p></main></body></html>",
        { headers: { "content-type": "text/html" } },
      );
    },
  });
  app = await startTestApp({ auth: "required" });
  key = (await app.createKey("pro")).key;
  unlimitedKey = (await app.createKey("unlimited")).key;
});

afterAll(async () => {
  await app.close();
  site.stop(true);
});

/** Makes the usage store refuse the next charge, as a database that went away would. */
function failNextCharge(): void {
  const usage = app.store.usage;
  const original = usage.addCredits.bind(usage);
  usage.addCredits = async () => {
    usage.addCredits = original;
    throw new SiphonError(
      "store_unavailable",
      "The database is unavailable (connection refused); retry shortly.",
    );
  };
}

const routes = [
  {
    name: "GET /v1/fetch",
    status: 503,
    send: (path: string) =>
      app.request(`/v1/fetch?url=${encodeURIComponent(`http://127.0.0.1:${site.port}${path}`)}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
  },
  {
    name: "POST /v2/scrape (Firecrawl)",
    // Firecrawl's status for a failure of the service's own (server/compat/http.ts).
    status: 500,
    send: (path: string) =>
      app.request("/v2/scrape", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `http://127.0.0.1:${site.port}${path}` }),
      }),
  },
];

describe.each(routes)("$name", ({ name, status, send }) => {
  test("a fetch that could not be charged is not cached: the retry fetches again and is charged", async () => {
    const path = `/page-${name.length}`;
    hits = 0;
    failNextCharge();
    const failed = await send(path);
    expect(failed.status).toBe(status);
    expect(hits).toBe(1);
    const retry = await send(path);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("x-credits-used")).toBe("1");
    expect(hits).toBe(2);
    // Once paid for, the page is cached as usual: the next request does not reach the site.
    const again = await send(path);
    expect(again.status).toBe(200);
    expect(hits).toBe(2);
  });
});

/** Makes the cache refuse the next write, as a full disk or a lost Redis would. */
function failNextCacheWrite(): void {
  const cache = app.store.cache;
  const original = cache.set.bind(cache);
  cache.set = async () => {
    cache.set = original;
    throw new SiphonError("store_unavailable", "The cache is unavailable; retry shortly.");
  };
}

describe("an unlimited plan", () => {
  // It pays nothing, so a retry answered from the cache escapes no charge: its writes are not
  // held for the credit (server/guard.ts), and the page it fetched stays cached.
  test("a fetch that could not be recorded still caches its page: the retry is a cache hit", async () => {
    hits = 0;
    const send = () =>
      app.request(`/v1/fetch?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/unlimited`)}`, {
        headers: { authorization: `Bearer ${unlimitedKey}` },
      });
    failNextCharge();
    const failed = await send();
    expect(failed.status).toBe(503);
    expect(hits).toBe(1);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(hits).toBe(1);
  });

  test("a page whose cache write fails is still answered; the next request fetches it again", async () => {
    hits = 0;
    const send = () =>
      app.request(`/v1/fetch?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/unlimited-write`)}`, {
        headers: { authorization: `Bearer ${unlimitedKey}` },
      });
    failNextCacheWrite();
    const first = await send();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { content: string }).content).toContain("A page worth a credit.");
    expect(hits).toBe(1);
    expect((await send()).status).toBe(200);
    expect(hits).toBe(2);
  });
});

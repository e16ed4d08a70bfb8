import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Firecrawl from "@mendable/firecrawl-js";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * DECISIONS.md "Auth modes": auth off checks no key on any route, start or poll, whatever the
 * request carries; on the local daemon (optional auth) a Firecrawl or Jina client's own key
 * (`fc-...`) runs as the local account on their routes. Driven by Firecrawl's own SDK, which
 * sends its key on every call, polls included.
 */

const FC_KEY = "fc-0123456789abcdef0123456789abcdef";
const UNKNOWN_SIPHON_KEY = `sph_live_${"Q".repeat(32)}`;

let site: FixtureSite;
let gen: GeneratedSite;
let off: TestApp;
let optional: TestApp;
let required: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  gen = startGeneratedSite(40);
  off = await startTestApp({ auth: "off", escalation: false });
  optional = await startTestApp({ auth: "optional", escalation: false });
  required = await startTestApp({ auth: "required", escalation: false });
});
afterAll(async () => {
  for (const app of [off, optional, required]) await app.close();
  gen.stop();
  await site.stop();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

/** The SDK's crawl of 3 pages and the v1 client's of 2, both with `fc-...` keys. */
async function sdkCrawls(apiUrl: string) {
  const fc = new Firecrawl({ apiKey: FC_KEY, apiUrl });
  const v2 = await fc.crawl(`${gen.url}/g/0`, { limit: 3, crawlEntireDomain: true, pollInterval: 1 });
  expect(v2.status).toBe("completed");
  expect(v2.data).toHaveLength(3);
  const started = await fc.startCrawl(`${gen.url}/g/1`, { limit: 1 });
  expect((await fc.getCrawlStatus(started.id)).id ?? started.id).toBe(started.id);
  const v1 = (await fc.v1.crawlUrl(`${gen.url}/g/2`, { limit: 2, crawlEntireDomain: true }, 1)) as {
    success: boolean;
    status: string;
    data: unknown[];
  };
  expect(v1.success).toBe(true);
  expect(v1.status).toBe("completed");
  expect(v1.data).toHaveLength(2);
}

describe("auth off: no key is checked, start or poll", () => {
  test("Firecrawl's SDK configured with its own key starts and follows its crawls (v2 and v1)", async () => {
    const apiUrl = off.listen();
    await sdkCrawls(apiUrl);
    // Even a key shaped like siphon's that no store knows: off checks nothing.
    const fc = new Firecrawl({ apiKey: UNKNOWN_SIPHON_KEY, apiUrl });
    const job = await fc.crawl(`${gen.url}/g/4`, { limit: 1, pollInterval: 1 });
    expect(job.status).toBe("completed");
  }, 30_000);

  test("native routes ignore Authorization and X-API-Key, siphon-shaped or not, on every call", async () => {
    for (const headers of [bearer(FC_KEY), bearer(UNKNOWN_SIPHON_KEY), { "x-api-key": "nonsense" }]) {
      const start = await off.request("/v1/crawl", {
        method: "POST",
        headers,
        body: JSON.stringify({ url: `${gen.url}/g/3`, limit: 1 }),
      });
      expect(start.status).toBe(202);
      const { id } = (await start.json()) as { id: string };
      for (const [method, path] of [
        ["GET", `/v1/crawl/${id}`],
        ["GET", "/v1/jobs"],
        ["GET", "/v1/cli/usage"],
        ["GET", "/v1/stats"],
        ["DELETE", `/v1/crawl/${id}`],
      ]) {
        const res = await off.request(path as string, { method, headers });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
      const fetched = await off.request(`/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}`, {
        headers,
      });
      expect(fetched.status).toBe(200);
    }
  });
});

describe("optional auth (the local daemon): a Firecrawl client's own key runs as the local account", () => {
  test("Firecrawl's SDK with an fc- key starts and follows its crawls; the server says so once", async () => {
    await sdkCrawls(optional.listen());
    const said = optional.logs.filter((line) => line.includes("not a siphon key"));
    expect(said).toHaveLength(1);
    expect(said[0]).not.toContain(FC_KEY);
  }, 30_000);

  test("Jina's reader takes its client's key as no key", async () => {
    const res = await optional.request(`/r/${site.url}/article`, { headers: bearer("jina_abc123") });
    expect(res.status).toBe(200);
  });

  test("a siphon-shaped key is still checked, and native routes still refuse a key that is not siphon's", async () => {
    const unknown = await optional.request("/v2/crawl", {
      method: "POST",
      headers: bearer(UNKNOWN_SIPHON_KEY),
      body: JSON.stringify({ url: `${gen.url}/g/0`, limit: 1 }),
    });
    expect(unknown.status).toBe(401);
    const native = await optional.request(`/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}`, {
      headers: bearer(FC_KEY),
    });
    expect(native.status).toBe(401);
    expect((await errorOf(native)).type).toBe("unauthorized");
  });

  test("required auth still refuses a Firecrawl key", async () => {
    const res = await required.request("/v2/crawl", {
      method: "POST",
      headers: bearer(FC_KEY),
      body: JSON.stringify({ url: `${gen.url}/g/0`, limit: 1 }),
    });
    expect(res.status).toBe(401);
  });
});

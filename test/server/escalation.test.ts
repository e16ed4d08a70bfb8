import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import {
  type FixtureSite,
  PLAIN_ESCALATION_TEXT,
  SHRUNK_TEXT,
  startFixtureSite,
  VENDOR_ARTICLE_TEXT,
  VENDOR_SCRIPTS,
} from "../helpers/fixture-site.ts";

/** Escalation never returns less than it had, and only real walls count as walls. */

/** The impatient app's browser stage gives up quickly, so a hanging render fails fast. */
const BROWSER_TIMEOUT_MS = 4_000;

let site: FixtureSite;
let app: TestApp;
let impatient: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp();
  impatient = await startTestApp({ browserTimeoutMs: BROWSER_TIMEOUT_MS });
  // Launch its browser now, so the test's timeout is spent on the hanging page, not a launch.
  await postFetch({ url: `${site.url}/article`, render: true, maxAge: 0 }, impatient);
}, 60_000);
afterAll(async () => {
  await app.close();
  await impatient.close();
  await site.stop();
});

const postFetch = (body: Record<string, unknown>, to: TestApp = app) =>
  to.request("/v1/fetch", { method: "POST", body: JSON.stringify({ format: "text", ...body }) });

async function resultOf(res: Response): Promise<FetchResult> {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as FetchResult;
}

describe("escalation keeps the best answer", () => {
  test("a browser stage that times out gives back the plain HTTP answer with a warning", async () => {
    const url = `${site.url}/esc/once?id=timeout`;
    const started = performance.now();
    const res = await postFetch({ url, maxAge: 0 }, impatient);
    const result = await resultOf(res);
    expect(result.method).toBe("simple");
    expect(result.content).toContain(PLAIN_ESCALATION_TEXT);
    expect(result.warning).toMatch(/browser stage failed \(timeout/);
    // The browser was tried: the page was asked for a second time (and hung).
    expect(site.hits("/esc/once")).toBe(2);
    expect(performance.now() - started).toBeLessThan(BROWSER_TIMEOUT_MS + 5_000);
  }, 60_000);

  test("a render that draws less main text than the HTML had gives back the HTML's answer", async () => {
    const res = await postFetch({ url: `${site.url}/esc/shrinks`, maxAge: 0 });
    const result = await resultOf(res);
    expect(result.method).toBe("simple");
    expect(result.content).toContain(PLAIN_ESCALATION_TEXT);
    expect(result.content).not.toContain(SHRUNK_TEXT);
    expect(result.warning).toMatch(/browser stage drew less main text/);
  }, 60_000);

  test("an answer with a warning is not cached as if it were good", async () => {
    const url = `${site.url}/esc/shrinks`;
    site.resetHits();
    await resultOf(await postFetch({ url }));
    const again = await postFetch({ url });
    await resultOf(again);
    expect(again.headers.get("x-cache")).toBe("MISS");
    // Both requests went to the site: plain HTTP and the browser, twice.
    expect(site.hits("/esc/shrinks")).toBe(4);
  }, 60_000);
});

describe("bot-detection scripts on ordinary pages are not walls", () => {
  for (const vendor of Object.keys(VENDOR_SCRIPTS)) {
    test(`an article that loads ${vendor}'s script is fetched plainly, with its content`, async () => {
      const result = await resultOf(await postFetch({ url: `${site.url}/esc/vendor/${vendor}`, maxAge: 0 }));
      expect(result.method).toBe("simple");
      expect(result.content).toContain(VENDOR_ARTICLE_TEXT);
      expect(result.warning).toBeUndefined();
    });
  }

  test("a real challenge page escalates to stealth and ends blocked", async () => {
    site.resetHits();
    const res = await postFetch({ url: `${site.url}/status/403-botwall`, maxAge: 0 });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).type).toBe("blocked");
    // Plain HTTP, then the stealth browser.
    expect(site.hits("/status/403-botwall")).toBe(2);
  }, 60_000);
});

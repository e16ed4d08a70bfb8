import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Firecrawl, { SdkError } from "@mendable/firecrawl-js";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { runCli } from "../helpers/run.ts";

/**
 * Cache-only requests (lockdown, minAge) answer from what the cache holds and never reach the
 * site: the fixture site counts every hit, so a request that reached it would show.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let site: FixtureSite;
let app: TestApp;
let clock: TestClock;
let home: string;

beforeAll(async () => {
  site = await startFixtureSite();
  clock = new TestClock();
  app = await startTestApp({ escalation: false }, clock);
  home = mkdtempSync(join(tmpdir(), "siphon-cache-only-"));
});
afterAll(async () => {
  await app.close();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

const page = () => `/article?copy=${crypto.randomUUID()}`;
const pathOf = (url: string) => new URL(url).pathname;

function post(body: Record<string, unknown>) {
  return app.request("/v1/fetch", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("lockdown: the cache or a 404, never the site", () => {
  test("a page never fetched is 404 not_found and the site sees nothing; once fetched, any age the cache keeps answers", async () => {
    const url = `${site.url}${page()}`;
    site.resetHits();
    const miss = await post({ url, lockdown: true });
    expect(miss.status).toBe(404);
    const error = await errorOf(miss);
    expect(error.type).toBe("not_found");
    expect(error.message).toContain("Nothing is cached");
    expect(site.hits(pathOf(url))).toBe(0);

    expect((await post({ url })).status).toBe(200);
    expect(site.hits(pathOf(url))).toBe(1);
    // Ten days on, past maxAge's default of two days: lockdown still answers from the cache.
    clock.advance(10 * DAY);
    const hit = await post({ url, lockdown: true, format: "text" });
    expect(hit.status).toBe(200);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(((await hit.json()) as FetchResult).content.length).toBeGreaterThan(100);
    // A maxAge of its own bounds it: one day is too young for a ten-day copy.
    const bounded = await post({ url, lockdown: true, maxAge: DAY });
    expect(bounded.status).toBe(404);
    const viaGet = await app.request(`/v1/fetch?url=${encodeURIComponent(url)}&lockdown=true`);
    expect(viaGet.status).toBe(200);
    expect(site.hits(pathOf(url))).toBe(1);
  });

  test("what the cache cannot answer is a 400 before anything is fetched", async () => {
    const url = `${site.url}${page()}`;
    site.resetHits();
    const cases: [Record<string, unknown>, string][] = [
      [{ actions: [{ type: "wait", ms: 1 }] }, "the cache never keeps"],
      [{ headers: { "x-mine": "1" } }, "the cache never keeps"],
      [{ maxAge: 0 }, "maxAge 0 bypasses the cache"],
      [{ formats: ["markdown", "branding"] }, "branding reads the site's stylesheets"],
      [{ formats: [{ type: "changeTracking" }] }, "change tracking compares the page as it is now"],
      [{ formats: [{ type: "screenshot", quality: 50 }] }, "a screenshot renders the page"],
      [{ minAge: 2 * DAY, maxAge: DAY, lockdown: false }, "minAge (172800000 ms) is more than maxAge"],
    ];
    for (const [extra, message] of cases) {
      const response = await post({ url, lockdown: true, ...extra });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain(message);
    }
    expect(site.hits(pathOf(url))).toBe(0);
  });
});

describe("minAge: a cached copy at least this old, else 404", () => {
  test("a copy younger than minAge is not enough; once it has aged, it answers", async () => {
    const url = `${site.url}${page()}`;
    site.resetHits();
    expect((await post({ url })).status).toBe(200);
    const young = await post({ url, minAge: HOUR });
    expect(young.status).toBe(404);
    expect((await errorOf(young)).message).toContain(`at least ${HOUR} ms old`);
    clock.advance(2 * HOUR);
    const aged = await post({ url, minAge: HOUR });
    expect(aged.status).toBe(200);
    expect(aged.headers.get("x-cache")).toBe("HIT");
    expect(site.hits(pathOf(url))).toBe(1);
  });
});

describe("the other surfaces", () => {
  test("Firecrawl's SDK: lockdown and minAge answer from the cache; a miss is the SDK's 404", async () => {
    const fc = new Firecrawl({ apiUrl: app.listen() });
    const url = `${site.url}${page()}`;
    site.resetHits();
    const miss = await fc.scrape(url, { lockdown: true }).catch((error) => error);
    expect(miss).toBeInstanceOf(SdkError);
    expect((miss as SdkError).status).toBe(404);
    await fc.scrape(url);
    clock.advance(5 * DAY);
    const hit = await fc.scrape(url, { lockdown: true });
    expect(hit.metadata?.cacheState).toBe("hit");
    expect(hit.markdown?.length).toBeGreaterThan(100);
    const aged = await fc.scrape(url, { minAge: 4 * DAY });
    expect(aged.metadata?.cacheState).toBe("hit");
    const tooYoung = await fc.scrape(url, { minAge: 6 * DAY }).catch((error) => error);
    expect((tooYoung as SdkError).status).toBe(404);
    expect(site.hits(pathOf(url))).toBe(1);
  });

  test("siphon fetch --lockdown: a miss exits 1 with the reason on stderr, nothing reaches the site", async () => {
    const url = `${site.url}${page()}`;
    site.resetHits();
    const run = await runCli(["fetch", url, "--lockdown"], home);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Nothing is cached");
    expect(run.stdout).toBe("");
    const fetched = await runCli(["fetch", url, "--format", "text"], home);
    expect(fetched.code).toBe(0);
    const locked = await runCli(["fetch", url, "--lockdown", "--format", "text", "--json"], home);
    expect(locked.code).toBe(0);
    expect((JSON.parse(locked.stdout) as FetchResult).content).toBe(fetched.stdout.trimEnd());
    expect(site.hits(pathOf(url))).toBe(1);
  }, 30_000);
});

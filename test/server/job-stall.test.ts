import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

/**
 * A job whose workers are gone must not look like progress: every poll says when the job last
 * moved, and once it has not moved for SIPHON_JOB_STALL_MS it carries a warning saying so.
 */

const STALL_MS = 60_000;
let site: FixtureSite;
let app: TestApp;
const clock = new TestClock();

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp({ jobStallMs: STALL_MS, escalation: false }, clock);
  // No worker: what a deployment whose workers stopped (or lost Redis) looks like to a poller.
  await app.runner.close();
});

afterAll(async () => {
  await app.close();
  await site.stop();
});

async function start(path: string, body: unknown): Promise<string> {
  const response = await app.request(path, { method: "POST", body: JSON.stringify(body) });
  const started = (await response.json()) as { id: string };
  expect([200, 202]).toContain(response.status);
  return started.id;
}

async function poll(path: string): Promise<Record<string, unknown>> {
  const response = await app.request(path);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe("a job that does not move", () => {
  test("native crawl, batch and extract polls say when it last moved, and warn once it is stalled", async () => {
    const createdAt = new Date(clock.now()).toISOString();
    const crawl = await start("/v1/crawl", { url: `${site.url}/article`, maxDepth: 0 });
    const batch = await start("/v1/batch/scrape", { urls: [`${site.url}/article`] });
    const extract = await start("/v1/extract", { urls: [`${site.url}/product`], selectors: { title: "h1" } });
    const paths = [`/v1/crawl/${crawl}`, `/v1/batch/scrape/${batch}`, `/v1/extract/${extract}`];
    for (const path of paths) {
      const fresh = await poll(path);
      expect(fresh.status).toBe("queued");
      expect(fresh.lastProgressAt).toBe(createdAt);
      expect(fresh.warning).toBeUndefined();
    }
    clock.advance(STALL_MS + 5_000);
    for (const path of paths) {
      const stalled = await poll(path);
      expect(stalled.lastProgressAt).toBe(createdAt);
      expect(String(stalled.warning)).toContain("No worker has started this job in 65 s");
    }
  });

  test("a processing job that stopped moving is reported stalled, with the time of its last progress", async () => {
    const crawl = await start("/v1/crawl", { url: `${site.url}/article`, maxDepth: 0 });
    await app.store.jobs.transition(crawl, ["queued"], "processing");
    await app.store.jobs.finishItem(crawl, `${site.url}/article`, {
      state: "done",
      data: { url: "x" },
      credits: 1,
    });
    // The store stamps progress itself; the poller's clock is set from there.
    const movedAt = (await app.store.jobs.get(crawl))?.updatedAt ?? 0;
    clock.ms = movedAt + STALL_MS - 1_000;
    expect((await poll(`/v1/crawl/${crawl}`)).warning).toBeUndefined();
    clock.ms = movedAt + STALL_MS + 1_000;
    const native = await poll(`/v1/crawl/${crawl}`);
    expect(native.status).toBe("processing");
    expect(native.lastProgressAt).toBe(new Date(movedAt).toISOString());
    expect(String(native.warning)).toContain("has not progressed in 61 s");
    // Firecrawl's poll of the same job carries the same.
    const firecrawl = await poll(`/v2/crawl/${crawl}`);
    expect(firecrawl.status).toBe("scraping");
    expect(String(firecrawl.warning)).toContain("has not progressed");
  });

  test("an ended job is never stalled", async () => {
    const batch = await start("/v1/batch/scrape", { urls: [`${site.url}/article`] });
    await app.request(`/v1/batch/scrape/${batch}`, { method: "DELETE" });
    clock.advance(STALL_MS * 10);
    const ended = await poll(`/v1/batch/scrape/${batch}`);
    expect(ended.status).toBe("cancelled");
    expect(ended.warning).toBeUndefined();
  });
});

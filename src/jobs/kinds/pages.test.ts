import { expect, test } from "bun:test";
import { LOCAL_ACCOUNT_ID } from "../../auth/principal.ts";
import { loadConfig } from "../../config.ts";
import type { FetchEngine } from "../../fetch/types.ts";
import { createEngines, type Engines } from "../../pipeline/engines.ts";
import { CrawlBody } from "../../schemas/jobs.ts";
import { validate } from "../../schemas/validate.ts";
import { openSqliteStore } from "../../store/sqlite.ts";
import type { JobRecord, Store } from "../../store/types.ts";
import { startJobRunner } from "../index.ts";
import { submitCrawl } from "../submit.ts";
import { openPageRun, processItem } from "./pages.ts";
import type { JobContext } from "./types.ts";

const batch: JobRecord = {
  id: "batch_1",
  type: "batch",
  status: "processing",
  accountId: "local",
  keyId: null,
  input: { urls: ["https://a.example/"] },
  webhook: null,
  total: 1,
  completed: 0,
  failed: 0,
  creditsUsed: 0,
  error: null,
  createdAt: 1,
  updatedAt: 1,
  finishedAt: null,
  expiresAt: null,
  result: null,
};

test("a page job starts the extraction threads as it opens, with a queue too", async () => {
  const store = openSqliteStore(":memory:");
  for (const dispatch of [undefined, async () => {}]) {
    const calls: string[] = [];
    const engines: Engines = {
      get: async (name) => {
        calls.push(`get ${name}`);
        return { name, fetch: async () => Promise.reject(new Error("offline")) } as FetchEngine;
      },
      startExtraction: () => void calls.push("start extraction"),
    };
    const ctx = {
      job: batch,
      config: loadConfig({}),
      store,
      engines,
      signal: new AbortController().signal,
      dispatch,
    } as unknown as JobContext;
    await openPageRun(ctx);
    // Before the job's first fetch, so the threads load while it waits.
    expect(calls).toEqual(["start extraction", "get simple"]);
  }
  await store.close();
});

test("a crawl reads its frontier a few pools at a time, not once a page, and fetches every page once", async () => {
  const hits = new Map<string, number>();
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path === "/robots.txt") return new Response("", { status: 404 });
      const links =
        path === "/" ? Array.from({ length: 60 }, (_, i) => `<a href="/p/${i}">page ${i}</a>`).join(" ") : "";
      return new Response(
        `<html><head><title>${path}</title></head><body><main><h1>${path}</h1><p>${"Words of the page. ".repeat(20)}</p>${links}</main></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    },
  });
  const config = loadConfig({ DISABLE_SSRF_PROTECTION: "true", SIPHON_CACHE: "false" });
  const store = openSqliteStore(":memory:");
  let reads = 0;
  const counted: Store = {
    ...store,
    jobs: {
      ...store.jobs,
      pending: (id, limit) => {
        reads++;
        return store.jobs.pending(id, limit);
      },
    },
  };
  const engines = createEngines(config);
  const runner = startJobRunner(config, counted, engines);
  try {
    const input = validate(CrawlBody, { url: `${site.url.href}`, limit: 61, maxDepth: 1, maxConcurrency: 5 });
    const job = await submitCrawl(
      input,
      { accountId: LOCAL_ACCOUNT_ID },
      { store: counted, config, now: Date.now() },
    );
    runner.submit(job.id);
    let state = await store.jobs.get(job.id);
    for (let i = 0; i < 500 && (state?.status === "queued" || state?.status === "processing"); i++) {
      await Bun.sleep(20);
      state = await store.jobs.get(job.id);
    }
    expect(state).toMatchObject({ status: "completed", completed: 61 });
    // Every page once (robots.txt, llms.txt and the sitemap are read besides).
    const pages = [...hits].filter(([path]) => path === "/" || path.startsWith("/p/"));
    expect(pages.length).toBe(61);
    expect(pages.filter(([, n]) => n !== 1)).toEqual([]);
    // One read a page would be 61 or more; read ahead, a read serves about four pools of five.
    expect(reads).toBeLessThan(20);
  } finally {
    await runner.close();
    await engines.close();
    await store.close();
    site.stop(true);
  }
}, 30_000);

test("a page run twice (a job delivered twice, a retry) is charged and announced once", async () => {
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        `<html><head><title>Once</title></head><body><main><h1>Once</h1><p>${"Words. ".repeat(40)}</p></main></body></html>`,
        {
          headers: { "content-type": "text/html" },
        },
      ),
  });
  const config = loadConfig({ DISABLE_SSRF_PROTECTION: "true", SIPHON_CACHE: "false" });
  const store = openSqliteStore(":memory:");
  const engines = createEngines(config);
  try {
    const url = site.url.href;
    const job: JobRecord = { ...batch, input: { urls: [url] } };
    await store.jobs.create(job, [{ url, depth: 0 }]);
    const charged: number[] = [];
    const emitted: string[] = [];
    const notified: string[] = [];
    const ctx = {
      job,
      fresh: true,
      config,
      store,
      engines,
      signal: new AbortController().signal,
      now: Date.now,
      httpOnly: async () => false,
      charge: async (credits: number) => void charged.push(credits),
      emit: (event: { type: string }) => void emitted.push(event.type),
      notify: (event: string) => void notified.push(event),
      progress: async () => {},
      log: () => {},
    } as unknown as JobContext;
    const run = await openPageRun(ctx);
    await processItem(run, url, 0);
    await processItem(run, url, 0);
    expect(charged).toEqual([1]);
    expect(emitted).toEqual(["page"]);
    expect(notified).toEqual(["page"]);
    expect(await store.jobs.get(job.id)).toMatchObject({ completed: 1, creditsUsed: 1 });
  } finally {
    await engines.close();
    await store.close();
    site.stop(true);
  }
}, 30_000);

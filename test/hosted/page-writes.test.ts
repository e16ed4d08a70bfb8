/**
 * What each crawled page costs hosted mode, kept small without losing a guarantee: workers
 * finishing pages of one job at once on PostgreSQL (one statement a page) still give every page
 * one place, without gaps, counted once; a job's progress reaches followers in other processes
 * however few ticks are published; and a worker reads an account's weekly quota at most once a
 * second for a job's pages.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { Redis } from "ioredis";
import type { JobEvent } from "../../src/jobs/kinds/types.ts";
import type { JobEventBus } from "../../src/jobs/queue-events.ts";
import { redisEventBus } from "../../src/jobs/queue-redis-events.ts";
import { openPgStore } from "../../src/store/pg-store.ts";
import { KEY_PREFIX, RedisConnection } from "../../src/store/redis-connection.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { NewJob, Store } from "../../src/store/types.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { readWhileFinishing } from "../helpers/read-while-finishing.ts";
import { redisBin, startRedis, type TestRedis } from "../helpers/redis.ts";

const job = (id: string): NewJob => ({
  id,
  type: "crawl",
  status: "processing",
  accountId: "acct_a",
  input: { url: "https://a.example/", limit: 1000 },
  webhook: null,
  error: null,
  createdAt: 1,
  updatedAt: 1,
  finishedAt: null,
  expiresAt: null,
});

const urls = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `https://a.example/${prefix}${i}`, depth: 1 }));

describe.skipIf(!postgresBin())("pages finished by several workers at once on PostgreSQL", () => {
  let pg: TestPostgres;
  let url: string;
  const stores: Store[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
    url = await pg.createDatabase("writes");
    // Four processes, each with its own pool.
    for (let i = 0; i < 4; i++) stores.push(await openPgStore(url, { maxConnections: 6 }));
  }, 60_000);
  afterAll(async () => {
    for (const store of stores) await store.close();
    await pg?.close();
  }, 30_000);

  test("every page once, in places 1..n without gaps, counted once with its credits, while a reader pages the results", async () => {
    const [store] = stores as [Store];
    const n = 400;
    const items = urls("p", n);
    await store.jobs.create(job("crawl_1"), items);
    // Each page is finished by two workers (a retry, a stalled claim), 12 at a time in each;
    // the first to finish one decides its outcome. Pages add links as they go, up to the cap.
    const outcome = (i: number) => (i % 5 === 0 ? "failed" : "done");
    const finishing = Promise.all(
      stores.map(async (s, w) => {
        const mine = items
          .map((it, i) => ({ ...it, i }))
          .filter(({ i }) => i % 2 === w % 2)
          .sort((a, b) => ((a.i * 7919 + w) % n) - ((b.i * 7919 + w) % n));
        let next = 0;
        await Promise.all(
          Array.from({ length: 12 }, async () => {
            while (next < mine.length) {
              const it = mine[next++] as (typeof mine)[number];
              await s.jobs.finishItem("crawl_1", it.url, {
                state: outcome(it.i),
                data: { url: it.url },
                error: outcome(it.i) === "failed" ? "timeout" : undefined,
                credits: outcome(it.i) === "done" ? 1 : 0,
              });
              await s.jobs.addItems("crawl_1", urls(`w${w}-${it.i}-`, 3), n + 100);
            }
          }),
        );
      }),
    );
    const seen = await readWhileFinishing(store, "crawl_1", finishing, 9);
    expect(seen.length).toBe(n);
    expect(new Set(seen).size).toBe(n);
    // The last place is n: no place was skipped or taken twice.
    expect((await store.jobs.results("crawl_1", n - 1, 10)).length).toBe(1);
    const failed = items.filter((_, i) => outcome(i) === "failed").length;
    expect(await store.jobs.get("crawl_1")).toMatchObject({
      completed: n - failed,
      failed,
      creditsUsed: n - failed,
      total: n + 100,
    });
    expect((await store.jobs.pending("crawl_1", 1000)).length).toBe(100);
    // A job at its cap takes nothing more, in any process, whatever it is offered.
    for (const s of stores) expect(await s.jobs.addItems("crawl_1", urls("late", 5), n + 100)).toBe(0);
    expect((await store.jobs.get("crawl_1"))?.total).toBe(n + 100);
  }, 60_000);

  test("a page's result is stored compressed with lz4 (cheaper to write than pglz) and read back whole, every character as it was", async () => {
    const [store] = stores as [Store];
    await store.jobs.create(job("crawl_lz4"), urls("z", 1));
    // Quotes, backslashes, newlines, a NUL and characters outside the BMP come back as they were.
    const markdown = Array.from(
      { length: 400 },
      (_, i) => `Paragraph ${i} of a "long" page \\ with \u0000 and ü 🌊 {"x": [1]}.`,
    ).join("\n\n");
    await store.jobs.finishItem("crawl_lz4", "https://a.example/z0", {
      state: "done",
      data: { markdown },
      credits: 1,
    });
    const client = new SQL(url, { max: 1 });
    try {
      const [row] =
        await client`SELECT pg_column_compression(data) AS method FROM job_items WHERE job_id = 'crawl_lz4'`;
      expect(row.method).toBe("lz4");
    } finally {
      await client.close();
    }
    expect((await store.jobs.results("crawl_lz4", 0, 1))[0]?.data).toEqual({ markdown });
  }, 30_000);
});

describe.skipIf(!redisBin())("job progress through Redis", () => {
  let redis: TestRedis;
  let home: string;
  let store: Store;
  beforeAll(async () => {
    redis = await startRedis();
    home = mkdtempSync(join(tmpdir(), "siphon-page-writes-"));
    store = openSqliteStore(join(home, "siphon.db"));
  }, 30_000);
  afterAll(async () => {
    await store?.close();
    await redis?.close();
    rmSync(home, { recursive: true, force: true });
  });

  /**
   * A worker's and an API process's event buses, each on its own Redis connection, and how many
   * messages a subscriber of the job's channel saw (what goes through Redis); closed after `use`.
   */
  async function twoBuses(
    jobId: string,
    use: (buses: { worker: JobEventBus; api: JobEventBus; published: () => number }) => Promise<void>,
  ) {
    const connections = [new RedisConnection(redis.url()), new RedisConnection(redis.url())];
    for (const c of connections) await c.open();
    const [worker, api] = await Promise.all(connections.map((c) => redisEventBus(c, store)));
    if (!worker || !api) throw new Error("no bus");
    const wire = new Redis(redis.url());
    let published = 0;
    await wire.subscribe(`${KEY_PREFIX}job-events:${jobId}`);
    wire.on("message", () => published++);
    try {
      await use({ worker, api, published: () => published });
    } finally {
      wire.disconnect();
      await Promise.all([worker.close(), api.close()]);
      for (const c of connections) await c.close();
    }
  }

  test("a follower in another process gets the last change of a job's counters, in one tick a tenth of a second at most", async () => {
    await twoBuses("crawl_2", async ({ worker, api, published }) => {
      const n = 100;
      await store.jobs.create(job("crawl_2"), urls("q", n));
      const events: JobEvent[] = [];
      const unsubscribe = api.subscribe("crawl_2", (event) => events.push(event));
      await Bun.sleep(100);
      const finish = async (i: number) => {
        await store.jobs.finishItem("crawl_2", `https://a.example/q${i}`, { state: "done", credits: 1 });
        await worker.changed("crawl_2");
      };
      // A worker finishing a page every few milliseconds, telling followers after each.
      const started = Date.now();
      for (let i = 0; i < n - 2; i++) {
        await finish(i);
        await Bun.sleep(3);
      }
      const took = Date.now() - started;
      // Once a tick is due, the next change is published at once and read by the follower; the
      // one after it, within the tenth of a second, only by the tick at its end.
      await Bun.sleep(150);
      await finish(n - 2);
      await Bun.sleep(40);
      await finish(n - 1);
      const deadline = Date.now() + 3_000;
      const last = () => events.filter((e) => e.type === "progress").at(-1);
      while (Date.now() < deadline && (last() as { completed?: number } | undefined)?.completed !== n)
        await Bun.sleep(20);
      unsubscribe();
      expect(last()).toEqual({ type: "progress", status: "processing", completed: n, total: n });
      // One tick a tenth of a second at most, where each page used to publish one.
      expect(published()).toBeLessThanOrEqual(Math.ceil(took / 100) + 4);
      expect(published()).toBeLessThan(n / 2);
    });
  }, 30_000);

  test("a job's page events go out together, a few a message, every one before the job's done event", async () => {
    await twoBuses("crawl_3", async ({ worker, api, published }) => {
      const events: JobEvent[] = [];
      const unsubscribe = api.subscribe("crawl_3", (event) => events.push(event));
      await Bun.sleep(100);
      const pages = 40;
      // A worker finishing a page every few milliseconds, then the job ending at once after the last.
      for (let i = 0; i < pages; i++) {
        worker.emit("crawl_3", { type: "page", url: `https://a.example/r${i}`, title: `r${i}` });
        await Bun.sleep(2);
      }
      worker.emit("crawl_3", { type: "done", status: "completed", completed: pages, total: pages });
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline && events.at(-1)?.type !== "done") await Bun.sleep(20);
      unsubscribe();
      // Every page, in order, then done.
      expect(events.map((e) => (e.type === "page" ? e.url : e.type))).toEqual([
        ...Array.from({ length: pages }, (_, i) => `https://a.example/r${i}`),
        "done",
      ]);
      // About one message a tenth of a second (the 40 pages take about that long), not one a page.
      expect(published()).toBeLessThan(10);
      // A worker's flush sends what it holds at once: the page is out before it reports it done.
      const late: JobEvent[] = [];
      const off = api.subscribe("crawl_3", (event) => late.push(event));
      await Bun.sleep(100);
      worker.emit("crawl_3", { type: "page", url: "https://a.example/last", title: "last" });
      worker.flush?.("crawl_3");
      await Bun.sleep(40);
      off();
      expect(late.map((e) => e.type)).toEqual(["page"]);
    });
  }, 30_000);
});

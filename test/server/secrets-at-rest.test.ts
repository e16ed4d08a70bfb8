import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { RedisClient, SQL } from "bun";
import { loadConfig } from "../../src/config.ts";
import { LOST_SECRETS_ERROR } from "../../src/jobs/sealed-store.ts";
import { newJob } from "../../src/jobs/submit.ts";
import { openStore } from "../../src/store/index.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { redisBin, startRedis } from "../helpers/redis.ts";

/**
 * Callers' keys never reach the store's disk readable: after agent, extract, batch and crawl
 * jobs that carried LLM keys (and a webhook secret) ran, the SQLite file with its WAL, and a
 * PostgreSQL server's dump and data folder, hold none of them — not while the jobs run, not
 * after they end, not in free pages. What `strings siphon.db` would find, read byte for byte.
 */

const KEYS = {
  extract: "sk-atrest-extract-5b1d9e0c7a4f3328QX",
  agent: "sk-atrest-agent-88c2a1f0e9d7b6a5QX",
  batch: "sk-atrest-batch-0f9e8d7c6b5a4938QX",
  crawl: "sk-atrest-crawl-7e6d5c4b3a291807QX",
  webhook: "whsec-atrest-3c2b1a09f8e7d6c5QX",
  /** A page's Authorization header and session cookie, sent with every page of a batch or crawl. */
  pageHeader: "Bearer page-atrest-4d3c2b1a0f9e8d7cQX",
  pageCookie: "session=cookie-atrest-9a8b7c6d5e4f3021QX",
} as const;

const SCHEMA = {
  type: "object",
  properties: { name: { type: ["string", "null"] } },
  required: ["name"],
};

let site: FixtureSite;
let llm: FakeLlm;
let hook: ReturnType<typeof Bun.serve>;
/** A page that records the Authorization and Cookie headers it was sent. */
let echo: ReturnType<typeof Bun.serve>;
const echoed: { authorization: string | null; cookie: string | null }[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEYS.extract, KEYS.agent, KEYS.batch, KEYS.crawl] });
  llm.reply = (request) =>
    /JSON|json|schema/.test(JSON.stringify(request.messages))
      ? { json: { name: "x" }, delayMs: 150 }
      : { text: "An answer [1].", delayMs: 150 };
  hook = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
  echo = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      echoed.push({
        authorization: request.headers.get("authorization"),
        cookie: request.headers.get("cookie"),
      });
      return new Response(
        "<html><head><title>Echo</title></head><body><main><p>A page for signed-in readers.</p></main></body></html>",
        {
          headers: { "content-type": "text/html" },
        },
      );
    },
  });
});

afterAll(async () => {
  hook.stop(true);
  echo.stop(true);
  await llm.stop();
  await site.stop();
});

/** Every file under `dir` (recursively), as bytes. */
function filesUnder(dir: string): Buffer[] {
  const out: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = statSync(path);
    if (info.isDirectory()) out.push(...filesUnder(path));
    else if (info.isFile()) out.push(readFileSync(path));
  }
  return out;
}

/** The keys (whole, or a 16-character stretch of one) found in any of `blobs`. */
function keysIn(blobs: Buffer[]): string[] {
  return Object.values(KEYS).filter((key) =>
    blobs.some((blob) => blob.includes(key) || blob.includes(key.slice(4, 20))),
  );
}

/** The LLM key of a job's input as a store hands it back. */
const keyOf = (job: { input: unknown } | null) =>
  (job?.input as { llmApiKey?: string } | undefined)?.llmApiKey;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

async function runJobs(app: TestApp, during: () => Promise<void>): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown) => {
    const response = await app.request(path, { method: "POST", body: JSON.stringify(body) });
    const started = (await response.json()) as { id: string };
    if (response.status !== 202)
      throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(started)}`);
    return started.id;
  };
  const ids = {
    extract: await post("/v1/extract", {
      urls: [`${site.url}/product?k=1`, `${site.url}/article?k=1`],
      schema: SCHEMA,
      llmProvider: "openai",
      llmApiKey: KEYS.extract,
    }),
    agent: await post("/v1/agent/async", {
      prompt: "What does the page say?",
      llmApiKey: KEYS.agent,
      urls: [`${site.url}/article?k=2`],
      webhook: { url: `http://127.0.0.1:${hook.port}/hook`, secret: KEYS.webhook },
    }),
    batch: await post("/v1/batch/scrape", {
      urls: [`${site.url}/product?k=3`, `http://127.0.0.1:${echo.port}/batch`],
      extract: { schema: SCHEMA },
      llmProvider: "openai",
      llmApiKey: KEYS.batch,
      headers: { authorization: KEYS.pageHeader },
      cookies: [KEYS.pageCookie],
    }),
    crawl: await post("/v1/crawl", {
      url: `http://127.0.0.1:${echo.port}/crawl`,
      maxDepth: 0,
      ignoreSitemap: true,
      ignoreRobotsTxt: true,
      scrapeOptions: {
        extract: { schema: SCHEMA },
        llmProvider: "openai",
        llmApiKey: KEYS.crawl,
        headers: { authorization: KEYS.pageHeader },
        cookies: [KEYS.pageCookie],
      },
    }),
  };
  await during();
  const paths: Record<string, string> = {
    extract: `/v1/extract/${ids.extract}`,
    agent: `/v1/agent/${ids.agent}`,
    batch: `/v1/batch/scrape/${ids.batch}`,
    crawl: `/v1/crawl/${ids.crawl}`,
  };
  const statuses: Record<string, string> = {};
  for (const [name, path] of Object.entries(paths)) {
    for (let i = 0; i < 300; i++) {
      const poll = (await (await app.request(path)).json()) as { status: string };
      statuses[name] = poll.status;
      if (TERMINAL.has(poll.status)) break;
      await Bun.sleep(50);
    }
  }
  return statuses;
}

describe("SQLite", () => {
  test("no key in the database file or its WAL, while the jobs run and after they end", async () => {
    const app = await startTestApp({ openaiBaseUrl: llm.baseUrl("openai"), escalation: false });
    try {
      const files = () =>
        ["siphon.db", "siphon.db-wal", "siphon.db-shm"]
          .map((name) => join(app.home, name))
          .filter(existsSync)
          .map((path) => readFileSync(path));
      let whileRunning: string[] = [];
      const statuses = await runJobs(app, async () => {
        whileRunning = keysIn(files());
      });
      expect(statuses).toEqual({
        extract: "completed",
        agent: "completed",
        batch: "completed",
        crawl: "completed",
      });
      expect(whileRunning).toEqual([]);
      expect(keysIn(files())).toEqual([]);
      // The LLM did get each key: the jobs really carried them.
      const used = new Set(llm.requests.map((request) => request.authorization?.replace("Bearer ", "")));
      for (const key of [KEYS.extract, KEYS.agent, KEYS.batch, KEYS.crawl]) expect(used.has(key)).toBe(true);
      // The pages got their header and cookie: the batch's and the crawl's.
      const sent = echoed.filter((e) => e.authorization === KEYS.pageHeader && e.cookie === KEYS.pageCookie);
      expect(sent.length).toBeGreaterThanOrEqual(2);
    } finally {
      await app.close();
    }
  }, 60_000);

  test("a job whose keys were sealed by a process that is gone fails saying so, instead of running without them", async () => {
    const app = await startTestApp({ openaiBaseUrl: llm.baseUrl("openai"), escalation: false });
    const config = loadConfig({}, { home: app.home });
    try {
      // Stop the runner first so the job stays queued, as if the process died with it.
      await app.runner.close();
      const response = await app.request("/v1/extract", {
        method: "POST",
        body: JSON.stringify({
          urls: [`${site.url}/product?k=9`],
          schema: SCHEMA,
          llmProvider: "openai",
          llmApiKey: KEYS.extract,
        }),
      });
      const { id } = (await response.json()) as { id: string };
      // A new process: a new sealing key. Read to be run (resumed) or polled, the job is failed saying why.
      const next = await openStore(config);
      try {
        expect((await next.jobs.unfinished()).map((job) => job.id)).not.toContain(id);
        const failed = await next.jobs.get(id);
        expect(failed?.status).toBe("failed");
        expect(failed?.error).toBe(LOST_SECRETS_ERROR);
        expect(JSON.stringify(failed?.input)).not.toContain("sealed:");
        const polled = await app.request(`/v1/extract/${id}`);
        expect(((await polled.json()) as { status: string }).status).toBe("failed");
      } finally {
        await next.close();
      }
      // A poll by a process that cannot open the key fails the job too, never runs it keyless.
      const other = await app.request("/v1/extract", {
        method: "POST",
        body: JSON.stringify({
          urls: [`${site.url}/product?k=10`],
          schema: SCHEMA,
          llmProvider: "openai",
          llmApiKey: KEYS.extract,
        }),
      });
      const otherId = ((await other.json()) as { id: string }).id;
      const third = await openStore(config);
      try {
        const read = await third.jobs.get(otherId);
        expect(read?.status).toBe("failed");
        expect(read?.error).toBe(LOST_SECRETS_ERROR);
      } finally {
        await third.close();
      }
    } finally {
      await app.close();
    }
  }, 30_000);
});

describe.skipIf(!postgresBin())("PostgreSQL", () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  test("no key in pg_dump's output or anywhere in the server's data folder after the jobs end", async () => {
    const url = await pg.createDatabase("atrest");
    const app = await startTestApp({
      openaiBaseUrl: llm.baseUrl("openai"),
      escalation: false,
      databaseUrl: url,
    });
    try {
      const statuses = await runJobs(app, async () => {});
      expect(statuses).toEqual({
        extract: "completed",
        agent: "completed",
        batch: "completed",
        crawl: "completed",
      });
    } finally {
      await app.close();
    }
    const sql = new SQL(url);
    const [setting] = (await sql`SHOW data_directory`) as { data_directory: string }[];
    const data = setting?.data_directory ?? "";
    await sql`CHECKPOINT`;
    await sql.close();
    const dump = Bun.spawnSync([
      join(postgresBin()!, "pg_dump"),
      "-h",
      "127.0.0.1",
      "-p",
      String(pg.port),
      "-U",
      "postgres",
      "atrest",
    ]);
    expect(dump.exitCode).toBe(0);
    expect(dump.stdout.toString()).toContain("CREATE TABLE");
    expect(keysIn([dump.stdout])).toEqual([]);
    expect(keysIn(filesUnder(data))).toEqual([]);
  }, 90_000);

  test.skipIf(!redisBin())(
    "hosted: processes sharing Redis open each other's sealed keys, which PostgreSQL never holds readable",
    async () => {
      const redis = await startRedis();
      const url = await pg.createDatabase("shared");
      const config = loadConfig(
        {},
        { home: "/nonexistent/siphon-atrest", databaseUrl: url, redisUrl: redis.url() },
      );
      const api = await openStore(config);
      const worker = await openStore(config);
      try {
        const job = newJob(
          "extract",
          { accountId: "acct" },
          { urls: ["https://a.example/"], llmApiKey: KEYS.extract },
          null,
          Date.now(),
        );
        await api.jobs.create(job, [{ url: "https://a.example/", depth: 0 }]);
        expect(keyOf(await worker.jobs.get(job.id))).toBe(KEYS.extract);
        const sql = new SQL(url);
        const rows = (await sql`SELECT input::text AS input FROM jobs`) as { input: string }[];
        await sql.close();
        expect(rows).toHaveLength(1);
        expect(rows[0]?.input).not.toContain(KEYS.extract);
        expect(rows[0]?.input).toContain("sealed:v1:");
      } finally {
        await api.close();
        await worker.close();
        await redis.close();
      }
    },
    60_000,
  );

  test.skipIf(!redisBin())(
    "hosted: after Redis restarts empty, the processes converge on one key again and still open what they sealed",
    async () => {
      const redis = await startRedis();
      const url = await pg.createDatabase("converge");
      const config = loadConfig(
        {},
        { home: "/nonexistent/siphon-atrest", databaseUrl: url, redisUrl: redis.url() },
      );
      const stores = [await openStore(config)];
      try {
        const survivor = stores[0]!;
        const job = (input: unknown) => newJob("extract", { accountId: "acct" }, input, null, Date.now());
        const early = job({ urls: ["https://a.example/"], llmApiKey: "sk-early-0123456789" });
        await survivor.jobs.create(early, [{ url: "https://a.example/", depth: 0 }]);
        await redis.stop();
        await redis.start();
        // A process may start before the survivor hears Redis is back and draws a key of its own.
        const newcomer = await openStore(config);
        stores.push(newcomer);
        // Within moments both seal with the one key Redis holds: what the survivor seals now, the newcomer opens.
        let opened: unknown;
        for (let i = 0; i < 100 && opened !== "sk-late-0123456789"; i++) {
          const late = job({ urls: ["https://b.example/"], llmApiKey: "sk-late-0123456789" });
          await survivor.jobs.create(late, [{ url: "https://b.example/", depth: 0 }]);
          opened = keyOf(await newcomer.jobs.get(late.id));
          if (opened !== "sk-late-0123456789") await Bun.sleep(50);
        }
        expect(opened).toBe("sk-late-0123456789");
        // The survivor still opens what it sealed before Redis went.
        expect(keyOf(await survivor.jobs.get(early.id))).toBe("sk-early-0123456789");
        // After another restart of Redis alone, the processes put the key back as soon as it is up:
        // a process that comes later opens what they sealed.
        const kept = job({ urls: ["https://c.example/"], llmApiKey: "sk-kept-0123456789" });
        await newcomer.jobs.create(kept, [{ url: "https://c.example/", depth: 0 }]);
        await redis.stop();
        await redis.start();
        const probe = new RedisClient(redis.url());
        for (let i = 0; i < 100 && !(await probe.get("siphon:job-sealing-key")); i++) await Bun.sleep(50);
        probe.close();
        const joiner = await openStore(config);
        stores.push(joiner);
        expect(keyOf(await joiner.jobs.get(kept.id))).toBe("sk-kept-0123456789");
      } finally {
        for (const store of stores) await store.close();
        await redis.close();
      }
    },
    60_000,
  );
});

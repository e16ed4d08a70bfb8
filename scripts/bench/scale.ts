/**
 * Hosted-mode scaling benchmark, in one run, against the single-process
 * SQLite mode on the same machine (the core count is printed with the figures):
 *
 * 1. Crawl throughput: the generated 2,000-page site (scripts/bench/crawl-site.ts)
 *    crawled as `--crawls` crawls at once (default 4, each `pages / crawls`
 *    pages from "/", each at most 5 pages in flight as a crawl allows), by
 *    one `siphon serve` on SQLite, then by one API process and 1, 2 and 4
 *    worker processes on one Redis and one PostgreSQL, each worker running
 *    `--worker-concurrency` pages at once (default: every page the crawls
 *    may have in flight, so one worker can hold as many as the one process). Pages per second over
 *    the whole set, from the first POST to the last crawl's end. The cache is
 *    off, so every page is fetched and extracted.
 * 2. Cached `GET /v1/fetch` requests per second (autocannon, `--connections`
 *    for `--seconds`) through 1 and 2 API processes on Redis, and through
 *    the SQLite server; every request metered with a key (burst window and
 *    weekly credits read; a cached page costs no credit).
 * 3. Latency of one metered request (cached fetch) one at a time, p50 and
 *    p99, on Redis against SQLite.
 *
 *   bun scripts/bench/scale.ts [--pages 2000] [--crawls 4] [--worker-concurrency 20]
 *                              [--seconds 5] [--connections 50] [--json]
 *
 * Needs redis-server and PostgreSQL (scripts/setup.sh). The load generator
 * (autocannon, JavaScript) shares the machine's cores with the servers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createAccountWithKey } from "../../src/auth/keys.ts";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/index.ts";
import type { Store } from "../../src/store/types.ts";
import { type Cluster, type ServeProcess, startCluster } from "../../test/hosted/cluster.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { machineCpuSeconds, round1 } from "./stats.ts";
import { startCrawlSite } from "./worker.ts";

const pages = numberFlag("pages", 2000);
const crawls = numberFlag("crawls", 4);
const seconds = numberFlag("seconds", 5);
const connections = numberFlag("connections", 50);
/** Pages each worker runs at once: by default all the crawls' pages in flight (5 each), as one process runs them. */
const workerConcurrency = numberFlag("worker-concurrency", 5 * crawls);
const json = hasFlag("json");
const say = (line: string) => {
  if (!json) console.error(line);
};

/** A plan with no limit that binds, so every request runs the whole metering path. */
const PLANS = JSON.stringify({
  bench: { weeklyQuota: 1_000_000_000, burstPerHour: 1_000_000_000, price: 0, extraPricePerRequest: 0 },
});

async function keyOn(store: Store): Promise<string> {
  const { key } = await createAccountWithKey(store.accounts, {
    name: "bench",
    tier: "bench",
    kind: "live",
    now: Date.now(),
  });
  return key;
}

/** Runs `crawls` crawls at once through `api`; pages per second over all of them. */
async function crawlThroughput(api: ServeProcess, key: string, site: string) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const each = Math.floor(pages / crawls);
  const started = performance.now();
  const cpuBefore = machineCpuSeconds();
  const ids = await Promise.all(
    Array.from({ length: crawls }, async () => {
      const response = await fetch(`${api.url}/v1/crawl`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          url: site,
          limit: each,
          maxDepth: 10,
          maxConcurrency: 5,
          ignoreSitemap: true,
        }),
      });
      if (response.status !== 202)
        throw new Error(`crawl start: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }),
  );
  let done = 0;
  for (const id of ids)
    for (;;) {
      const state = (await (await fetch(`${api.url}/v1/crawl/${id}?limit=1`, { headers })).json()) as {
        status: string;
        completed: number;
      };
      if (["completed", "failed", "cancelled"].includes(state.status)) {
        if (state.status !== "completed") throw new Error(`crawl ${id} ended ${state.status}`);
        done += state.completed;
        break;
      }
      await Bun.sleep(100);
    }
  const secondsTaken = (performance.now() - started) / 1000;
  const cpuSeconds = machineCpuSeconds() - cpuBefore;
  return {
    pages: done,
    seconds: round1(secondsTaken),
    pagesPerSecond: round1(done / secondsTaken),
    // The whole machine's CPU (servers, workers, Redis, PostgreSQL, the site) per page, and how busy its cores were.
    cpuMsPerPage: round1((cpuSeconds * 1000) / Math.max(1, done)),
    coresBusy: round1(cpuSeconds / secondsTaken),
  };
}

function load(urls: string[], key: string, path: string): Promise<{ rps: number; non2xx: number }> {
  return Promise.all(
    urls.map(
      (url) =>
        new Promise<{ rps: number; non2xx: number }>((resolve, reject) =>
          autocannon(
            {
              url: `${url}${path}`,
              headers: { authorization: `Bearer ${key}` },
              connections: Math.max(1, Math.floor(connections / urls.length)),
              duration: seconds,
            },
            (error, result) =>
              error ? reject(error) : resolve({ rps: result.requests.average, non2xx: result.non2xx }),
          ),
        ),
    ),
  ).then((runs) => ({
    rps: Math.round(runs.reduce((sum, r) => sum + r.rps, 0)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  }));
}

async function latency(url: string, key: string, path: string, n = 2000) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`metered request: ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 100) / 100;
  return { p50: at(0.5), p99: at(0.99) };
}

const site = await startCrawlSite(pages);
const cluster: Cluster = await startCluster({
  SIPHON_PLANS: PLANS,
  SIPHON_CACHE: "true",
  SIPHON_EXTRACT_THREADS: "",
  SIPHON_LOG_LEVEL: "warn",
});
const sqliteHome = mkdtempSync(join(tmpdir(), "siphon-scale-sqlite-"));
const results: Record<string, unknown> = { cores: availableParallelism(), pages, crawls };
try {
  const path = `/v1/fetch?url=${encodeURIComponent(`${site.url}`)}&format=markdown`;
  // The single-process SQLite server: a key in its file, written before it starts.
  const sqliteEnv = { DATABASE_URL: "", REDIS_URL: "", SIPHON_HOME: sqliteHome };
  const sqliteStore = await openStore(loadConfig({ ...cluster.env, ...sqliteEnv }));
  const sqliteKey = await keyOn(sqliteStore);
  await sqliteStore.close();

  // 1. Crawl throughput, the cache off so every page is fetched.
  const noCache = { SIPHON_CACHE: "false" };
  const crawl: Record<string, unknown> = {};
  say(
    `crawl: ${crawls} crawls of ${Math.floor(pages / crawls)} pages at once, workers at --concurrency ${workerConcurrency}, ${availableParallelism()} cores`,
  );
  {
    const single = await cluster.serve("all", { ...sqliteEnv, ...noCache });
    crawl.sqlite = await crawlThroughput(single, sqliteKey, site.url);
    await single.stop();
    say(`  SQLite, one process      ${JSON.stringify(crawl.sqlite)}`);
  }
  for (const count of [1, 2, 4]) {
    await cluster.pg.empty("hosted").catch(() => {});
    const key = await keyOn(cluster.store);
    const api = await cluster.serve("api", noCache);
    const workers = await Promise.all(
      Array.from({ length: count }, () =>
        cluster.serve("worker", noCache, ["--concurrency", String(workerConcurrency)]),
      ),
    );
    crawl[`redis_${count}w`] = await crawlThroughput(api, key, site.url);
    say(`  Redis, ${count} worker(s)       ${JSON.stringify(crawl[`redis_${count}w`])}`);
    await Promise.all([api, ...workers].map((p) => p.stop()));
  }
  results.crawl = crawl;

  // 2 and 3. Cached, metered GET /v1/fetch (the crawls emptied the database between runs).
  const redisKey = await keyOn(cluster.store);
  const fetchRps: Record<string, unknown> = {};
  const metered: Record<string, unknown> = {};
  {
    const single = await cluster.serve("all", sqliteEnv);
    await latency(single.url, sqliteKey, path, 50);
    fetchRps.sqlite = await load([single.url], sqliteKey, path);
    metered.sqlite = await latency(single.url, sqliteKey, path);
    await single.stop();
  }
  {
    const [a, b] = await Promise.all([cluster.serve("api"), cluster.serve("api")]);
    if (!a || !b) throw new Error("API processes did not start");
    await latency(a.url, redisKey, path, 50);
    await latency(b.url, redisKey, path, 50);
    fetchRps.redis_1api = await load([a.url], redisKey, path);
    fetchRps.redis_2api = await load([a.url, b.url], redisKey, path);
    metered.redis = await latency(a.url, redisKey, path);
    await Promise.all([a.stop(), b.stop()]);
  }
  results.cachedFetchRps = fetchRps;
  results.meteredLatencyMs = metered;
  say(`cached GET /v1/fetch, req/s (${connections} connections, ${seconds} s): ${JSON.stringify(fetchRps)}`);
  say(`metered request latency, ms, one at a time: ${JSON.stringify(metered)}`);
  if (json) console.log(JSON.stringify(results));
} finally {
  await cluster.close();
  site.stop();
  rmSync(sqliteHome, { recursive: true, force: true });
}

/**
 * Hosted-mode scaling benchmark, in one run, against the single-process
 * SQLite mode on the same machine (the core count is printed with the figures):
 *
 * 1. CPU per page: the generated 2,000-page site (scripts/bench/crawl-site.ts)
 *    crawled as `--crawls` crawls at once (default 4, each `pages / crawls`
 *    pages from "/", each at most 5 pages in flight as a crawl allows), by
 *    one `siphon serve` on SQLite, then by one API process and 1, 2 and 4
 *    worker processes on one Redis and one PostgreSQL, each worker running
 *    `--worker-concurrency` pages at once (default: every page the crawls
 *    may have in flight, so one worker can hold as many as the one process).
 *    The cache is off, so every page is fetched and extracted. Pages per
 *    second from the first POST to the last crawl's end, and the CPU each
 *    process spent per page, read from /proc for the processes this run
 *    started (siphon's, the site, Redis, PostgreSQL and this driver: all
 *    processes), so a program running beside it is not counted. Twice: the
 *    first crawl on fresh processes ("cold": they compile their code as they
 *    go, once per process and thread), and one once every worker has taken
 *    `--warm-pages` pages (default 2,000; "warm": what a long-running
 *    deployment spends a page). Then `--warm-rounds` (default 3) more warm
 *    crawls of each hosted setup, each taking turns with one of the single
 *    process (which stays up through the part): the VM's speed moves in
 *    phases of minutes, so the ratio hosted / single process is the median of
 *    the rounds' ratios, each from crawls a few seconds apart.
 * 2. Scale-out when pages wait: the same site with every page answering
 *    `--latency-ms` late (default 50), `--latency-pages` pages (default 1,000)
 *    crawled by 1 and then 2 warmed workers at `--latency-concurrency` pages
 *    each (default 4, so the crawls, 20 pages in flight, always have more to
 *    give than the workers take): pages per second, and 2 workers / 1.
 * 3. Cached `GET /v1/fetch` requests per second (autocannon, `--connections`
 *    for `--seconds`) through 1 and 2 API processes on Redis, and through
 *    the SQLite server; every request metered with a key (burst window and
 *    weekly credits read; a cached page costs no credit); and the latency
 *    of one such request at a time, p50 and p99, on Redis against SQLite.
 *
 * Last, the pages per second a deployment should plan for per core: 1,000 over
 * the highest warm CPU ms per page of siphon, Redis and PostgreSQL together
 * (the site and this driver left out: a deployment does not run them).
 *
 *   bun scripts/bench/scale.ts [--pages 2000] [--crawls 4] [--worker-concurrency 20]
 *                              [--workers 1,2,4] [--warm-pages 2000] [--warm-rounds 3] [--latency-ms 50]
 *                              [--latency-pages 1000] [--latency-concurrency 4]
 *                              [--seconds 5] [--connections 50] [--only cpu|wait|fetch] [--json]
 *
 * Looking closer: `--trips` counts the Redis commands clients send (MONITOR) and
 * the PostgreSQL statements (pg_stat_statements, PostgreSQL restarted with it)
 * per page; `--detail` adds each run's CPU by worker thread, by PostgreSQL
 * process and its context switches; `--profile DIR` writes the siphon
 * processes' CPU profiles; `--env NAME=VALUE` (repeatable) sets a variable of
 * every process started. Monitoring costs CPU: take CPU figures without `--trips`.
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
import { redisOf } from "../../src/store/redis-store.ts";
import type { Store } from "../../src/store/types.ts";
import { type Cluster, startCluster } from "../../test/hosted/cluster.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { crawlRun, type Site } from "./scale-crawl.ts";
import { pgProbe, redisMonitor, redisPid } from "./scale-probe.ts";
import { median, round1 } from "./stats.ts";
import { startCrawlSite } from "./worker.ts";

const argAfter = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const pages = numberFlag("pages", 2000);
const crawls = numberFlag("crawls", 4);
const seconds = numberFlag("seconds", 5);
const connections = numberFlag("connections", 50);
/** Pages each worker runs at once: by default all the crawls' pages in flight (5 each), as one process runs them. */
const workerConcurrency = numberFlag("worker-concurrency", 5 * crawls);
const workerCounts = (argAfter("workers") ?? "1,2,4").split(",").map(Number);
const latencyMs = numberFlag("latency-ms", 50);
const latencyPages = numberFlag("latency-pages", 1000);
const latencyConcurrency = numberFlag("latency-concurrency", 4);
const warmPages = numberFlag("warm-pages", pages);
/** Warm crawls of each hosted setup taken in turn with the single process's, for their ratio. */
const warmRounds = numberFlag("warm-rounds", 3);
const only = argAfter("only");
const trips = hasFlag("trips");
const json = hasFlag("json");
const say = (line: string) => {
  if (!json) console.error(line);
};
const part = (name: string) => !only || only === name;

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

const cluster: Cluster = await startCluster({
  SIPHON_PLANS: PLANS,
  SIPHON_CACHE: "true",
  SIPHON_EXTRACT_THREADS: "",
  SIPHON_LOG_LEVEL: "warn",
  ...Object.fromEntries(
    process.argv.flatMap((a, i) => (a === "--env" ? [(process.argv[i + 1] ?? "").split(/=(.*)/s)] : [])),
  ),
});
const pg = pgProbe(cluster.pg.url("postgres"));
const monitor = trips
  ? await redisMonitor((redisOf(cluster.store) as NonNullable<ReturnType<typeof redisOf>>).client)
  : undefined;
const sqliteHome = mkdtempSync(join(tmpdir(), "siphon-scale-sqlite-"));
const results: Record<string, unknown> = { cores: availableParallelism(), pages, crawls };
const sites: { stop(): void }[] = [];
try {
  if (trips) {
    await pg.enableStatements(async () => {
      await cluster.pg.stop();
      await cluster.pg.start();
    });
    // The cluster's own store reconnects on its next call once the server is back.
    for (let i = 0; ; i++)
      try {
        await cluster.store.jobs.get("none");
        break;
      } catch (error) {
        if (i > 50) throw error;
        await Bun.sleep(100);
      }
  }
  const services = {
    driver: process.pid,
    redis: await redisPid((redisOf(cluster.store) as NonNullable<ReturnType<typeof redisOf>>).client),
    postgres: await pg.postmasterPid(),
  };
  // The single-process SQLite server: a key in its file, written before it starts.
  const sqliteEnv = { DATABASE_URL: "", REDIS_URL: "", SIPHON_HOME: sqliteHome };
  const sqliteStore = await openStore(loadConfig({ ...cluster.env, ...sqliteEnv }));
  const sqliteKey = await keyOn(sqliteStore);
  await sqliteStore.close();
  const noCache = { SIPHON_CACHE: "false" };
  const site = await startCrawlSite(pages);
  sites.push(site);

  /**
   * One API and `count` workers on Redis and PostgreSQL (emptied first), each running
   * `concurrency` pages at once: `crawl` runs crawls through them and answers what they measured.
   */
  const hosted = async <T>(
    count: number,
    concurrency: number,
    use: (crawl: (site: Site, total: number) => Promise<Record<string, unknown>>) => Promise<T>,
  ): Promise<T> => {
    await cluster.pg.empty("hosted").catch(() => {});
    const key = await keyOn(cluster.store);
    const profile = argAfter("profile");
    const env = profile
      ? { ...noCache, BUN_OPTIONS: `--cpu-prof --cpu-prof-md --cpu-prof-dir=${profile}/${count}w` }
      : noCache;
    const api = await cluster.serve("api", env);
    const workers = await Promise.all(
      Array.from({ length: count }, () =>
        cluster.serve("worker", env, ["--concurrency", String(concurrency)]),
      ),
    );
    try {
      return await use((site, total) => {
        const roots: Record<string, number> = { ...services, site: site.pid, api: api.proc.pid };
        workers.forEach((w, i) => {
          roots[`worker${i}`] = w.proc.pid;
        });
        return crawlRun(api, key, site.url, total, {
          roots,
          crawls,
          redis: cluster.store,
          pg: trips ? pg : undefined,
          monitor,
        });
      });
    } finally {
      await Promise.all([api, ...workers].map((p) => p.stop()));
    }
  };
  /**
   * The first crawl on fresh processes (cold), more until each of `count` workers has taken
   * about `warmPages` pages, and one more (warm).
   */
  const coldThenWarm = async (count: number, crawl: () => Promise<Record<string, unknown>>) => {
    const cold = await crawl();
    for (let taken = pages; taken < count * warmPages; taken += pages) await crawl();
    return { cold, warm: await crawl() };
  };
  const brief = (r: Record<string, unknown>) =>
    `${r.pagesPerSecond} pages/s, ${r.cpuMsPerPage} ms CPU a page ${JSON.stringify(r.cpuMsPerPageBy)}${hasFlag("detail") ? ` threads ${JSON.stringify(r.workerThreadsMsPerPage)} switches ${JSON.stringify(r.switchesPerPage)} postgres ${JSON.stringify(r.postgresMsPerPage)}` : ""}`;

  if (part("cpu")) {
    const crawl: Record<string, { cold: Record<string, unknown>; warm: Record<string, unknown> }> = {};
    say(
      `cpu: ${crawls} crawls of ${Math.floor(pages / crawls)} pages at once, workers at --concurrency ${workerConcurrency}, ${availableParallelism()} cores; the first crawl on fresh processes (cold), one once each worker took ${warmPages} pages (warm)`,
    );
    // The single process stays up through the part: its warm crawls take turns with each hosted
    // setup's, so that a slow or fast phase of the machine (they last minutes) hits both alike.
    const single = await cluster.serve("all", { ...sqliteEnv, ...noCache });
    /** Warm hosted / single-process CPU a page, the median of each setup's rounds taken in turn. */
    const paired: Record<string, number> = {};
    try {
      const singleCrawl = () =>
        crawlRun(single, sqliteKey, site.url, pages, {
          roots: { ...services, site: site.pid, siphon: single.proc.pid },
          crawls,
        });
      crawl.sqlite = await coldThenWarm(1, singleCrawl);
      say(`  SQLite, one process   cold: ${brief(crawl.sqlite.cold)}`);
      say(`                        warm: ${brief(crawl.sqlite.warm)}`);
      for (const count of workerCounts) {
        const name = `redis_${count}w`;
        const rounds: { hosted: number; single: number }[] = [];
        crawl[name] = await hosted(count, workerConcurrency, async (run) => {
          const measured = await coldThenWarm(count, () => run(site, pages));
          for (let r = 0; r < warmRounds; r++) {
            const turn = { hosted: 0, single: 0 };
            for (const side of r % 2 ? (["single", "hosted"] as const) : (["hosted", "single"] as const))
              turn[side] = Number(
                (side === "single" ? await singleCrawl() : await run(site, pages)).cpuMsPerPage,
              );
            rounds.push(turn);
          }
          return measured;
        });
        say(`  Redis, ${count} worker(s)    cold: ${brief(crawl[name].cold)}`);
        say(`                        warm: ${brief(crawl[name].warm)}`);
        if (rounds.length) {
          const each = rounds.map((t) => t.hosted / t.single);
          paired[name] = median(each);
          say(
            `                        warm, ${rounds.length} rounds in turn with the single process: hosted ${rounds.map((t) => t.hosted).join("/")} ms, single ${rounds.map((t) => t.single).join("/")} ms a page: ${round1(paired[name])}x (rounds ${round1(Math.min(...each))}-${round1(Math.max(...each))}x)`,
          );
        }
        if (trips) say(`    ${JSON.stringify(crawl[name].warm)}`);
      }
    } finally {
      await single.stop();
    }
    results.pairedWarmRatio = paired;
    const ms = (name: string, when: "cold" | "warm", field = "cpuMsPerPage") =>
      Number(crawl[name]?.[when][field]);
    const ratioOf = (count: number, when: "cold" | "warm") =>
      when === "warm" && paired[`redis_${count}w`] !== undefined
        ? (paired[`redis_${count}w`] as number)
        : ms(`redis_${count}w`, when) / ms("sqlite", when);
    const ratios = (when: "cold" | "warm") =>
      workerCounts.map((c) => `${c}w ${round1(ratioOf(c, when))}x`).join(", ");
    const last = `redis_${workerCounts.at(-1)}w`;
    const first = `redis_${workerCounts[0]}w`;
    const worstDeployed = Math.max(
      ...workerCounts.map((c) => ms(`redis_${c}w`, "warm", "deployedCpuMsPerPage")),
    );
    results.crawl = crawl;
    results.planPagesPerSecondPerCore = Math.floor(1000 / worstDeployed);
    say(`  CPU a page, hosted / SQLite, warm: ${ratios("warm")}; cold: ${ratios("cold")}`);
    say(
      `  CPU a page, ${workerCounts.at(-1)} workers / ${workerCounts[0]}: warm ${round1(ratioOf(workerCounts.at(-1) as number, "warm") / ratioOf(workerCounts[0] as number, "warm"))}x (of their ratios to the single process), cold ${round1(ms(last, "cold") / ms(first, "cold"))}x`,
    );
    say(
      `  plan for ${results.planPagesPerSecondPerCore} pages/s per core (siphon, Redis and PostgreSQL together: ${worstDeployed} ms of CPU a page at worst, warm, the site and this driver left out)`,
    );
  }

  if (part("wait")) {
    const slow = await startCrawlSite(latencyPages, latencyMs);
    sites.push(slow);
    say(
      `wait: pages answer ${latencyMs} ms late; ${crawls} crawls of ${Math.floor(latencyPages / crawls)} pages, each worker at --concurrency ${latencyConcurrency}, warmed by ${warmPages} pages each of the fast site first`,
    );
    const wait: Record<string, Record<string, unknown>> = {};
    for (const count of [1, 2]) {
      wait[`redis_${count}w`] = await hosted(count, latencyConcurrency, async (run) => {
        for (let taken = 0; taken < count * warmPages; taken += pages) await run(site, pages);
        return run(slow, latencyPages);
      });
      say(
        `  Redis, ${count} worker(s)    ${brief(wait[`redis_${count}w`] as Record<string, unknown>)} (${Math.round((count * latencyConcurrency * 1000) / latencyMs)} pages/s if only waiting)`,
      );
    }
    const ratio = Number(wait.redis_2w?.pagesPerSecond) / Number(wait.redis_1w?.pagesPerSecond);
    results.wait = { ...wait, twoOverOne: Math.round(ratio * 100) / 100 };
    say(`  pages/s, 2 workers / 1 worker: ${Math.round(ratio * 100) / 100}x`);
  }

  if (part("fetch")) {
    const path = `/v1/fetch?url=${encodeURIComponent(`${site.url}`)}&format=markdown`;
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
    say(
      `cached GET /v1/fetch, req/s (${connections} connections, ${seconds} s): ${JSON.stringify(fetchRps)}`,
    );
    say(`metered request latency, ms, one at a time: ${JSON.stringify(metered)}`);
  }
  if (json) console.log(JSON.stringify(results));
} finally {
  await pg.close().catch(() => {});
  monitor?.close();
  await cluster.close();
  for (const site of sites) site.stop();
  rmSync(sqliteHome, { recursive: true, force: true });
}

/**
 * One side of the crawl benchmark (scripts/bench/crawl.ts), in its own
 * process so each crawler's peak RSS is its own: crawls the generated site
 * (scripts/bench/crawl-site.ts) from `startUrl` up to `limit` pages and prints
 * one JSON line `{crawler, concurrency, pages, failed, seconds, pagesPerSecond,
 * peakRssMiB, rssAfterWarmupMiB, rssEndMiB}` on stdout.
 *
 * - `siphon`: the real job engine in process, as `siphon crawl` runs it
 *   locally: a fresh SQLite store in a temporary home, the crawl validated
 *   through CrawlBody and submitted with submitCrawl, run by startJobRunner,
 *   polled every 10 ms until it ends (one row read; at 100 ms the poll alone
 *   added 50 ms on average to a 4 s crawl). Every page gets the full pipeline
 *   (clean, main content, markdown, metadata, links, quality) and is written
 *   to SQLite. robots.txt is read; `concurrency` is the crawl's
 *   maxConcurrency (1-5, as CrawlBody allows). Above 5 (a multiple of 5), it runs
 *   concurrency / 5 crawls at once, each of limit / crawls pages at 5 pages at once: the
 *   same pages in flight, as several users' crawls would be.
 * - `crawlee`: Crawlee's CheerioCrawler at min = max concurrency, in-memory
 *   storage (nothing persisted); the handler reads the title and body text,
 *   pushes them to the default dataset and enqueues same-hostname links.
 *   Crawlee does not read robots.txt by default. `maxRequestsPerCrawl` is set
 *   only with `--max-requests`: once that budget binds, Crawlee 3.18's
 *   enqueueLinks adds links in batches with a 1 s sleep between them, which
 *   made it about 10x slower here. The generated site has exactly `limit`
 *   pages, so without it the crawl still ends at `limit`.
 *
 * Time runs from submitting the crawl to its end. RSS is sampled every
 * 100 ms; "after warm-up" is the first sample once a tenth of `limit` pages
 * are done.
 *
 *   bun scripts/bench/crawl-worker.ts <siphon|crawlee> <startUrl> <limit> <concurrency> [--max-requests]
 *
 * Crawlee runs under Bun here: it works, and is faster than under Node 20
 * on this site (229-249 against 157-161 pages/s at 5 in flight, 2026-11-30),
 * so the ratio is taken against its faster runtime.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { round1 } from "./stats.ts";

const [crawler, startUrl, limitArg, concurrencyArg] = process.argv.slice(2);
const maxRequests = process.argv.includes("--max-requests");
/** siphon only: every page also split into chunks (the chunks format), for scripts/bench/chunks.ts. */
const withChunks = process.argv.includes("--chunks");
const limit = Number(limitArg);
const concurrency = Number(concurrencyArg);
if (
  (crawler !== "siphon" && crawler !== "crawlee") ||
  !startUrl ||
  !Number.isInteger(limit) ||
  !Number.isInteger(concurrency)
) {
  console.error(
    "usage: bun scripts/bench/crawl-worker.ts <siphon|crawlee> <startUrl> <limit> <concurrency> [--max-requests]",
  );
  process.exit(2);
}

const MIB = 1024 * 1024;
/** The most pages one siphon crawl fetches at once (CrawlBody's maxConcurrency). */
const MAX_CRAWL_CONCURRENCY = 5;
if (crawler === "siphon" && concurrency > MAX_CRAWL_CONCURRENCY && concurrency % MAX_CRAWL_CONCURRENCY) {
  console.error(
    `siphon's concurrency above ${MAX_CRAWL_CONCURRENCY} must be a multiple of it (crawls at once)`,
  );
  process.exit(2);
}

/** Samples RSS every 100 ms; `warm` is the first sample taken once `done()` reached a tenth of the limit. */
function rssSampler(done: () => number) {
  let peak = process.memoryUsage().rss;
  let warm: number | undefined;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
    if (warm === undefined && done() >= limit / 10) warm = rss;
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const end = process.memoryUsage().rss;
      return { peakRssMiB: peak / MIB, rssAfterWarmupMiB: (warm ?? end) / MIB, rssEndMiB: end / MIB };
    },
  };
}

interface Outcome {
  pages: number;
  failed: number;
  seconds: number;
  rss: { peakRssMiB: number; rssAfterWarmupMiB: number; rssEndMiB: number };
}

async function runSiphon(home: string): Promise<Outcome> {
  const [{ loadConfig }, { openStore }, { createEngines }, { submitCrawl }, { startJobRunner }, schemas] =
    await Promise.all([
      import("../../src/config.ts"),
      import("../../src/store/index.ts"),
      import("../../src/pipeline/engines.ts"),
      import("../../src/jobs/submit.ts"),
      import("../../src/jobs/index.ts"),
      Promise.all([
        import("../../src/schemas/jobs.ts"),
        import("../../src/schemas/validate.ts"),
        import("../../src/auth/principal.ts"),
      ]),
    ]);
  const [{ CrawlBody }, { validate }, { ensureLocalAccount, LOCAL_ACCOUNT_ID }] = schemas;
  const config = loadConfig({}, { home, disableSsrfProtection: true, cacheEnabled: false });
  const store = await openStore(config);
  const engines = createEngines(config);
  await ensureLocalAccount(store, "max", Date.now());
  const runner = startJobRunner(config, store, engines, { log: (m) => console.error(m) });
  // One crawl runs at most MAX_CRAWL_CONCURRENCY pages at once; more pages in flight are more crawls
  // at once, sharing the limit, each from "/" (so the site serves their common pages once each).
  const crawls = Math.ceil(concurrency / MAX_CRAWL_CONCURRENCY);
  let completed = 0;
  const rss = rssSampler(() => completed);
  const started = performance.now();
  const jobs = [];
  for (let c = 0; c < crawls; c++) {
    const input = validate(CrawlBody, {
      url: startUrl,
      limit: Math.ceil(limit / crawls),
      maxDepth: 20,
      maxConcurrency: concurrency / crawls,
      ...(withChunks ? { scrapeOptions: { formats: ["markdown", "chunks"] } } : {}),
    });
    const job = await submitCrawl(input, { accountId: LOCAL_ACCOUNT_ID }, { store, config, now: Date.now() });
    runner.submit(job.id);
    jobs.push(job);
  }
  let current = jobs;
  while (current.some((job) => job.status === "queued" || job.status === "processing")) {
    await Bun.sleep(10);
    current = await Promise.all(current.map(async (job) => (await store.jobs.get(job.id)) ?? job));
    completed = current.reduce((sum, job) => sum + job.completed, 0);
  }
  const seconds = (performance.now() - started) / 1000;
  const memory = rss.stop();
  for (const job of current)
    if (job.status !== "completed") console.error(`siphon job ended ${job.status}: ${job.error}`);
  await runner.close();
  await engines.close();
  await store.close();
  const failed = current.reduce((sum, job) => sum + job.failed, 0);
  return { pages: completed, failed, seconds, rss: memory };
}

async function runCrawlee(home: string): Promise<Outcome> {
  process.env.CRAWLEE_STORAGE_DIR = join(home, "crawlee");
  const { CheerioCrawler, Configuration, log } = await import("crawlee");
  log.setLevel(log.LEVELS.WARNING);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  let handled = 0;
  const crawlee = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestsPerCrawl: maxRequests ? limit : undefined,
      async requestHandler({ request, $, enqueueLinks, pushData }) {
        const title = $("title").text().trim();
        const text = $("body").text().replace(/\s+/g, " ").trim();
        await pushData({ url: request.loadedUrl ?? request.url, title, text });
        await enqueueLinks({ strategy: "same-hostname" });
        handled++;
      },
    },
    config,
  );
  const rss = rssSampler(() => handled);
  const started = performance.now();
  const stats = await crawlee.run([startUrl as string]);
  const seconds = (performance.now() - started) / 1000;
  const memory = rss.stop();
  await crawlee.teardown();
  return { pages: stats.requestsFinished, failed: stats.requestsFailed, seconds, rss: memory };
}

const home = mkdtempSync(join(tmpdir(), `siphon-crawl-bench-${crawler}-`));
try {
  const outcome = crawler === "siphon" ? await runSiphon(home) : await runCrawlee(home);
  const line = {
    crawler,
    concurrency,
    pages: outcome.pages,
    failed: outcome.failed,
    seconds: Math.round(outcome.seconds * 1000) / 1000,
    pagesPerSecond: round1(outcome.pages / outcome.seconds),
    peakRssMiB: round1(outcome.rss.peakRssMiB),
    rssAfterWarmupMiB: round1(outcome.rss.rssAfterWarmupMiB),
    rssEndMiB: round1(outcome.rss.rssEndMiB),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
process.exit(0);

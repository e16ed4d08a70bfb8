/**
 * Crawl benchmark: pages per second and memory of siphon's crawl job against
 * Crawlee's CheerioCrawler on the same generated local site, in one run.
 *
 * Starts scripts/bench/crawl-site.ts (exactly `--pages` linked HTML pages on
 * 127.0.0.1) as a child process, then runs scripts/bench/crawl-worker.ts once
 * per crawler per round, each in its own process so its RSS is its own, and
 * alternates which goes first so machine noise hits both. Both crawl from
 * "/" by links at the same concurrency (5, the most a siphon crawl allows). The site counts the page requests it served, so a crawler that
 * fetched a page twice or missed some is reported under the table. Every
 * page is fetched once before the first round, so the site is warm for both.
 *
 * With several rounds every figure is the median over the rounds. The ratio
 * is pages/s over Crawlee's pages/s; "RSS after warm-up → end" is RSS once a
 * tenth of the pages were done and after the last one (flat means the crawl
 * does not grow with pages crawled).
 *
 *   bun scripts/bench/crawl.ts [--pages 2000] [--rounds 1] [--json]
 */
import { pagePath } from "./crawl-site.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { median, round1 } from "./stats.ts";
import { runJsonWorker, startCrawlSite } from "./worker.ts";

const pages = numberFlag("pages", 2000);
const rounds = numberFlag("rounds", 1);
const json = hasFlag("json");
/** siphon's job runner fetches this many pages at once (src/jobs/runner.ts); Crawlee gets the same. */
const CONCURRENCY = 5;
const CRAWLERS = ["siphon", "crawlee"] as const;
type Crawler = (typeof CRAWLERS)[number];
const here = new URL(".", import.meta.url).pathname;

interface Run {
  crawler: Crawler;
  concurrency: number;
  pages: number;
  failed: number;
  seconds: number;
  pagesPerSecond: number;
  peakRssMiB: number;
  rssAfterWarmupMiB: number;
  rssEndMiB: number;
  /** What the site saw: page requests, distinct pages, repeated fetches. */
  served: { requests: number; pages: number; duplicates: number };
}

async function runWorker(crawler: Crawler, url: string): Promise<Run> {
  await fetch(new URL("/__bench/reset", url), { method: "POST" });
  const run = await runJsonWorker<Omit<Run, "served">>(crawler, [
    "bun",
    `${here}crawl-worker.ts`,
    crawler,
    url,
    String(pages),
    String(CONCURRENCY),
  ]);
  const served = (await (await fetch(new URL("/__bench/stats", url))).json()) as Run["served"];
  return { ...run, served };
}

function summarise(runs: Run[]) {
  const of = (crawler: Crawler) => runs.filter((r) => r.crawler === crawler);
  const crawleePps = median(of("crawlee").map((r) => r.pagesPerSecond));
  return CRAWLERS.map((crawler) => {
    const mine = of(crawler);
    const pick = (key: "pages" | "pagesPerSecond" | "peakRssMiB" | "rssAfterWarmupMiB" | "rssEndMiB") =>
      round1(median(mine.map((r) => r[key])));
    const pagesPerSecond = pick("pagesPerSecond");
    return {
      crawler,
      concurrency: CONCURRENCY,
      pages: pick("pages"),
      pagesPerSecond,
      ratio: Math.round((pagesPerSecond / crawleePps) * 100) / 100,
      peakRssMiB: pick("peakRssMiB"),
      rssAfterWarmupMiB: pick("rssAfterWarmupMiB"),
      rssEndMiB: pick("rssEndMiB"),
    };
  });
}

/** Fetches every page once, so neither crawler meets a cold site server first. */
async function warmUp(url: string) {
  const paths = Array.from({ length: pages }, (_, i) => pagePath(i));
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let path = paths.pop(); path !== undefined; path = paths.pop())
        await (await fetch(new URL(path, url))).arrayBuffer();
    }),
  );
}

const site = await startCrawlSite(pages);
const runs: Run[] = [];
try {
  await warmUp(site.url);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? CRAWLERS : ([...CRAWLERS].reverse() as Crawler[]);
    for (const crawler of order) {
      if (!json) console.error(`round ${r + 1}/${rounds}: ${crawler} crawling ${pages} pages…`);
      runs.push(await runWorker(crawler, site.url));
    }
  }
} finally {
  site.stop();
}

const summary = summarise(runs);
const odd = runs.filter((r) => r.served.duplicates > 0 || r.served.pages !== pages || r.failed > 0);
if (json) {
  console.log(JSON.stringify({ pages, rounds, concurrency: CONCURRENCY, summary, runs }, null, 2));
} else {
  const rows = summary.map(
    (s) =>
      `| ${s.crawler} | ${s.concurrency} | ${s.pages} | ${s.pagesPerSecond} | ${s.ratio.toFixed(2)}x | ${s.peakRssMiB} | ${s.rssAfterWarmupMiB} → ${s.rssEndMiB} |`,
  );
  console.log(
    [
      `Crawl of a generated ${pages}-page local site, ${rounds} round(s)${rounds > 1 ? ", medians" : ""}:`,
      "",
      "| crawler | concurrency | pages | pages/s | ratio vs Crawlee | peak RSS MiB | RSS after warm-up → end MiB |",
      "|---|---|---|---|---|---|---|",
      ...rows,
    ].join("\n"),
  );
  for (const r of odd)
    console.log(
      `note: ${r.crawler} crawled ${r.pages} (${r.failed} failed); the site served ${r.served.requests} page requests for ${r.served.pages} distinct pages`,
    );
}

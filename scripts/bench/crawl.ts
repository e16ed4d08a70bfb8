/**
 * Crawl benchmark: pages per second and memory of siphon's crawl job against
 * Crawlee's CheerioCrawler on the same generated local site, in one run.
 *
 * Starts scripts/bench/crawl-site.ts (exactly `--pages` linked HTML pages on
 * 127.0.0.1) as a child process, then runs scripts/bench/crawl-worker.ts once
 * per crawler per round, each in its own process so its RSS is its own, and
 * alternates which goes first so machine noise hits both. Both crawl from
 * "/" by links with the same pages in flight, at each level of `--concurrency`
 * (default 5, the most one siphon crawl allows; above it siphon runs
 * concurrency / 5 crawls at once, each of pages / crawls pages, and Crawlee one
 * crawler at that concurrency). The site counts the page requests it served, so a crawler that
 * fetched a page twice or missed some is reported under the table. Every
 * page is fetched once before the first round, so the site is warm for both.
 *
 * With several rounds every figure is the median over the rounds. The ratio
 * is pages/s over Crawlee's pages/s; "RSS after warm-up → end" is RSS once a
 * tenth of the pages were done and after the last one (flat means the crawl
 * does not grow with pages crawled).
 *
 *   bun scripts/bench/crawl.ts [--pages 2000] [--rounds 1] [--concurrency 1,5,10,20] [--json]
 */
import { pagePath } from "./crawl-site.ts";
import { hasFlag, numberFlag, numbersFlag } from "./flags.ts";
import { median, round1 } from "./stats.ts";
import { runJsonWorker, startCrawlSite } from "./worker.ts";

const pages = numberFlag("pages", 2000);
const rounds = numberFlag("rounds", 1);
const json = hasFlag("json");
/** Pages in flight, one level at a time; both crawlers get the same. */
const levels = numbersFlag("concurrency", [5]);
/** The most pages one siphon crawl fetches at once (CrawlBody's maxConcurrency). */
const MAX_CRAWL_CONCURRENCY = 5;
/** How many siphon crawls run at once for `concurrency` pages in flight. */
const crawlsFor = (concurrency: number) => Math.ceil(concurrency / MAX_CRAWL_CONCURRENCY);
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

async function runWorker(crawler: Crawler, url: string, concurrency: number): Promise<Run> {
  await fetch(new URL("/__bench/reset", url), { method: "POST" });
  const run = await runJsonWorker<Omit<Run, "served">>(crawler, [
    "bun",
    `${here}crawl-worker.ts`,
    crawler,
    url,
    String(pages),
    String(concurrency),
  ]);
  const served = (await (await fetch(new URL("/__bench/stats", url))).json()) as Run["served"];
  return { ...run, served };
}

function summarise(runs: Run[], concurrency: number) {
  const of = (crawler: Crawler) => runs.filter((r) => r.crawler === crawler && r.concurrency === concurrency);
  const crawleePps = median(of("crawlee").map((r) => r.pagesPerSecond));
  return CRAWLERS.map((crawler) => {
    const mine = of(crawler);
    const pick = (key: "pages" | "pagesPerSecond" | "peakRssMiB" | "rssAfterWarmupMiB" | "rssEndMiB") =>
      round1(median(mine.map((r) => r[key])));
    const pagesPerSecond = pick("pagesPerSecond");
    return {
      crawler,
      concurrency,
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
    Array.from({ length: 5 }, async () => {
      for (let path = paths.pop(); path !== undefined; path = paths.pop())
        await (await fetch(new URL(path, url))).arrayBuffer();
    }),
  );
}

const site = await startCrawlSite(pages);
const runs: Run[] = [];
try {
  await warmUp(site.url);
  for (const concurrency of levels) {
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? CRAWLERS : ([...CRAWLERS].reverse() as Crawler[]);
      for (const crawler of order) {
        if (!json)
          console.error(
            `round ${r + 1}/${rounds}: ${crawler} crawling ${pages} pages, ${concurrency} at once…`,
          );
        runs.push(await runWorker(crawler, site.url, concurrency));
      }
    }
  }
} finally {
  site.stop();
}

const summary = levels.flatMap((concurrency) => summarise(runs, concurrency));
/** Pages the site should serve once each: siphon's crawls at once share their first pages. */
const distinct = (r: Run) => (r.crawler === "siphon" ? Math.ceil(pages / crawlsFor(r.concurrency)) : pages);
const odd = runs.filter(
  (r) => r.served.requests !== pages || r.served.pages !== distinct(r) || r.pages !== pages || r.failed > 0,
);
if (json) {
  console.log(JSON.stringify({ pages, rounds, levels, summary, runs }, null, 2));
} else {
  const rows = summary.map(
    (s) =>
      `| ${s.crawler} | ${s.concurrency}${s.crawler === "siphon" && crawlsFor(s.concurrency) > 1 ? ` (${crawlsFor(s.concurrency)} crawls)` : ""} | ${s.pages} | ${s.pagesPerSecond} | ${s.ratio.toFixed(2)}x | ${s.peakRssMiB} | ${s.rssAfterWarmupMiB} → ${s.rssEndMiB} |`,
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

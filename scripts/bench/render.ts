/**
 * Render benchmark, in one run:
 *  1. warm renders of the fixture site's JavaScript page (/spa, drawn by a 50 ms timer) through
 *     the browser engine and its shared pool, at concurrency 1 (back to back, and one at a time
 *     500 ms apart, as occasional requests meet it) and 4, against a naive baseline
 *     that launches a browser per request. Warm-up runs at both concurrencies, so the pool has
 *     opened its pages (up to browserConcurrency, each reused for many requests) before
 *     anything is measured. Memory is the summed VmRSS of this process and every process under
 *     it (Chromium and its helpers), sampled during the /spa renders by a process of its own
 *     (scripts/bench/rss-sampler.ts), so the timed event loop never waits on /proc. Then /spa again at
 *     concurrency 1 as one job's pages (the session a crawl or batch passes: no wipe between);
 *  2. warm renders at concurrency 1 of /app/api?delay=300 (a spinner until a fetch() to a JSON
 *     API that answers after 300 ms draws the article), on the same pool, and their p50 less
 *     the API's own 300 ms: what the render itself costs;
 *  3. siphon (as independent requests, and as one job's browsing session, as a crawl or batch
 *     renders its pages) against Crawlee's PuppeteerCrawler on the same distinct SPA URLs
 *     (/app/item/1..N?delay=D, each drawn after its own API call), each tool in its own process
 *     (scripts/bench/render-worker.ts, which describes both configurations), one after the
 *     other, alternating which goes first each round, at the same concurrency (4, siphon's
 *     default browserConcurrency), after a warm-up on the same browser. Only pages whose
 *     returned HTML holds their own text count as correct. Crawlee runs twice: with the generic
 *     SPA wait a user would add (page.waitForNetworkIdle() after load) and with its defaults
 *     only (HTML read at the load event; on fewer URLs, --defaults-urls, as it finds no content
 *     and its rate is set by Crawlee's page creation, not by the pages). With several rounds the
 *     figures are medians.
 * Every render is checked for the text its page draws; a /spa or /app/api render without it
 * stops the run.
 *
 *   bun scripts/bench/render.ts [--renders N] [--baseline N] [--api-renders N] [--spa-urls N]
 *     [--defaults-urls N] [--delay D] [--rounds N] [--json]
 *
 * --renders: pooled /spa renders after warm-up, split evenly between concurrency 1 and 4 (default 200)
 * --baseline: launch-per-request renders (default 10; each costs a browser start)
 * --api-renders: /app/api?delay=300 renders at concurrency 1 after warm-up (default 30)
 * --spa-urls: distinct SPA URLs siphon and Crawlee (with its SPA wait) render per round (default 100)
 * --defaults-urls: SPA URLs Crawlee with its defaults only renders per round (default 20; 0 skips it)
 * --delay: how long each SPA URL's API takes to answer, ms (default 300)
 * --rounds: rounds of the comparison (default 1; 0 skips it)
 */
import { loadConfig } from "../../src/config.ts";
import { createBrowserEngine } from "../../src/fetch/browser/engine.ts";
import { createBrowserPool } from "../../src/fetch/browser/pool.ts";
import { apiText, startFixtureSite } from "../../test/helpers/fixture-site.ts";
import type { Outcome, Tool } from "./render-worker.ts";
import { startRssSampler, treeRssMiB } from "./rss-sampler.ts";
import { median } from "./stats.ts";
import { runJsonWorker } from "./worker.ts";

interface Args {
  renders: number;
  baseline: number;
  apiRenders: number;
  spaUrls: number;
  defaultsUrls: number;
  delay: number;
  rounds: number;
  json: boolean;
}

interface Row {
  page: string;
  mode: string;
  concurrency: number;
  renders: number;
  p50Ms: number;
  p95Ms: number;
  pagesPerSecond: number;
}

const WARM_UP = 10;
const WARM_UP_CONCURRENCY = 4;
/** What the API of /app/api is asked to take, ms. */
const API_DELAY_MS = 300;
/** Renders of /app/api before its measured ones (the pool is already warm from /spa). */
const API_WARM_UP = 3;
/** Concurrency of the SPA comparison, for both tools: siphon's default browserConcurrency. */
const SPA_CONCURRENCY = 4;
/** Pages each tool renders on its browser before the timed ones (two per concurrent slot). */
const SPA_WARM_UP = 2 * SPA_CONCURRENCY;
/** The tools of the comparison; the ratios are siphon's correct pages/s over each one's. */
const TOOLS: readonly Tool[] = ["siphon", "siphon-job", "crawlee-idle", "crawlee-load"];
const TOOL_NAMES: Record<Tool, string> = {
  siphon: "siphon (browser engine, independent requests: wiped between pages)",
  "siphon-job": "siphon (browser engine, one job's session, as a crawl or batch)",
  "crawlee-idle": "Crawlee PuppeteerCrawler (load + waitForNetworkIdle)",
  "crawlee-load": "Crawlee PuppeteerCrawler (defaults: load only)",
};

function parseArgs(argv: string[]): Args {
  const args: Args = {
    renders: 200,
    baseline: 10,
    apiRenders: 30,
    spaUrls: 100,
    defaultsUrls: 20,
    delay: 300,
    rounds: 1,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const count = (min = 1): number => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs an integer of at least ${min}`);
      return n;
    };
    if (flag === "--renders") args.renders = count();
    else if (flag === "--baseline") args.baseline = count();
    else if (flag === "--api-renders") args.apiRenders = count();
    else if (flag === "--spa-urls") args.spaUrls = count();
    else if (flag === "--defaults-urls") args.defaultsUrls = count(0);
    else if (flag === "--delay") args.delay = count(0);
    else if (flag === "--rounds") args.rounds = count(0);
    else if (flag === "--json") args.json = true;
    else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Runs `total` renders with `concurrency` workers; returns latencies and the wall time. */
async function measure(
  total: number,
  concurrency: number,
  render: () => Promise<void>,
  /** A pause before each render, left out of the timings (the wall time is then the renders' sum). */
  pauseMs = 0,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      if (pauseMs) await Bun.sleep(pauseMs);
      const t = performance.now();
      await render();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallMs = pauseMs ? latencies.reduce((sum, ms) => sum + ms, 0) : performance.now() - started;
  return { latencies, wallMs };
}

function row(
  page: string,
  mode: string,
  concurrency: number,
  run: { latencies: number[]; wallMs: number },
): Row {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    page,
    mode,
    concurrency,
    renders: sorted.length,
    p50Ms: Math.round(percentile(sorted, 50)),
    p95Ms: Math.round(percentile(sorted, 95)),
    pagesPerSecond: Math.round((sorted.length / run.wallMs) * 1000 * 10) / 10,
  };
}

const here = new URL(".", import.meta.url).pathname;

/** Runs one side of the SPA comparison in its own process (see render-worker.ts). */
function runWorker(tool: Tool, siteUrl: string, urls: number): Promise<Outcome> {
  return runJsonWorker<Outcome>(tool, [
    "bun",
    `${here}render-worker.ts`,
    tool,
    siteUrl,
    String(urls),
    String(args.delay),
    String(SPA_CONCURRENCY),
    String(SPA_WARM_UP),
  ]);
}

interface SpaSummary {
  tool: Tool;
  concurrency: number;
  urls: number;
  correct: number;
  pages: number;
  wallSeconds: number;
  pagesPerSecond: number;
  correctPerSecond: number;
  pageP50Ms: number;
  /** CPU time of the machine (the tool, its Chromium, the fixture site) per timed page. */
  cpuMsPerPage: number;
  /** siphon's correct pages/s over this tool's (null when this tool got none right). */
  siphonRatio: number | null;
  /** siphon's correct pages/s as one job's session over this tool's. */
  siphonJobRatio: number | null;
}

function summariseSpa(runs: Outcome[]): SpaSummary[] {
  const of = (tool: Tool) => runs.filter((r) => r.tool === tool);
  const siphon = median(of("siphon").map((r) => r.correctPerSecond));
  const siphonJob = median(of("siphon-job").map((r) => r.correctPerSecond));
  const ratio = (mine: number, theirs: number) =>
    theirs > 0 && mine > 0 ? Math.round((mine / theirs) * 100) / 100 : null;
  return TOOLS.filter((tool) => of(tool).length > 0).map((tool) => {
    const mine = of(tool);
    const pick = (
      key:
        | "urls"
        | "correct"
        | "pages"
        | "wallMs"
        | "pagesPerSecond"
        | "correctPerSecond"
        | "p50Ms"
        | "cpuMsPerPage",
    ) => median(mine.map((r) => r[key]));
    const correctPerSecond = Math.round(pick("correctPerSecond") * 100) / 100;
    return {
      tool,
      concurrency: SPA_CONCURRENCY,
      urls: pick("urls"),
      correct: pick("correct"),
      pages: pick("pages"),
      wallSeconds: Math.round(pick("wallMs") / 100) / 10,
      pagesPerSecond: Math.round(pick("pagesPerSecond") * 100) / 100,
      correctPerSecond,
      pageP50Ms: Math.round(pick("p50Ms")),
      cpuMsPerPage: Math.round(pick("cpuMsPerPage")),
      siphonRatio: ratio(siphon, correctPerSecond),
      siphonJobRatio: ratio(siphonJob, correctPerSecond),
    };
  });
}

const args = parseArgs(process.argv.slice(2));
const site = await startFixtureSite();
const url = `${site.url}/spa`;
const apiPath = `/app/api?delay=${API_DELAY_MS}`;
const config = loadConfig({ SIPHON_HOME: "/nonexistent/siphon-bench-home" }, { disableSsrfProtection: true });
const pool = createBrowserPool(config);
const engine = createBrowserEngine(config, pool, { stealth: false });
const decoder = new TextDecoder();
const rendered = async (
  target: { fetch: typeof engine.fetch },
  href = url,
  mustHold = '<div id="root"><main>',
  /** As one job's pages (EngineFetchOptions.session): kept for each other instead of wiped. */
  session?: string,
) => {
  const page = await target.fetch(href, { session });
  // A render that missed the script-built content would make the numbers meaningless.
  if (!decoder.decode(page.body).includes(mustHold)) {
    throw new Error(`the content of ${href.replace(site.url, "")} was not rendered`);
  }
};
const renderedApi = () => rendered(engine, `${site.url}${apiPath}`, apiText(API_DELAY_MS));

/** The pause between the spaced renders: longer than a wipe takes. */
const PAUSE_MS = 500;
const rss = { warm: 0, end: 0, peak: 0 };
const rows: Row[] = [];
const spaRuns: Outcome[] = [];
const log = (message: string) => {
  if (!args.json) console.error(message);
};
try {
  log(`/spa: warm-up, then ${args.renders} renders at concurrency 1 and 4…`);
  await measure(WARM_UP, 1, () => rendered(engine));
  await measure(WARM_UP, WARM_UP_CONCURRENCY, () => rendered(engine));
  rss.warm = treeRssMiB(process.pid);
  // Sampled from another process: reading /proc here would hold up the renders being timed.
  const sampler = startRssSampler(process.pid);
  const half = Math.max(1, Math.floor(args.renders / 2));
  rows.push(row("/spa", "pool (shared browser)", 1, await measure(half, 1, () => rendered(engine))));
  // As a person at a terminal or an occasional API call meets it: the previous page's wipe is done.
  rows.push(
    row(
      "/spa",
      `pool, one request at a time, ${PAUSE_MS} ms apart`,
      1,
      await measure(Math.min(half, 50), 1, () => rendered(engine), PAUSE_MS),
    ),
  );
  rows.push(
    row(
      "/spa",
      "pool (shared browser)",
      4,
      await measure(args.renders - half || 1, 4, () => rendered(engine)),
    ),
  );
  rss.peak = await sampler.stop();
  rss.end = treeRssMiB(process.pid);
  rss.peak = Math.max(rss.peak, rss.end);
  log(`/spa: ${half} renders at concurrency 1 as one job's pages…`);
  const asJob = () => rendered(engine, url, undefined, "bench-job");
  await measure(WARM_UP, 1, asJob);
  rows.push(row("/spa", "pool, one job's session", 1, await measure(half, 1, asJob)));

  log(`${apiPath}: ${args.apiRenders} renders at concurrency 1…`);
  await measure(API_WARM_UP, 1, renderedApi);
  rows.push(row(apiPath, "pool (shared browser)", 1, await measure(args.apiRenders, 1, renderedApi)));
  const { launches, contextsOpened } = pool.stats();
  await pool.close();

  log(`/spa: ${args.baseline} renders launching a browser each…`);
  const baseline = await measure(args.baseline, 1, async () => {
    const own = createBrowserPool(config);
    try {
      await rendered(createBrowserEngine(config, own, { stealth: false }));
    } finally {
      await own.close();
    }
  });
  rows.push(row("/spa", "launch per request", 1, baseline));

  for (let r = 0; r < args.rounds; r++) {
    const order = r % 2 === 0 ? TOOLS : [...TOOLS].reverse();
    for (const tool of order) {
      const urls = tool === "crawlee-load" ? args.defaultsUrls : args.spaUrls;
      if (urls === 0) continue;
      log(`round ${r + 1}/${args.rounds}: ${tool} rendering ${urls} SPA URLs…`);
      spaRuns.push(await runWorker(tool, site.url, urls));
    }
  }
  const spa = summariseSpa(spaRuns);
  const api = rows.find((r) => r.page === apiPath)!;
  const renderOverheadMs = api.p50Ms - API_DELAY_MS;

  if (args.json) {
    console.log(
      JSON.stringify(
        {
          url: "/spa",
          rows,
          rssMiB: rss,
          poolLaunches: launches,
          contextsOpened,
          api: { path: apiPath, apiDelayMs: API_DELAY_MS, p50Ms: api.p50Ms, renderOverheadMs },
          spaComparison: args.rounds
            ? {
                paths: `/app/item/1..N?delay=${args.delay}`,
                delayMs: args.delay,
                concurrency: SPA_CONCURRENCY,
                warmUpPages: SPA_WARM_UP,
                rounds: args.rounds,
                summary: spa,
                runs: spaRuns,
              }
            : null,
        },
        null,
        2,
      ),
    );
  } else {
    console.log(
      `Render benchmark on the fixture site (warm: after ${WARM_UP} warm-up renders of /spa at ` +
        `concurrency 1 and ${WARM_UP} at ${WARM_UP_CONCURRENCY}, and ${API_WARM_UP} of ${apiPath})\n`,
    );
    console.log("| Page | Mode | Concurrency | Renders | p50 ms | p95 ms | Pages/s |");
    console.log("|---|---|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      console.log(
        `| ${r.page} | ${r.mode} | ${r.concurrency} | ${r.renders} | ${r.p50Ms} | ${r.p95Ms} | ${r.pagesPerSecond} |`,
      );
    }
    console.log(
      `\n${apiPath}: p50 ${api.p50Ms} ms, less the API's own ${API_DELAY_MS} ms = ${renderOverheadMs} ms of rendering.`,
    );
    console.log(
      `RSS (bun + Chromium tree, /spa renders): ${rss.warm} MiB after warm-up, ${rss.end} MiB at the end, ` +
        `${rss.peak} MiB peak; browser launches in the pool: ${launches} ` +
        `(recycled every ${config.browserRecycleAfter} pages); incognito contexts opened: ${contextsOpened}.`,
    );
    if (args.rounds) {
      console.log(
        `\nDistinct SPA URLs (/app/item/1..N?delay=${args.delay}: each drawn after its API answers in ` +
          `${args.delay} ms) at concurrency ${SPA_CONCURRENCY}, each tool in its own process after ` +
          `${SPA_WARM_UP} warm-up pages, ${args.rounds} round(s)${args.rounds > 1 ? ", medians" : ""}:\n`,
      );
      console.log(
        "| Tool | Concurrency | URLs | Correct pages | Pages returned | Wall s | Pages/s | Correct pages/s | Page p50 ms | Machine CPU ms/page | siphon/tool (correct pages/s) | siphon job/tool |",
      );
      console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
      const shown = (r: number | null) => (r === null ? "n/a (none correct)" : `${r.toFixed(2)}x`);
      for (const s of spa) {
        console.log(
          `| ${TOOL_NAMES[s.tool]} | ${s.concurrency} | ${s.urls} | ${s.correct} | ${s.pages} | ${s.wallSeconds} | ` +
            `${s.pagesPerSecond} | ${s.correctPerSecond} | ${s.pageP50Ms} | ${s.cpuMsPerPage} | ` +
            `${shown(s.siphonRatio)} | ${shown(s.siphonJobRatio)} |`,
        );
      }
      for (const r of spaRuns.filter(
        // Crawlee at the load event is expected to miss the content: only its failures are news.
        (run) =>
          run.failed > 0 || run.warnings > 0 || (run.tool !== "crawlee-load" && run.correct < run.pages),
      )) {
        console.log(
          `note: ${r.tool}: ${r.correct}/${r.urls} correct, ${r.failed} failed, ${r.warnings} readiness warnings` +
            (r.missing.length ? `; without their text: items ${r.missing.join(", ")}…` : ""),
        );
      }
    }
  }
} finally {
  await pool.close();
  await site.stop();
}

/**
 * The pool part of the render benchmark (`bun scripts/bench/render.ts --pool`), in the
 * benchmark's own process:
 *  1. warm renders of the fixture site's JavaScript page (/spa, drawn by a 50 ms timer) through
 *     the browser engine and its shared pool, at concurrency 1 (back to back, and one at a time
 *     500 ms apart, as occasional requests meet it) and 4, then at concurrency 1 as one job's
 *     pages (the session a crawl or batch passes: no wipe between). Warm-up runs at both
 *     concurrencies first, so the pool has opened its pages. Memory is the summed VmRSS of this
 *     process and every process under it (Chromium and its helpers), sampled during the /spa
 *     renders by a process of its own (scripts/bench/rss-sampler.ts), so the timed event loop
 *     never waits on /proc;
 *  2. warm renders at concurrency 1 of /app/api?delay=300 (a spinner until a fetch() to a JSON
 *     API that answers after 300 ms draws the article), and their p50 less the API's own
 *     300 ms: what the render itself costs;
 *  3. renders of /spa launching a browser each, the naive baseline.
 * Every render is checked for the text its page draws; one without it stops the run.
 */
import { loadConfig } from "../../src/config.ts";
import { createBrowserEngine } from "../../src/fetch/browser/engine.ts";
import { createBrowserPool } from "../../src/fetch/browser/pool.ts";
import { apiText, startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { startRssSampler, treeRssMiB } from "./rss-sampler.ts";

/** How many renders of each kind. */
export interface PoolArgs {
  /** Pooled /spa renders after warm-up, split evenly between concurrency 1 and 4. */
  renders: number;
  /** Launch-per-request renders (each costs a browser start). */
  baseline: number;
  /** /app/api?delay=300 renders at concurrency 1 after warm-up. */
  apiRenders: number;
}

export interface Row {
  page: string;
  mode: string;
  concurrency: number;
  renders: number;
  p50Ms: number;
  p95Ms: number;
  pagesPerSecond: number;
}

/** What the pool part measured. */
export interface PoolFigures {
  rows: Row[];
  rssMiB: { warm: number; end: number; peak: number };
  poolLaunches: number;
  contextsOpened: number;
  recycleAfter: number;
  api: { path: string; apiDelayMs: number; p50Ms: number; renderOverheadMs: number };
}

const WARM_UP = 10;
const WARM_UP_CONCURRENCY = 4;
/** What the API of /app/api is asked to take, ms. */
const API_DELAY_MS = 300;
/** Renders of /app/api before its measured ones (the pool is already warm from /spa). */
const API_WARM_UP = 3;
/** The pause between the spaced renders: longer than a wipe takes. */
const PAUSE_MS = 500;

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

/** Runs the pool part (see the top of this file); `log` reports progress. */
export async function runPoolRows(args: PoolArgs, log: (message: string) => void): Promise<PoolFigures> {
  const site = await startFixtureSite();
  const url = `${site.url}/spa`;
  const apiPath = `/app/api?delay=${API_DELAY_MS}`;
  const config = loadConfig(
    { SIPHON_HOME: "/nonexistent/siphon-bench-home" },
    { disableSsrfProtection: true },
  );
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
  const rss = { warm: 0, end: 0, peak: 0 };
  const rows: Row[] = [];
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
    const api = rows.find((r) => r.page === apiPath)!;
    return {
      rows,
      rssMiB: rss,
      poolLaunches: launches,
      contextsOpened,
      recycleAfter: config.browserRecycleAfter,
      api: {
        path: apiPath,
        apiDelayMs: API_DELAY_MS,
        p50Ms: api.p50Ms,
        renderOverheadMs: api.p50Ms - API_DELAY_MS,
      },
    };
  } finally {
    await pool.close();
    await site.stop();
  }
}

/** The pool part as Markdown tables. */
export function printPoolRows(figures: PoolFigures): void {
  const { rows, rssMiB: rss, api } = figures;
  console.log(
    `Render benchmark on the fixture site (warm: after ${WARM_UP} warm-up renders of /spa at ` +
      `concurrency 1 and ${WARM_UP} at ${WARM_UP_CONCURRENCY}, and ${API_WARM_UP} of ${api.path})\n`,
  );
  console.log("| Page | Mode | Concurrency | Renders | p50 ms | p95 ms | Pages/s |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.page} | ${r.mode} | ${r.concurrency} | ${r.renders} | ${r.p50Ms} | ${r.p95Ms} | ${r.pagesPerSecond} |`,
    );
  }
  console.log(
    `\n${api.path}: p50 ${api.p50Ms} ms, less the API's own ${api.apiDelayMs} ms = ${api.renderOverheadMs} ms of rendering.`,
  );
  console.log(
    `RSS (bun + Chromium tree, /spa renders): ${rss.warm} MiB after warm-up, ${rss.end} MiB at the end, ` +
      `${rss.peak} MiB peak; browser launches in the pool: ${figures.poolLaunches} ` +
      `(recycled every ${figures.recycleAfter} pages); incognito contexts opened: ${figures.contextsOpened}.\n`,
  );
}

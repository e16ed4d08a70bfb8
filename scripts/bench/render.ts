/**
 * Render benchmark: warm renders of the fixture site's JavaScript page (/spa) through the
 * browser engine and its shared pool, at concurrency 1 and 4, against a naive baseline that
 * launches a browser per request, in the same run. Warm-up runs at both concurrencies, so the
 * pool has opened its pages (up to browserConcurrency, each reused for many requests) before
 * anything is measured. Memory is the summed VmRSS of this process and every process under it
 * (Chromium and its helpers), sampled throughout.
 *
 *   bun scripts/bench/render.ts [--renders N] [--baseline N] [--json]
 *
 * --renders: pooled renders after warm-up, split evenly between concurrency 1 and 4 (default 500)
 * --baseline: launch-per-request renders (default 15; each costs a browser start)
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadConfig } from "../../src/config.ts";
import { createBrowserEngine } from "../../src/fetch/browser/engine.ts";
import { createBrowserPool } from "../../src/fetch/browser/pool.ts";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";

interface Args {
  renders: number;
  baseline: number;
  json: boolean;
}

interface Row {
  mode: string;
  concurrency: number;
  renders: number;
  p50Ms: number;
  p95Ms: number;
  pagesPerSecond: number;
}

const WARM_UP = 10;
const WARM_UP_CONCURRENCY = 4;

function parseArgs(argv: string[]): Args {
  const args: Args = { renders: 500, baseline: 15, json: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const count = (): number => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
      return n;
    };
    if (flag === "--renders") args.renders = count();
    else if (flag === "--baseline") args.baseline = count();
    else if (flag === "--json") args.json = true;
    else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

/** Summed VmRSS in MiB of `root` and all its descendants (Linux /proc). */
function treeRssMiB(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the ppid is the 2nd field after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  let kib = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone while we looked.
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return Math.round(kib / 1024);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Runs `total` renders with `concurrency` workers; returns latencies and the wall time. */
async function measure(
  total: number,
  concurrency: number,
  render: () => Promise<void>,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const t = performance.now();
      await render();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, wallMs: performance.now() - started };
}

function row(mode: string, concurrency: number, run: { latencies: number[]; wallMs: number }): Row {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    mode,
    concurrency,
    renders: sorted.length,
    p50Ms: Math.round(percentile(sorted, 50)),
    p95Ms: Math.round(percentile(sorted, 95)),
    pagesPerSecond: Math.round((sorted.length / run.wallMs) * 1000 * 10) / 10,
  };
}

const args = parseArgs(process.argv.slice(2));
const site = await startFixtureSite();
const url = `${site.url}/spa`;
const config = loadConfig({ SIPHON_HOME: "/nonexistent/siphon-bench-home" }, { disableSsrfProtection: true });
const pool = createBrowserPool(config);
const engine = createBrowserEngine(config, pool, { stealth: false });
const rendered = async (target: { fetch: typeof engine.fetch }) => {
  const page = await target.fetch(url);
  // A render that missed the script-built content would make the numbers meaningless.
  if (!new TextDecoder().decode(page.body).includes('<div id="root"><main>')) {
    throw new Error("the SPA content was not rendered");
  }
};

const rss = { warm: 0, end: 0, peak: 0 };
const sample = () => {
  rss.peak = Math.max(rss.peak, treeRssMiB(process.pid));
};
const rows: Row[] = [];
try {
  await measure(WARM_UP, 1, () => rendered(engine));
  await measure(WARM_UP, WARM_UP_CONCURRENCY, () => rendered(engine));
  rss.warm = treeRssMiB(process.pid);
  const sampler = setInterval(sample, 250);
  const half = Math.max(1, Math.floor(args.renders / 2));
  rows.push(row("pool (shared browser)", 1, await measure(half, 1, () => rendered(engine))));
  rows.push(
    row("pool (shared browser)", 4, await measure(args.renders - half || 1, 4, () => rendered(engine))),
  );
  clearInterval(sampler);
  sample();
  rss.end = treeRssMiB(process.pid);
  const { launches, contextsOpened } = pool.stats();
  await pool.close();

  const baseline = await measure(args.baseline, 1, async () => {
    const own = createBrowserPool(config);
    try {
      await rendered(createBrowserEngine(config, own, { stealth: false }));
    } finally {
      await own.close();
    }
  });
  rows.push(row("launch per request", 1, baseline));

  if (args.json) {
    console.log(
      JSON.stringify({ url: "/spa", rows, rssMiB: rss, poolLaunches: launches, contextsOpened }, null, 2),
    );
  } else {
    console.log(
      `Render benchmark: ${url.replace(site.url, "fixture")} (warm, after ${WARM_UP} warm-up renders ` +
        `at concurrency 1 and ${WARM_UP} at ${WARM_UP_CONCURRENCY})\n`,
    );
    console.log("| Mode | Concurrency | Renders | p50 ms | p95 ms | Pages/s |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      console.log(
        `| ${r.mode} | ${r.concurrency} | ${r.renders} | ${r.p50Ms} | ${r.p95Ms} | ${r.pagesPerSecond} |`,
      );
    }
    console.log(
      `\nRSS (bun + Chromium tree): ${rss.warm} MiB after warm-up, ${rss.end} MiB at the end, ` +
        `${rss.peak} MiB peak; browser launches in the pool: ${launches} ` +
        `(recycled every ${config.browserRecycleAfter} pages); incognito contexts opened: ${contextsOpened}.`,
    );
  }
} finally {
  await pool.close();
  await site.stop();
}

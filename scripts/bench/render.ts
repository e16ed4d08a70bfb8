/**
 * Render benchmark: siphon's browser engine against Crawlee's PuppeteerCrawler on the same
 * distinct single-page-app URLs, at the same concurrency (4, siphon's default
 * browserConcurrency). The pages (scripts/bench/render-site.ts, `/item/1..N?ms=D`) are empty
 * until a timer D ms after their load event draws each one's own sentence; only pages whose
 * returned HTML holds their own sentence count. Each tool runs in its own process
 * (scripts/bench/render-worker.ts, which describes every configuration) after a warm-up on its
 * browser, one after the other, the order reversed every other round; with several rounds the
 * figures are medians. The tools:
 *  - siphon as independent requests (each page wiped before the next request has it), and as
 *    one job's browsing session (as a crawl or batch renders its pages);
 *  - Crawlee waiting for each page's own sentence (page.waitForFunction after DOMContentLoaded)
 *    on the same Chromium headless shell siphon renders on, and on full Chromium.
 * siphon knows nothing of the pages: its readiness rule decides when they are drawn. It runs
 * with SSRF protection on, as deployed (the site's loopback hosts exempt with SIPHON_SSRF_ALLOW,
 * so every connection still goes through the browser's SSRF proxy), unless --ssrf off.
 * The ratios are siphon's correct pages per second over each Crawlee's.
 *
 * With --pool, the pool part (scripts/bench/render-pool.ts) runs first: /spa and
 * /app/api?delay=300 renders of the fixture site on the warm shared pool, and a browser
 * launched per request.
 *
 *   bun scripts/bench/render.ts [--urls N] [--delay D] [--origins N] [--rounds N] [--tools a,b]
 *     [--ssrf on|off] [--json]
 *     [--pool [--renders N] [--baseline N] [--api-renders N]]
 *
 * --urls: distinct SPA URLs each tool renders per round (default 200)
 * --delay: how long after its load event each page's timer draws it, ms (default 150)
 * --origins: other origins each page loads a small script from (default 0)
 * --rounds: rounds of the comparison (default 3; 0 skips it)
 * --tools: which of siphon, siphon-job, crawlee, crawlee-full to run (default all)
 * --pool: run the pool part too; --renders (default 200), --baseline (default 10) and
 *   --api-renders (default 30) size it
 */
import { type PoolArgs, type PoolFigures, printPoolRows, runPoolRows } from "./render-pool.ts";
import { type RenderSite, startRenderSite } from "./render-site.ts";
import { type Outcome, TOOLS, type Tool } from "./render-worker.ts";
import { median } from "./stats.ts";
import { runJsonWorker } from "./worker.ts";

interface Args extends PoolArgs {
  urls: number;
  delay: number;
  origins: number;
  ssrf: boolean;
  rounds: number;
  tools: Tool[];
  pool: boolean;
  json: boolean;
}

/** Concurrency of the comparison, for every tool: siphon's default browserConcurrency. */
const CONCURRENCY = 4;
/** Pages each tool renders on its browser before the timed ones (two per concurrent slot). */
const WARM_UP = 2 * CONCURRENCY;
const TOOL_NAMES: Record<Tool, string> = {
  siphon: "siphon, independent requests (wiped between pages), headless shell",
  "siphon-job": "siphon, one job's session (a crawl or batch), headless shell",
  crawlee: "Crawlee PuppeteerCrawler waiting for the content, headless shell",
  "crawlee-full": "Crawlee PuppeteerCrawler waiting for the content, full Chromium",
};
const CRAWLEE_TOOLS: readonly Tool[] = ["crawlee", "crawlee-full"];

function parseArgs(argv: string[]): Args {
  const args: Args = {
    urls: 200,
    delay: 150,
    origins: 0,
    ssrf: true,
    rounds: 3,
    tools: [...TOOLS],
    pool: false,
    renders: 200,
    baseline: 10,
    apiRenders: 30,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const count = (min = 1): number => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs an integer of at least ${min}`);
      return n;
    };
    if (flag === "--urls") args.urls = count();
    else if (flag === "--delay") args.delay = count(0);
    else if (flag === "--origins") args.origins = count(0);
    else if (flag === "--ssrf") {
      const value = argv[++i];
      if (value !== "on" && value !== "off") throw new Error("--ssrf takes on or off");
      args.ssrf = value === "on";
    } else if (flag === "--rounds") args.rounds = count(0);
    else if (flag === "--tools") {
      const names = (argv[++i] ?? "").split(",");
      const unknown = names.filter((name) => !TOOLS.includes(name as Tool));
      if (unknown.length || names.length === 0) {
        throw new Error(`--tools takes a comma-separated list of ${TOOLS.join(", ")}`);
      }
      args.tools = TOOLS.filter((tool) => names.includes(tool));
    } else if (flag === "--pool") args.pool = true;
    else if (flag === "--renders") args.renders = count();
    else if (flag === "--baseline") args.baseline = count();
    else if (flag === "--api-renders") args.apiRenders = count();
    else if (flag === "--json") args.json = true;
    else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

const here = new URL(".", import.meta.url).pathname;

/** Runs one side of the comparison in its own process (see render-worker.ts). */
function runWorker(tool: Tool, site: RenderSite, args: Args): Promise<Outcome> {
  return runJsonWorker<Outcome>(tool, [
    "bun",
    `${here}render-worker.ts`,
    tool,
    site.url,
    String(args.urls),
    String(args.delay),
    String(CONCURRENCY),
    String(WARM_UP),
    args.ssrf ? site.hosts.join(",") : "off",
  ]);
}

interface Summary {
  tool: Tool;
  rounds: number;
  urls: number;
  correct: number;
  pages: number;
  wallSeconds: number;
  correctPerSecond: number;
  /** Lowest and highest correct pages/s over the rounds. */
  correctPerSecondRange: [number, number];
  pageP50Ms: number;
  pageP95Ms: number;
  /** CPU time of the machine (the tool, its Chromium, the site) per timed page. */
  cpuMsPerPage: number;
}

interface Ratio {
  siphon: "siphon" | "siphon-job";
  over: Tool;
  /** Median correct pages/s over median correct pages/s. */
  ratio: number | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function summarise(runs: Outcome[], tools: Tool[]): { summary: Summary[]; ratios: Ratio[] } {
  const of = (tool: Tool) => runs.filter((r) => r.tool === tool);
  const summary = tools
    .filter((tool) => of(tool).length > 0)
    .map((tool): Summary => {
      const mine = of(tool);
      const pick = (
        key:
          | "urls"
          | "correct"
          | "pages"
          | "wallMs"
          | "correctPerSecond"
          | "p50Ms"
          | "p95Ms"
          | "cpuMsPerPage",
      ) => median(mine.map((r) => r[key]));
      const rates = mine.map((r) => r.correctPerSecond);
      return {
        tool,
        rounds: mine.length,
        urls: pick("urls"),
        correct: pick("correct"),
        pages: pick("pages"),
        wallSeconds: Math.round(pick("wallMs") / 100) / 10,
        correctPerSecond: round2(pick("correctPerSecond")),
        correctPerSecondRange: [Math.min(...rates), Math.max(...rates)],
        pageP50Ms: Math.round(pick("p50Ms")),
        pageP95Ms: Math.round(pick("p95Ms")),
        cpuMsPerPage: Math.round(pick("cpuMsPerPage")),
      };
    });
  const rate = (tool: Tool) => summary.find((s) => s.tool === tool)?.correctPerSecond;
  const ratios: Ratio[] = [];
  for (const siphon of ["siphon", "siphon-job"] as const) {
    for (const over of CRAWLEE_TOOLS) {
      const mine = rate(siphon);
      const theirs = rate(over);
      if (mine === undefined || theirs === undefined) continue;
      ratios.push({ siphon, over, ratio: theirs > 0 && mine > 0 ? round2(mine / theirs) : null });
    }
  }
  return { summary, ratios };
}

function printComparison(args: Args, runs: Outcome[], summary: Summary[], ratios: Ratio[]): void {
  console.log(
    `Distinct SPA URLs (/item/1..${args.urls}?ms=${args.delay}: each page's content drawn by a timer ` +
      `${args.delay} ms after its load event${args.origins ? `, each loading a script from ${args.origins} other origins` : ""}) ` +
      `at concurrency ${CONCURRENCY}, each tool in its own process after ${WARM_UP} warm-up pages, ` +
      `${args.rounds} round(s)${args.rounds > 1 ? ", medians" : ""}; siphon's SSRF protection ${args.ssrf ? "on" : "off"}:\n`,
  );
  console.log(
    "| Tool | Correct / URLs | Wall s | Correct pages/s | (range) | Page p50 ms | p95 ms | Machine CPU ms/page |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const s of summary) {
    console.log(
      `| ${TOOL_NAMES[s.tool]} | ${s.correct}/${s.urls} | ${s.wallSeconds} | **${s.correctPerSecond}** | ` +
        `${s.correctPerSecondRange.join("-")} | ${s.pageP50Ms} | ${s.pageP95Ms} | ${s.cpuMsPerPage} |`,
    );
  }
  console.log("");
  for (const r of ratios) {
    const shown = r.ratio === null ? "n/a (none correct)" : `${r.ratio.toFixed(2)}x`;
    console.log(`${r.siphon} / ${r.over}: ${shown}`);
  }
  for (const r of runs.filter((run) => run.failed > 0 || run.warnings > 0 || run.correct < run.urls)) {
    console.log(
      `note: ${r.tool}: ${r.correct}/${r.urls} correct, ${r.failed} failed, ${r.warnings} readiness warnings` +
        (r.missing.length ? `; without their text: items ${r.missing.join(", ")}…` : ""),
    );
  }
}

const args = parseArgs(process.argv.slice(2));
const log = (message: string) => {
  if (!args.json) console.error(message);
};
let pool: PoolFigures | undefined;
if (args.pool) pool = await runPoolRows(args, log);

const runs: Outcome[] = [];
if (args.rounds > 0) {
  const site = startRenderSite(args.origins);
  try {
    for (let r = 0; r < args.rounds; r++) {
      const order = r % 2 === 0 ? args.tools : [...args.tools].reverse();
      for (const tool of order) {
        log(`round ${r + 1}/${args.rounds}: ${tool} rendering ${args.urls} SPA URLs…`);
        runs.push(await runWorker(tool, site, args));
      }
    }
  } finally {
    await site.stop();
  }
}
const { summary, ratios } = summarise(runs, args.tools);

if (args.json) {
  console.log(
    JSON.stringify(
      {
        pool: pool ?? null,
        comparison: args.rounds
          ? {
              paths: `/item/1..${args.urls}?ms=${args.delay}`,
              delayMs: args.delay,
              otherOrigins: args.origins,
              ssrfProtection: args.ssrf,
              concurrency: CONCURRENCY,
              warmUpPages: WARM_UP,
              rounds: args.rounds,
              summary,
              ratios,
              runs,
            }
          : null,
      },
      null,
      2,
    ),
  );
} else {
  if (pool) printPoolRows(pool);
  if (args.rounds) printComparison(args, runs, summary, ratios);
}

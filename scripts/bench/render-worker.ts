/**
 * One side of the SPA comparison of the render benchmark (scripts/bench/render.ts), in its own
 * process so neither tool's browser or event loop competes with the other's: renders
 * `/item/1?ms=D` ... `/item/<urls>?ms=D` of the comparison site (scripts/bench/render-site.ts:
 * each page's empty #root is filled with itemText(n) by a timer D ms after its load event) at
 * `concurrency`, after `warmup` pages of the same kind (other item numbers) on the same
 * browser, and prints one JSON line (see Outcome) on stdout. A page counts as correct only when
 * the HTML the tool returns holds the page's own itemText(n).
 *
 * - `siphon`: the browser engine (createBrowserEngine) on its shared pool, as a scrape uses it:
 *   every request intercepted (fonts, media and images blocked), its readiness rule
 *   (src/fetch/browser/readiness.ts) decides when to read, knowing nothing of the page; the
 *   body it returns is checked. Every page is an independent request: its page is wiped
 *   before the next one has it.
 * - `siphon-job`: the same, with every page part of one job's browsing session (the `session`
 *   option a crawl or batch job passes): a page is kept for the job's next page instead of
 *   being wiped, as Crawlee's session pool shares a session's cookies across its requests.
 * - `crawlee`: Crawlee's PuppeteerCrawler told what to wait for, the fairest it can be: a
 *   pre-navigation hook navigates to DOMContentLoaded only, and the requestHandler waits for
 *   the page's own sentence (`page.waitForFunction` on document.body.textContent, polled on
 *   every DOM mutation, so it wakes on the change that draws it), then reads `page.content()`.
 *   It runs on the browser siphon's plain renders run on (Chromium's headless shell where
 *   installed, in puppeteer's `headless: "shell"` mode).
 * - `crawlee-full`: the same crawler on full Chromium (/usr/bin/chromium, new headless mode),
 *   what puppeteer and Crawlee launch unless told otherwise.
 *
 * Crawlee's configuration is its default otherwise: a new page per request in one browser,
 * fingerprint injection on (useFingerprints), session pool, no request interception or
 * resource blocking (the pages load nothing but their HTML, and with --origins a few
 * scripts); in-memory storage (persistStorage: false, storage dir in a temp folder). Two
 * settings differ from its defaults: min = max concurrency (both tools run exactly
 * `concurrency` pages at once), and retireBrowserAfterPageCount is raised above the pages of the run (default 100) so its
 * browser is not relaunched mid-run; siphon's is not either (it recycles after 500). Both
 * launch their browser with siphon's CHROMIUM_ARGS (--no-sandbox, --disable-gpu, ...) on top
 * of puppeteer's defaults.
 *
 * Wall time runs from the start of the first timed page (siphon: its fetch call; Crawlee: its
 * pre-navigation hook, so the queue's 0.5 s poll after adding the requests is not counted)
 * to the end of the last one. Latency per page is measured the same way. CPU time is the
 * machine's (see machineCpuSeconds) over the timed pages, per page.
 *
 * siphon runs with SSRF protection on, as deployed, with the site's loopback hosts exempt
 * (`ssrfAllow`, SIPHON_SSRF_ALLOW: every connection still goes through the browser's SSRF
 * proxy), or with it off (`off`).
 *
 *   bun scripts/bench/render-worker.ts <siphon|siphon-job|crawlee|crawlee-full> <siteUrl> <urls> <delay> <concurrency> <warmup> <off|ssrfAllow>
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GoToOptions } from "puppeteer-core";
import { CHROMIUM_ARGS } from "../../src/fetch/browser/launch.ts";
import { itemText } from "../../test/helpers/site-pages/apps.ts";
import { itemOfUrl as itemOf, timerItemUrl as itemUrl } from "./render-site.ts";
import { machineCpuSeconds } from "./stats.ts";

export const TOOLS = ["siphon", "siphon-job", "crawlee", "crawlee-full"] as const;
export type Tool = (typeof TOOLS)[number];

/** What one worker run prints. */
export interface Outcome {
  tool: Tool;
  concurrency: number;
  delayMs: number;
  /** Pages asked for (timed). */
  urls: number;
  /** Pages the tool returned. */
  pages: number;
  /** Pages whose returned HTML holds their own itemText(n). */
  correct: number;
  /** Pages the tool failed on (threw, or Crawlee's failedRequestHandler). */
  failed: number;
  /** siphon only: renders that came back with a readiness warning (looked unfinished). */
  warnings: number;
  wallMs: number;
  pagesPerSecond: number;
  correctPerSecond: number;
  /** Per page, from its start to the tool handing over its HTML. */
  p50Ms: number;
  p95Ms: number;
  /** Item numbers of the first few pages without their content. */
  missing: number[];
  /** CPU time the machine spent over the timed pages (all processes), ms per page; 2 cores give 2,000 ms/s. */
  cpuMsPerPage: number;
}

/** First item number of the warm-up pages: far from the timed ones, so no URL repeats. */
const WARM_UP_FROM = 100_001;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

interface PageResult {
  n: number;
  ok: boolean;
  correct: boolean;
  warning: boolean;
  startedAt: number;
  endedAt: number;
}

function summarise(tool: Tool, args: WorkerArgs, { results, cpuSeconds }: Timed): Outcome {
  const started = Math.min(...results.map((r) => r.startedAt));
  const ended = Math.max(...results.map((r) => r.endedAt));
  const wallMs = ended - started;
  const latencies = results.map((r) => r.endedAt - r.startedAt).sort((a, b) => a - b);
  const correct = results.filter((r) => r.correct).length;
  const pages = results.filter((r) => r.ok).length;
  const perSecond = (n: number) => Math.round((n / wallMs) * 1000 * 100) / 100;
  return {
    tool,
    concurrency: args.concurrency,
    delayMs: args.delay,
    urls: args.urls,
    pages,
    correct,
    failed: results.length - pages,
    warnings: results.filter((r) => r.warning).length,
    wallMs: Math.round(wallMs),
    pagesPerSecond: perSecond(pages),
    correctPerSecond: perSecond(correct),
    p50Ms: Math.round(percentile(latencies, 50)),
    p95Ms: Math.round(percentile(latencies, 95)),
    missing: results
      .filter((r) => !r.correct)
      .map((r) => r.n)
      .sort((a, b) => a - b)
      .slice(0, 10),
    cpuMsPerPage: Math.round((cpuSeconds * 1000) / results.length),
  };
}

/** The timed pages of a run and the CPU time they took. */
interface Timed {
  results: PageResult[];
  cpuSeconds: number;
}

interface WorkerArgs {
  site: string;
  urls: number;
  delay: number;
  concurrency: number;
  warmup: number;
  /** siphon's SSRF protection: "off", or on with these host:port exempt (the site's). */
  ssrf: string;
}

/** Longest Crawlee waits for a page's sentence: far past the page's timer, so only a page that never draws reaches it. */
const MARKER_TIMEOUT_MS = 15_000;

/** siphon's side; with `session`, every page as one job's (EngineFetchOptions.session), as a crawl or batch renders them. */
async function runSiphon(args: WorkerArgs, session?: string): Promise<Timed> {
  const [{ loadConfig }, { createBrowserEngine }, { createBrowserPool }] = await Promise.all([
    import("../../src/config.ts"),
    import("../../src/fetch/browser/engine.ts"),
    import("../../src/fetch/browser/pool.ts"),
  ]);
  const off = args.ssrf === "off";
  const config = loadConfig(
    {
      SIPHON_HOME: "/nonexistent/siphon-bench-home",
      SIPHON_BROWSER_CONCURRENCY: String(args.concurrency),
      // Exempt, the site's loopback hosts are still reached through the SSRF proxy, as any site is.
      ...(off ? {} : { SIPHON_SSRF_ALLOW: args.ssrf }),
    },
    { disableSsrfProtection: off },
  );
  const pool = createBrowserPool(config);
  const engine = createBrowserEngine(config, pool, { stealth: false });
  const decoder = new TextDecoder();
  const run = async (numbers: number[]) => {
    const results: PageResult[] = [];
    const queue = [...numbers];
    await Promise.all(
      Array.from({ length: args.concurrency }, async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
          const startedAt = performance.now();
          try {
            const page = await engine.fetch(itemUrl(args.site, n, args.delay), { session });
            const html = decoder.decode(page.body);
            results.push({
              n,
              ok: true,
              correct: html.includes(itemText(n)),
              warning: page.warning !== undefined,
              startedAt,
              endedAt: performance.now(),
            });
          } catch {
            results.push({
              n,
              ok: false,
              correct: false,
              warning: false,
              startedAt,
              endedAt: performance.now(),
            });
          }
        }
      }),
    );
    return results;
  };
  try {
    await run(Array.from({ length: args.warmup }, (_, i) => WARM_UP_FROM + i));
    const cpuBefore = machineCpuSeconds();
    const results = await run(Array.from({ length: args.urls }, (_, i) => i + 1));
    return { results, cpuSeconds: machineCpuSeconds() - cpuBefore };
  } finally {
    await pool.close();
  }
}

/** Crawlee's side, on the headless shell siphon renders on or (`full`) on full Chromium. */
async function runCrawlee(args: WorkerArgs, full: boolean, home: string): Promise<Timed> {
  process.env.CRAWLEE_STORAGE_DIR = join(home, "crawlee");
  const [
    { PuppeteerCrawler, Configuration, log },
    { default: puppeteer },
    { loadConfig },
    { findChromium, isHeadlessShell },
  ] = await Promise.all([
    import("crawlee"),
    import("puppeteer-core"),
    import("../../src/config.ts"),
    import("../../src/fetch/browser/launch.ts"),
  ]);
  log.setLevel(log.LEVELS.WARNING);
  // The browser siphon's plain renders run on (the headless shell where installed), launched
  // alike; or full Chromium, which siphon keeps for stealth renders.
  const executablePath = findChromium(
    loadConfig({ SIPHON_HOME: "/nonexistent/siphon-bench-home" }),
    full ? "stealth" : "browser",
  );
  if (full && isHeadlessShell(executablePath)) throw new Error("no full Chromium is installed");
  if (!full && !isHeadlessShell(executablePath)) throw new Error("no Chromium headless shell is installed");
  const headless = full ? true : "shell";
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const starts = new Map<string, number>();
  const warm: PageResult[] = [];
  const timed: PageResult[] = [];
  let wake = () => {};
  const record = (url: string, result: Omit<PageResult, "n" | "startedAt" | "endedAt" | "warning">) => {
    const n = itemOf(url);
    const entry = {
      n,
      ...result,
      warning: false,
      startedAt: starts.get(url) ?? performance.now(),
      endedAt: performance.now(),
    };
    (n >= WARM_UP_FROM ? warm : timed).push(entry);
    wake();
  };
  const crawler = new PuppeteerCrawler(
    {
      minConcurrency: args.concurrency,
      maxConcurrency: args.concurrency,
      // Requests are added in two batches (warm-up, then timed) to one crawler on one warm browser.
      keepAlive: true,
      launchContext: {
        launcher: puppeteer,
        launchOptions: { executablePath, headless, args: [...CHROMIUM_ARGS] },
      },
      // Default 100: the browser would be relaunched mid-run (siphon's is not either).
      browserPoolOptions: { retireBrowserAfterPageCount: args.warmup + args.urls + 100 },
      preNavigationHooks: [
        ({ request }, gotoOptions) => {
          // A retry keeps the first start: its time is the page's.
          if (!starts.has(request.url)) starts.set(request.url, performance.now());
          // The content is waited for below: the load event would only delay the handler.
          if (gotoOptions) (gotoOptions as GoToOptions).waitUntil = "domcontentloaded";
        },
      ],
      async requestHandler({ request, page }) {
        await page.waitForFunction(
          (text: string) => document.body?.textContent?.includes(text) === true,
          { polling: "mutation", timeout: MARKER_TIMEOUT_MS },
          itemText(itemOf(request.url)),
        );
        const html = await page.content();
        record(request.url, { ok: true, correct: html.includes(itemText(itemOf(request.url))) });
      },
      failedRequestHandler({ request }) {
        record(request.url, { ok: false, correct: false });
      },
    },
    config,
  );
  const until = async (list: PageResult[], count: number) => {
    while (list.length < count) await new Promise<void>((resolve) => (wake = resolve));
  };
  const running = crawler.run();
  let cpuSeconds = 0;
  try {
    await crawler.addRequests(
      Array.from({ length: args.warmup }, (_, i) => itemUrl(args.site, WARM_UP_FROM + i, args.delay)),
    );
    await until(warm, args.warmup);
    const cpuBefore = machineCpuSeconds();
    await crawler.addRequests(
      Array.from({ length: args.urls }, (_, i) => itemUrl(args.site, i + 1, args.delay)),
    );
    await until(timed, args.urls);
    cpuSeconds = machineCpuSeconds() - cpuBefore;
  } finally {
    crawler.stop();
    await running;
  }
  return { results: timed, cpuSeconds };
}

if (import.meta.main) {
  const [tool, site, urls, delay, concurrency, warmup, ssrf] = process.argv.slice(2);
  const args: WorkerArgs = {
    site: site ?? "",
    urls: Number(urls),
    delay: Number(delay),
    concurrency: Number(concurrency),
    warmup: Number(warmup),
    ssrf: ssrf ?? "",
  };
  if (
    !TOOLS.includes(tool as Tool) ||
    !args.site ||
    !args.ssrf ||
    ![args.urls, args.delay, args.concurrency, args.warmup].every((n) => Number.isInteger(n) && n >= 0) ||
    args.urls < 1 ||
    args.concurrency < 1
  ) {
    console.error(
      `usage: bun scripts/bench/render-worker.ts <${TOOLS.join("|")}> <siteUrl> <urls> <delay> <concurrency> <warmup> <off|ssrfAllow>`,
    );
    process.exit(2);
  }
  const home = mkdtempSync(join(tmpdir(), `siphon-render-bench-${tool}-`));
  try {
    const timed =
      tool === "siphon" || tool === "siphon-job"
        ? await runSiphon(args, tool === "siphon-job" ? "bench-job" : undefined)
        : await runCrawlee(args, tool === "crawlee-full", home);
    process.stdout.write(`${JSON.stringify(summarise(tool as Tool, args, timed))}\n`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  process.exit(0);
}

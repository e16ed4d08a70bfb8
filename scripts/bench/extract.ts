/**
 * Extraction benchmark: siphon's extractHtml (onlyMainContent, and the
 * default mode as `siphon-default` unless --no-default-mode) against
 * @mozilla/readability + linkedom (+ turndown for markdown) on the AEB and
 * WCXB dev datasets, in one process, page by page in alternating order.
 * WCXB's precision and recall are printed beside its F1.
 * Quality comes from the datasets' own scorer (shared/bench/score.mjs);
 * throughput is pages per second of HTML string -> markdown, warm, in timed
 * passes of each extractor over all pages (--rounds, default 3; the median
 * pass), with a full GC before each pass so no extractor pays for another's
 * garbage; the five slowest pages are listed (each page's median).
 *
 *   bun scripts/bench/extract.ts [--bench-dir DIR] [--dataset aeb|wcxb|all]
 *     [--type T] [--limit N] [--format markdown|text] [--keep DIR]
 *     [--per-page] [--no-baseline] [--no-default-mode] [--json] [--rounds N]
 *
 * Prints the five slowest pages for siphon (AEB ids cut to 12 characters).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tables } from "@joplin/turndown-plugin-gfm";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { extractHtml } from "../../src/extract/index.ts";

interface Args {
  benchDir: string;
  datasets: string[];
  type: string | null;
  limit: number;
  format: "markdown" | "text";
  keep: string | null;
  perPage: boolean;
  baseline: boolean;
  defaultMode: boolean;
  json: boolean;
  rounds: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    benchDir: fileURLToPath(new URL("../../../shared/bench/", import.meta.url)),
    datasets: ["aeb", "wcxb-dev"],
    type: null,
    limit: 0,
    format: "markdown",
    keep: null,
    perPage: false,
    baseline: true,
    defaultMode: true,
    json: false,
    rounds: 3,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "--bench-dir") args.benchDir = value();
    else if (flag === "--dataset") {
      const d = value();
      args.datasets = d === "all" ? ["aeb", "wcxb-dev"] : [d === "wcxb" ? "wcxb-dev" : d];
    } else if (flag === "--type") args.type = value();
    else if (flag === "--limit") args.limit = Number(value());
    else if (flag === "--format") args.format = value() === "text" ? "text" : "markdown";
    else if (flag === "--keep") args.keep = value();
    else if (flag === "--per-page") args.perPage = true;
    else if (flag === "--no-baseline") args.baseline = false;
    else if (flag === "--no-default-mode") args.defaultMode = false;
    else if (flag === "--json") args.json = true;
    else if (flag === "--rounds") args.rounds = Math.max(1, Number(value()));
    else throw new Error(`unknown option ${flag}`);
  }
  return args;
}

interface Page {
  id: string;
  url: string;
  html: string;
  gt: string;
  pageType?: string;
  snippets?: string;
}

type Extractor = (html: string, url: string) => string;

function siphon(format: "markdown" | "text", onlyMainContent = true): Extractor {
  return (html, url) => extractHtml(html, url, { format, onlyMainContent, images: false }).content;
}

function readability(format: "markdown" | "text"): Extractor {
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
  td.use(tables);
  return (html) => {
    try {
      const { document } = parseHTML(html);
      const article = new Readability(document as unknown as Document).parse();
      if (!article) return "";
      return format === "text" ? (article.textContent ?? "") : td.turndown(article.content ?? "");
    } catch {
      return "";
    }
  };
}

interface Run {
  name: string;
  extract: Extractor;
  ms: number;
  pages: number;
  /** Milliseconds per page, with the page's dataset and id. */
  times: { page: string; ms: number }[];
}

/** Copies the manifest restricted to the selected pages, so the scorer does not count the others as misses. */
function subsetDataset(dir: string, pages: Page[], all: number, work: string, name: string): string {
  if (pages.length === all) return dir;
  const out = join(work, `dataset-${name}`);
  mkdirSync(out, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  const ids = new Set(pages.map((p) => p.id));
  manifest.pages = manifest.pages.filter((p: { id: string }) => ids.has(p.id));
  manifest.count = manifest.pages.length;
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest));
  for (const sub of ["gt", "snippets"]) {
    try {
      symlinkSync(join(dir, sub), join(out, sub));
    } catch {
      // The dataset may have no snippets folder.
    }
  }
  return out;
}

function score(scorer: string, dataset: string, predDir: string, metric: string, perPage: string | null) {
  const argv = [scorer, dataset, predDir, "--metric", metric, "--by-type", "--json"];
  if (perPage) argv.push("--per-page", perPage);
  const res = spawnSync("node", argv, { encoding: "utf8", maxBuffer: 64 << 20 });
  if (res.status !== 0) throw new Error(`scorer failed: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Throughput: `rounds` passes of each extractor over every page (after one
 * warm-up pass), the order of extractors rotating from round to round and a
 * full garbage collection before each pass, so that no extractor is timed
 * while collecting another's garbage. A run's time is its median pass; a
 * page's time its median over the rounds.
 */
function timePasses(runs: Run[], pages: { page: string; html: string; url: string }[], rounds: number): void {
  for (const r of runs) for (const p of pages) r.extract(p.html, p.url);
  const passes = new Map<Run, number[]>(runs.map((r) => [r, []]));
  const perPage = new Map<Run, number[][]>(runs.map((r) => [r, pages.map(() => [])]));
  for (let round = 0; round < rounds; round++) {
    const order = runs.map((_, i) => runs[(i + round) % runs.length]!);
    for (const r of order) {
      Bun.gc(true);
      let total = 0;
      pages.forEach((p, i) => {
        const t0 = performance.now();
        r.extract(p.html, p.url);
        const ms = performance.now() - t0;
        total += ms;
        perPage.get(r)![i]!.push(ms);
      });
      passes.get(r)!.push(total);
    }
  }
  for (const r of runs) {
    r.ms = median(passes.get(r)!);
    r.pages = pages.length;
    r.times = pages.map((p, i) => ({ page: p.page, ms: median(perPage.get(r)![i]!) }));
  }
}

const TYPES = ["article", "documentation", "service", "forum", "collection", "listing", "product"];

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const work = args.keep ?? mkdtempSync(join(tmpdir(), "siphon-bench-"));
  const runs: Run[] = [{ name: "siphon", extract: siphon(args.format), ms: 0, pages: 0, times: [] }];
  // The default mode (the whole page, cleaned) has a figure of its own, so it cannot drift unseen.
  if (args.defaultMode)
    runs.push({ name: "siphon-default", extract: siphon(args.format, false), ms: 0, pages: 0, times: [] });
  if (args.baseline)
    runs.push({ name: "readability", extract: readability(args.format), ms: 0, pages: 0, times: [] });
  const ext = args.format === "text" ? "txt" : "md";
  const results: Record<string, Record<string, unknown>> = {};
  for (const r of runs) results[r.name] = {};
  /** Every page of every dataset, for the timed passes after the quality pass. */
  const timed: { page: string; html: string; url: string }[] = [];

  for (const name of args.datasets) {
    const dir = join(args.benchDir, name);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { pages: Page[] };
    let pages = manifest.pages.filter((p) => !args.type || p.pageType === args.type);
    if (args.limit > 0) pages = pages.slice(0, args.limit);
    const htmls = pages.map((p) => readFileSync(join(dir, p.html), "utf8"));
    for (const r of runs) mkdirSync(join(work, r.name, name), { recursive: true });
    // Quality pass: each extractor's output on every page, page by page in alternating order.
    pages.forEach((page, i) => {
      const order = i % 2 === 0 ? runs : [...runs].reverse();
      for (const r of order)
        writeFileSync(join(work, r.name, name, `${page.id}.${ext}`), r.extract(htmls[i]!, page.url));
      timed.push({ page: `${name}/${page.id.slice(0, 12)}`, html: htmls[i]!, url: page.url });
    });
    const dataset = subsetDataset(dir, pages, manifest.pages.length, work, name);
    const scorer = join(args.benchDir, "score.mjs");
    for (const r of runs) {
      const perPage = args.perPage ? join(work, `${r.name}-${name}-per-page.json`) : null;
      const metric = name === "aeb" ? "aeb" : "word";
      results[r.name]![name] = score(scorer, dataset, join(work, r.name, name), metric, perPage);
    }
  }

  timePasses(runs, timed, args.rounds);
  const slowest = (r: Run) =>
    [...r.times]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((t) => ({ page: t.page, ms: Math.round(t.ms * 10) / 10 }));
  const rows = runs.map((r) => {
    const res = results[r.name] as Record<
      string,
      {
        aeb?: { f1: number };
        word?: { f1: number; precision: number; recall: number; byType?: Record<string, { f1: number }> };
      }
    >;
    return {
      extractor: r.name,
      aebF1: res.aeb?.aeb?.f1 ?? null,
      wcxbF1: res["wcxb-dev"]?.word?.f1 ?? null,
      wcxbPrecision: res["wcxb-dev"]?.word?.precision ?? null,
      wcxbRecall: res["wcxb-dev"]?.word?.recall ?? null,
      byType: Object.fromEntries(TYPES.map((t) => [t, res["wcxb-dev"]?.word?.byType?.[t]?.f1 ?? null])),
      pagesPerSecond: r.pages / (r.ms / 1000),
      slowest: slowest(r),
    };
  });
  const base = rows.find((r) => r.extractor === "readability")?.pagesPerSecond ?? rows[0]!.pagesPerSecond;
  const table = rows.map((r) => ({ ...r, ratio: r.pagesPerSecond / base }));
  const kept = Boolean(args.keep || args.perPage);
  if (args.json) {
    console.log(JSON.stringify({ format: args.format, workDir: kept ? work : null, rows: table }, null, 1));
  } else {
    const f = (x: number | null): string => (x === null || Number.isNaN(x) ? "-" : x.toFixed(3));
    console.log(
      `| extractor | AEB F1 | WCXB word F1 | WCXB P | WCXB R | ${TYPES.join(" | ")} | pages/s | ratio |`,
    );
    console.log(`|---|---|---|---|---|${TYPES.map(() => "---|").join("")}---|---|`);
    for (const r of table) {
      const types = TYPES.map((t) => f(r.byType[t] ?? null)).join(" | ");
      console.log(
        `| ${r.extractor} | ${f(r.aebF1)} | ${f(r.wcxbF1)} | ${f(r.wcxbPrecision)} | ${f(r.wcxbRecall)} | ${types} | ${r.pagesPerSecond.toFixed(1)} | ${r.ratio.toFixed(2)} |`,
      );
    }
    const siphonRow = table.find((r) => r.extractor === "siphon")!;
    console.log(
      `\nslowest siphon pages (ms): ${siphonRow.slowest.map((t) => `${t.page} ${t.ms.toFixed(1)}`).join(", ")}`,
    );
    if (kept) console.log(`\npredictions and per-page scores: ${work}`);
  }
  if (!kept) rmSync(work, { recursive: true, force: true });
}

main();

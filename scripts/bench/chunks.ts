/**
 * Chunking benchmark: what the chunks format adds to a crawl. Crawls the generated local site
 * (scripts/bench/crawl-site.ts, `--pages` linked article pages of 6-9 KB of text each) with
 * siphon's crawl job, once with each page's markdown only and once with the chunks format too
 * (default options: 512 tokens, o200k_base), each run in its own process, alternating which goes
 * first over `--rounds`, and prints the median seconds of each and their ratio (target: chunking
 * adds under 10%).
 *
 *   bun scripts/bench/chunks.ts [--pages 1000] [--rounds 3] [--concurrency 5] [--latency-ms 0] [--json]
 */
import { hasFlag, numberFlag } from "./flags.ts";
import { median, round1 } from "./stats.ts";
import { runJsonWorker, startCrawlSite } from "./worker.ts";

const pages = numberFlag("pages", 1000);
const rounds = numberFlag("rounds", 3);
const concurrency = numberFlag("concurrency", 5);
const json = hasFlag("json");
/** ms the site waits before each answer: 0 is the CPU-bound worst case, a real site answers later. */
const latencyMs = numberFlag("latency-ms", 0);
const here = new URL(".", import.meta.url).pathname;

interface Run {
  pages: number;
  failed: number;
  seconds: number;
}

const site = await startCrawlSite(pages, latencyMs);
const runs: Record<"markdown" | "chunks", number[]> = { markdown: [], chunks: [] };
try {
  // Once to warm the site and the disk; not counted.
  await runJsonWorker<Run>("warm-up", [
    "bun",
    `${here}crawl-worker.ts`,
    "siphon",
    site.url,
    String(pages),
    "5",
  ]);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["markdown", "chunks"] as const) : (["chunks", "markdown"] as const);
    for (const mode of order) {
      const args = ["bun", `${here}crawl-worker.ts`, "siphon", site.url, String(pages), String(concurrency)];
      const run = await runJsonWorker<Run>(mode, mode === "chunks" ? [...args, "--chunks"] : args);
      if (run.pages !== pages || run.failed)
        throw new Error(`${mode}: ${run.pages} pages, ${run.failed} failed`);
      runs[mode].push(run.seconds);
    }
  }
} finally {
  site.stop();
}
const markdown = median(runs.markdown);
const chunks = median(runs.chunks);
const summary = {
  pages,
  rounds,
  concurrency,
  latencyMs,
  markdownSeconds: Math.round(markdown * 100) / 100,
  chunksSeconds: Math.round(chunks * 100) / 100,
  added: `${round1(((chunks - markdown) / markdown) * 100)}%`,
  ratio: Math.round((chunks / markdown) * 1000) / 1000,
};
if (json) console.log(JSON.stringify(summary));
else {
  console.log(
    `crawl of ${pages} pages at concurrency ${concurrency}, site latency ${latencyMs} ms, median of ${rounds} rounds`,
  );
  console.log(`  markdown only:       ${summary.markdownSeconds} s`);
  console.log(`  markdown and chunks: ${summary.chunksSeconds} s (${summary.added}, ratio ${summary.ratio})`);
}

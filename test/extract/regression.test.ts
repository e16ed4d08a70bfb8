import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractHtml } from "../../src/extract/index.ts";

/**
 * Regression guard for extraction quality: a fixed subset of the benchmark
 * pages (../shared/bench, see scripts/bench/extract.ts) is extracted in
 * both modes (main content, and the default mode's whole page) and scored
 * with the benchmarks' own scorer; the test fails when an F1 drops by more
 * than 0.005 from the figures committed in
 * test/fixtures/extract-regression.json. After an intended change, rewrite
 * them with `SIPHON_UPDATE_REGRESSION=1 bun test test/extract/regression.test.ts`.
 * Skipped when the benchmark data is not beside the checkout.
 */
const benchDir = join(import.meta.dir, "..", "..", "..", "shared", "bench");
const baselinePath = join(import.meta.dir, "..", "fixtures", "extract-regression.json");
const TOLERANCE = 0.005;

interface ManifestPage {
  id: string;
  url: string;
  html: string;
  gt: string;
  pageType?: string;
}

interface Figures {
  aeb: number;
  wcxb: number;
}

/** Main-content figures at the top level; the default mode's under `defaultMode`. */
interface Baseline extends Figures {
  defaultMode: Figures;
  pages: { aeb: string[]; wcxb: string[] };
}

interface Scorer {
  stripMarkdown(md: string): string;
  wordPRF(pred: string, ref: string): [number, number, number];
  aebTpFpFn(ref: string, pred: string): [number, number, number];
  aebAggregate(counts: [number, number, number][]): { f1: number };
}

function manifest(name: string): ManifestPage[] {
  return JSON.parse(readFileSync(join(benchDir, name, "manifest.json"), "utf8")).pages;
}

/** The subset: every 15th AEB page, and the first four pages of each WCXB page type, by id. */
function pickPages(): Baseline["pages"] {
  const byId = (a: ManifestPage, b: ManifestPage) => a.id.localeCompare(b.id);
  const aeb = manifest("aeb").sort(byId);
  const wcxb = manifest("wcxb-dev").sort(byId);
  const types = [...new Set(wcxb.map((p) => p.pageType ?? "article"))].sort();
  return {
    aeb: aeb.filter((_, i) => i % 15 === 0).map((p) => p.id),
    wcxb: types.flatMap((t) =>
      wcxb
        .filter((p) => (p.pageType ?? "article") === t)
        .slice(0, 4)
        .map((p) => p.id),
    ),
  };
}

function markdownOf(
  dataset: string,
  page: ManifestPage,
  onlyMainContent: boolean,
): { md: string; gt: string } {
  const html = readFileSync(join(benchDir, dataset, page.html), "utf8");
  const gt = readFileSync(join(benchDir, dataset, page.gt), "utf8");
  const md = extractHtml(html, page.url, { format: "markdown", onlyMainContent, images: false }).content;
  return { md, gt };
}

async function score(pages: Baseline["pages"], onlyMainContent: boolean): Promise<Figures> {
  const scorer = (await import(join(benchDir, "score.mjs"))) as Scorer;
  const aebPages = new Map(manifest("aeb").map((p) => [p.id, p]));
  const counts = pages.aeb.map((id) => {
    const { md, gt } = markdownOf("aeb", aebPages.get(id)!, onlyMainContent);
    return scorer.aebTpFpFn(gt, scorer.stripMarkdown(md));
  });
  const wcxbPages = new Map(manifest("wcxb-dev").map((p) => [p.id, p]));
  let f1 = 0;
  for (const id of pages.wcxb) {
    const { md, gt } = markdownOf("wcxb-dev", wcxbPages.get(id)!, onlyMainContent);
    f1 += scorer.wordPRF(scorer.stripMarkdown(md), gt)[2];
  }
  return { aeb: scorer.aebAggregate(counts).f1, wcxb: f1 / pages.wcxb.length };
}

const round = (x: number): number => Math.round(x * 10000) / 10000;

const rounded = (f: Figures): Figures => ({ aeb: round(f.aeb), wcxb: round(f.wcxb) });

test.skipIf(!existsSync(join(benchDir, "score.mjs")))(
  "F1 of both modes on a fixed subset of the benchmarks stays within 0.005 of the committed figures",
  async () => {
    if (process.env.SIPHON_UPDATE_REGRESSION === "1") {
      const pages = pickPages();
      const main = rounded(await score(pages, true));
      const baseline: Baseline = { ...main, defaultMode: rounded(await score(pages, false)), pages };
      writeFileSync(baselinePath, `${JSON.stringify(baseline, null, 2)}\n`);
    }
    const baseline = JSON.parse(readFileSync(baselinePath, "utf8")) as Baseline;
    expect(baseline.pages.aeb.length + baseline.pages.wcxb.length).toBeGreaterThanOrEqual(30);
    for (const [figures, committed] of [
      [await score(baseline.pages, true), baseline],
      [await score(baseline.pages, false), baseline.defaultMode],
    ] as const) {
      expect(figures.aeb).toBeGreaterThanOrEqual(committed.aeb - TOLERANCE);
      expect(figures.wcxb).toBeGreaterThanOrEqual(committed.wcxb - TOLERANCE);
    }
  },
);

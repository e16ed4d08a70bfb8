/**
 * Structured extraction figures (issue 13), one section per figure, in one process:
 *  1. heuristic field accuracy (no LLM): findStructured + fillSchema over the fixture site's
 *     structured pages (product, article, recipe, event and job posting, each with JSON-LD,
 *     microdata, only OpenGraph, and nothing structured; and a page of tables), each asked with
 *     its type's schema; fields right / fields asked per page, per type and per variant, scored
 *     by scoreFields (test/helpers/site-pages/structured.ts: a list of records counts each
 *     field of each record);
 *  2. heuristic throughput: pages per second of findStructured + fillSchema (HTML string and
 *     main-content markdown -> filled schema), warm, over --iterations passes through all the
 *     pages; the median of --rounds rounds. The markdown is made once per page beforehand, as
 *     the pipeline has it already when it extracts.
 *  3. LLM path, tokens sent per page: the main content's tokens (4 characters a token) before
 *     and after trimForExtraction (src/structured/trim.ts) with the type's schema, over the real
 *     pages of ../shared/bench/wcxb-dev (product, article and the other types), and again with
 *     the whole page (onlyMainContent false) to show what trimming does to long pages.
 * The pages of 1 and 2 are generated in process (no server). The fixture pages were written alongside the
 * heuristics, so the accuracy says what the heuristics read on pages like them, not on the web.
 *
 *   bun scripts/bench/extract-structured.ts [--iterations N] [--rounds N] [--json]
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractHtml } from "../../src/extract/index.ts";
import { estimateTokens } from "../../src/llm/index.ts";
import { fillSchema, findStructured } from "../../src/structured/heuristics/index.ts";
import { EXTRACT_TOKEN_BUDGET, trimForExtraction } from "../../src/structured/trim.ts";
import {
  STRUCTURED_PAGES,
  STRUCTURED_SCHEMAS,
  STRUCTURED_VARIANTS,
  type StructuredPage,
  scoreFields,
  structuredExpected,
  structuredPage,
} from "../../test/helpers/site-pages/structured.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { median, round1 } from "./stats.ts";

const ITERATIONS = numberFlag("iterations", 200);
const ROUNDS = numberFlag("rounds", 5);
const JSON_OUT = hasFlag("json");
/** Pages are generated for this origin; nothing listens there. */
const ORIGIN = "http://fixture.test";

interface Prepared {
  page: StructuredPage;
  url: string;
  html: string;
  text: string;
}

function prepare(): Prepared[] {
  return STRUCTURED_PAGES.map((page) => {
    const url = `${ORIGIN}${page.path}`;
    const html = structuredPage(page, ORIGIN);
    const text = extractHtml(html, url, { format: "markdown", onlyMainContent: true, images: false }).content;
    return { page, url, html, text };
  });
}

/** What the heuristic path answers for one page. */
function heuristic(p: Prepared): Record<string, unknown> {
  return fillSchema(STRUCTURED_SCHEMAS[p.page.type], findStructured(p.html, p.url), p.text).data;
}

interface AccuracyRow {
  type: string;
  variant: string;
  right: number;
  asked: number;
  percent: number;
  wrong: string[];
}

const percent = (right: number, asked: number) => (asked ? round1((100 * right) / asked) : 0);

/** Section 1: fields right / fields asked, per page, then per type and per variant. */
function accuracy(pages: Prepared[]) {
  const rows: AccuracyRow[] = pages.map((p) => {
    const { right, asked, wrong } = scoreFields(structuredExpected(p.page.type, ORIGIN), heuristic(p));
    return {
      type: p.page.type,
      variant: p.page.variant,
      right,
      asked,
      percent: percent(right, asked),
      wrong,
    };
  });
  const total = (pick: (r: AccuracyRow) => boolean) => {
    const chosen = rows.filter(pick);
    const right = chosen.reduce((n, r) => n + r.right, 0);
    const asked = chosen.reduce((n, r) => n + r.asked, 0);
    return { right, asked, percent: percent(right, asked) };
  };
  const types = [...new Set(rows.map((r) => r.type))];
  return {
    pages: rows,
    byType: Object.fromEntries(types.map((t) => [t, total((r) => r.type === t)])),
    byVariant: Object.fromEntries(STRUCTURED_VARIANTS.map((v) => [v, total((r) => r.variant === v)])),
    overall: total(() => true),
  };
}

/** Section 2: pages per second of findStructured + fillSchema, warm; median of the rounds. */
function throughput(pages: Prepared[]) {
  for (let i = 0; i < 20; i++) for (const p of pages) heuristic(p);
  const rates: number[] = [];
  const findOnly: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let start = performance.now();
    for (let i = 0; i < ITERATIONS; i++) for (const p of pages) heuristic(p);
    rates.push((ITERATIONS * pages.length) / ((performance.now() - start) / 1000));
    start = performance.now();
    for (let i = 0; i < ITERATIONS; i++) for (const p of pages) findStructured(p.html, p.url);
    findOnly.push((ITERATIONS * pages.length) / ((performance.now() - start) / 1000));
  }
  const pagesPerSecond = Math.round(median(rates));
  const bytes = pages.reduce((n, p) => n + p.html.length, 0) / pages.length;
  return {
    pages: pages.length,
    iterations: ITERATIONS,
    rounds: ROUNDS,
    meanHtmlKb: round1(bytes / 1024),
    pagesPerSecond,
    msPerPage: round1(1000 / pagesPerSecond),
    findStructuredOnlyPagesPerSecond: Math.round(median(findOnly)),
  };
}

const WCXB = join(import.meta.dir, "../../../shared/bench/wcxb-dev");

/** Which fixture schema stands for a bench page type when measuring trimming. */
const SCHEMA_FOR: Record<string, keyof typeof STRUCTURED_SCHEMAS> = {
  product: "product",
  article: "article",
};

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Tokens an extraction sends per page before and after trimming, on real pages. */
function trimming() {
  const manifest = JSON.parse(readFileSync(join(WCXB, "manifest.json"), "utf8")) as {
    pages?: { id: string; url?: string; type?: string }[];
  } & Record<string, unknown>;
  const entries = (manifest.pages ?? (Array.isArray(manifest) ? manifest : [])) as {
    id: string;
    url?: string;
    type?: string;
  }[];
  const rows: Record<string, { before: number[]; after: number[]; trimmed: number }> = {};
  for (const mainOnly of [true, false]) {
    const label = mainOnly ? "main content" : "whole page";
    const row = { before: [] as number[], after: [] as number[], trimmed: 0 };
    rows[label] = row;
    for (const entry of entries) {
      const html = readFileSync(join(WCXB, "html", `${entry.id}.html`), "utf8");
      const url = entry.url ?? "https://bench.test/";
      const markdown = extractHtml(html, url, {
        format: "markdown",
        onlyMainContent: mainOnly,
        images: false,
      }).content;
      const schema = STRUCTURED_SCHEMAS[SCHEMA_FOR[entry.type ?? ""] ?? "article"];
      const { text, trimmed } = trimForExtraction(markdown, { schema });
      row.before.push(estimateTokens(markdown));
      row.after.push(estimateTokens(text));
      if (trimmed) row.trimmed++;
    }
  }
  return {
    pages: entries.length,
    budget: EXTRACT_TOKEN_BUDGET,
    rows: Object.entries(rows).map(([label, r]) => ({
      content: label,
      trimmedPages: r.trimmed,
      medianBefore: quantile(r.before, 0.5),
      p90Before: quantile(r.before, 0.9),
      maxBefore: Math.max(...r.before),
      medianAfter: quantile(r.after, 0.5),
      p90After: quantile(r.after, 0.9),
      maxAfter: Math.max(...r.after),
      totalBefore: r.before.reduce((a, b) => a + b, 0),
      totalAfter: r.after.reduce((a, b) => a + b, 0),
    })),
  };
}

const table = (head: string[], rows: unknown[][]) =>
  [head, head.map((_, i) => (i ? "---:" : "---")), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");

function report(result: {
  accuracy: ReturnType<typeof accuracy>;
  throughput: ReturnType<typeof throughput>;
  trimming: ReturnType<typeof trimming>;
}): string {
  const { accuracy: a, throughput: t, trimming: tr } = result;
  const types = Object.keys(a.byType);
  const cell = (type: string, variant: string) => {
    const row = a.pages.find((r) => r.type === type && r.variant === variant);
    return row ? `${row.right}/${row.asked}` : "–";
  };
  const out: string[] = [];
  out.push("Heuristic field accuracy (no LLM): fields right / fields asked\n");
  out.push(
    table(
      ["Page type", ...STRUCTURED_VARIANTS, "All variants"],
      [
        ...types.map((type) => [
          type,
          ...STRUCTURED_VARIANTS.map((v) => cell(type, v)),
          `${a.byType[type]!.right}/${a.byType[type]!.asked} (${a.byType[type]!.percent}%)`,
        ]),
        [
          "all types",
          ...STRUCTURED_VARIANTS.map(
            (v) => `${a.byVariant[v]!.right}/${a.byVariant[v]!.asked} (${a.byVariant[v]!.percent}%)`,
          ),
          `${a.overall.right}/${a.overall.asked} (${a.overall.percent}%)`,
        ],
      ],
    ),
  );
  const misses = a.pages.filter((r) => r.wrong.length);
  if (misses.length) {
    out.push("\nFields missed or wrong:");
    for (const r of misses) out.push(`- ${r.type}/${r.variant}: ${r.wrong.join(", ")}`);
  }
  out.push(
    `\nHeuristic throughput: findStructured + fillSchema, ${t.pages} pages (mean ${t.meanHtmlKb} KB of HTML), ` +
      `${t.iterations} passes, median of ${t.rounds} rounds\n`,
  );
  out.push(
    table(
      ["Step", "Pages/s", "ms/page"],
      [
        ["findStructured + fillSchema", t.pagesPerSecond, t.msPerPage],
        [
          "findStructured alone",
          t.findStructuredOnlyPagesPerSecond,
          round1(1000 / t.findStructuredOnlyPagesPerSecond),
        ],
      ],
    ),
  );
  out.push(
    `\nLLM path: tokens sent per page before and after trimming to ${tr.budget} tokens, ${tr.pages} real pages (wcxb-dev)\n`,
  );
  out.push(
    table(
      [
        "Content",
        "Pages trimmed",
        "Median before",
        "p90 before",
        "Max before",
        "Median after",
        "p90 after",
        "Max after",
        "Total before",
        "Total after",
      ],
      tr.rows.map((r) => [
        r.content,
        r.trimmedPages,
        r.medianBefore,
        r.p90Before,
        r.maxBefore,
        r.medianAfter,
        r.p90After,
        r.maxAfter,
        r.totalBefore,
        r.totalAfter,
      ]),
    ),
  );
  return out.join("\n");
}

const pages = prepare();
const result = { accuracy: accuracy(pages), throughput: throughput(pages), trimming: trimming() };
console.log(JSON_OUT ? JSON.stringify(result, null, 2) : report(result));

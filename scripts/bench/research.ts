/**
 * Search and cited-answer figures (issue 11), against the fakes, in one process:
 *  1. search + scrape of 10 results (search() with scrapeResults: the pages fetched in parallel)
 *     against the same search followed by the same 10 pages fetched one by one through the same
 *     pipeline (scrapeHit), alternating which goes first; medians of --runs runs. The result
 *     pages sit behind a proxy (latency-proxy.ts) that waits 50 to 150 ms before answering
 *     (result i of 10 waits 50 + i*100/9 ms: a sum of 1000 ms, a longest of 150 ms), and the
 *     same again with no wait;
 *  2. our own overhead on a streamed answer: answerStream over the same 10 pages (maxSources 10)
 *     with a fake LLM that sends its first chunk at once, its events through sseResponse, timed
 *     from the moment the last page's bytes were in hand (the simple engine's fetch resolved) to
 *     the moment the first chunk's bytes are read from the SSE body; median and p95 of
 *     --answer-runs runs, split at the last HTML extraction's end, the "analyzing" progress
 *     event (passages ranked), the request's arrival at the fake LLM and the first chunk event
 *     yielded. The same once more through POST /v1/answer on a loopback socket, timed from the
 *     proxy's last page handed over to the first chunk read by the HTTP client;
 *  3. the research agent at depth basic and thorough (issue 12): pages fetched, wall time, and
 *     siphon's own share of it besides waiting on the fake LLM, site and search engine; see
 *     agent.ts (also runnable alone: bun scripts/bench/agent.ts [--runs N] [--json]). Medians
 *     of --agent-runs runs each; --agent-runs 0 leaves them out.
 * Cache off (every page is fetched), escalation off, SSRF protection off (loopback). The site,
 * proxy and fakes run in this process too: their work shares its event loop and 2 extra threads.
 *
 *   bun scripts/bench/research.ts [--runs N] [--answer-runs N] [--agent-runs N] [--json]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sseResponse } from "../../server/sse.ts";
import { answerStream } from "../../src/answer/index.ts";
import { type ConfigOverrides, loadConfig } from "../../src/config.ts";
import { extractInline } from "../../src/extract/pool.ts";
import type { FetchEngine } from "../../src/fetch/types.ts";
import type { Engines } from "../../src/pipeline/engines.ts";
import { createEngines } from "../../src/pipeline/engines.ts";
import { AnswerBody } from "../../src/schemas/answer.ts";
import { SearchBody } from "../../src/schemas/search.ts";
import { validate } from "../../src/schemas/validate.ts";
import { search } from "../../src/search/index.ts";
import { scrapeHit } from "../../src/search/scrape.ts";
import { openStore } from "../../src/store/index.ts";
import { startTestApp } from "../../test/helpers/app.ts";
import { startFakeLlm } from "../../test/helpers/fake-llm.ts";
import { RESULT_PAGES, startFakeSearch } from "../../test/helpers/fake-search.ts";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { agentFigures, agentReport, TARGET_SHARE } from "./agent.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { startLatencyProxy } from "./latency-proxy.ts";
import { median, round1 } from "./stats.ts";

const RUNS = numberFlag("runs", 7);
const ANSWER_RUNS = numberFlag("answer-runs", 30);
const AGENT_RUNS = numberFlag("agent-runs", 7);
const JSON_OUT = hasFlag("json");
const PAGES = 10;
const WARM_UP = 3;
const TARGET_MS = 20;
const KEY = "sk-bench-research";
const QUERY = { q: "solar farm", count: PAGES };
/** POST /v1/answer's body, for both the in-process and the HTTP runs. */
const ANSWER = {
  question: "How did the council vote on the riverside solar farm?",
  llmProvider: "openai",
  llmApiKey: KEY,
  maxSources: PAGES,
  stream: true,
};
const log = (line: string) => JSON_OUT || console.error(line);

/** Added latency of each result page, by path; `slow` switches it on and off. */
const delays = new Map(RESULT_PAGES.slice(0, PAGES).map((p, i) => [p.path, 50 + Math.round((i * 100) / 9)]));
let slow = true;

const site = await startFixtureSite();
const proxy = startLatencyProxy(site.url, (path) => (slow ? (delays.get(path) ?? 0) : 0));
const engines = startFakeSearch(proxy.url);
const llm = await startFakeLlm({ keys: [KEY] });
const stamps = { fetched: 0, extracted: 0, llm: 0 };
llm.reply = () => {
  stamps.llm = performance.now();
  return { text: "The council approved the solar farm by 7 votes to 2 [1]." };
};
const overrides: ConfigOverrides = {
  disableSsrfProtection: true,
  cacheEnabled: false,
  escalation: false,
  duckduckgoUrl: engines.duckduckgoUrl,
  openaiBaseUrl: llm.baseUrl("openai"),
};
const home = mkdtempSync(join(tmpdir(), "siphon-bench-research-"));
const config = loadConfig({}, { home, ...overrides });
const store = await openStore(config);
const shared = createEngines(config);
/** The engines, noting when a fetch resolved (the page's bytes in hand) and an extraction ended. */
const timed: Engines = {
  extract: async (html, url, options) => {
    const doc = await (shared.extract ?? extractInline)(html, url, options);
    stamps.extracted = Math.max(stamps.extracted, performance.now());
    return doc;
  },
  renders: shared.renders,
  async get(name) {
    const engine = await shared.get(name);
    const fetch: FetchEngine["fetch"] = async (url, options) => {
      const page = await engine.fetch(url, options);
      stamps.fetched = Math.max(stamps.fetched, performance.now());
      return page;
    };
    return { name: engine.name, fetch };
  },
};
const deps = { config, store, engines: timed };

/** `n` measured results of `run` after WARM_UP unmeasured ones. */
async function collect<T>(n: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = -WARM_UP; i < n; i++) {
    const value = await run(i);
    if (i >= 0) out.push(value);
  }
  return out;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
}

/** Search with its 10 results scraped in parallel, checked; returns ms. */
async function parallel(): Promise<number> {
  const t = performance.now();
  const found = await search(validate(SearchBody, { ...QUERY, scrapeResults: true }), deps);
  const ms = performance.now() - t;
  const web = found.response.data.web;
  if (web.length !== PAGES || web.some((r) => !r.content)) throw new Error("a result page was not scraped");
  return ms;
}

/** The same search, then its 10 results fetched one after the other, checked; returns ms. */
async function sequential(): Promise<number> {
  const t = performance.now();
  const found = await search(validate(SearchBody, QUERY), deps);
  for (const hit of found.response.data.web) {
    if (!(await scrapeHit(hit, deps)).page) throw new Error(`${hit.url} was not fetched`);
  }
  return performance.now() - t;
}

async function scrapeFigures(withLatency: boolean) {
  slow = withLatency;
  // Alternating which goes first, so neither always runs on a machine the other just warmed.
  const pairs = await collect(RUNS, async (i) =>
    i % 2 === 0 ? [await parallel(), await sequential()] : [await sequential(), await parallel()].reverse(),
  );
  const parallelMs = median(pairs.map(([p]) => p!));
  const sequentialMs = median(pairs.map(([, q]) => q!));
  return {
    addedLatency: withLatency ? "50-150 ms a page (sum 1000, max 150)" : "none",
    runs: RUNS,
    parallelMs: round1(parallelMs),
    sequentialMs: round1(sequentialMs),
    speedUp: round1(sequentialMs / parallelMs),
  };
}

/** The legs of a streamed answer, in order. The slowest page (/, 150 ms) is HTML: the last extraction is its. */
const PARTS = {
  extraction: "last page's bytes in -> last HTML extraction done (worker threads)",
  passagesAndRank: "-> 'analyzing' progress event (result, passages, BM25 ranking)",
  promptAndRequest: "-> request at the fake LLM (prompt, SDK, loopback send)",
  llmToFirstEvent: "-> first chunk event (fake answers, SDK parses, markers)",
  sseSend: "-> its bytes read from the SSE body",
  total: "total, in process",
};

/** One streamed answer in process; the times between its marks, ms. */
async function answerRun() {
  stamps.fetched = stamps.extracted = 0;
  let analyzing = 0;
  let firstEvent = 0;
  const outcome = await answerStream(validate(AnswerBody, ANSWER), {
    ...deps,
    onProgress: (e) => {
      if (e.action === "analyzing") analyzing = performance.now();
    },
  });
  async function* events() {
    for await (const event of outcome.events) {
      if (!firstEvent && event.type === "chunk") firstEvent = performance.now();
      yield event;
    }
  }
  const reader = sseResponse(events()).body!.getReader();
  const first = await reader.read();
  const read = performance.now();
  const text = new TextDecoder().decode(first.value);
  if (!text.startsWith('data: {"type":"chunk"')) throw new Error(`first SSE bytes: ${text}`);
  while (!(await reader.read()).done) {}
  const t = stamps.fetched;
  if (outcome.pagesFetched !== PAGES) throw new Error(`${outcome.pagesFetched} pages fetched`);
  return {
    extraction: stamps.extracted - t,
    passagesAndRank: analyzing - stamps.extracted,
    promptAndRequest: stamps.llm - analyzing,
    llmToFirstEvent: firstEvent - stamps.llm,
    sseSend: read - firstEvent,
    total: read - t,
  };
}

/** One streamed answer through POST /v1/answer on a socket: proxy's last page sent -> first chunk read. */
async function httpRun(base: string): Promise<number> {
  const response = await fetch(`${base}/v1/answer`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ANSWER),
  });
  const reader = response.body!.getReader();
  const first = await reader.read();
  const ms = performance.now() - proxy.lastSent;
  if (!new TextDecoder().decode(first.value).includes('"type":"chunk"')) throw new Error("no chunk first");
  while (!(await reader.read()).done) {}
  return ms;
}

const summary = (values: number[]) => ({ medianMs: round1(median(values)), p95Ms: round1(p95(values)) });

try {
  log(`search + scrape of ${PAGES} results: ${WARM_UP} warm-up and ${RUNS} runs, with and without latency…`);
  const scrape = [await scrapeFigures(true), await scrapeFigures(false)];
  slow = true;
  log(`streamed answers: ${WARM_UP} warm-up and ${ANSWER_RUNS} runs in process, then over HTTP…`);
  const runs = await collect(ANSWER_RUNS, answerRun);
  const app = await startTestApp(overrides);
  let http: number[];
  try {
    const base = app.listen();
    http = await collect(ANSWER_RUNS, () => httpRun(base));
  } finally {
    await app.close();
  }
  const parts = Object.keys(PARTS) as (keyof typeof PARTS)[];
  const split = Object.fromEntries(parts.map((k) => [k, summary(runs.map((r) => r[k]))]));
  const own = summary(runs.map((r) => r.total - r.llmToFirstEvent));
  const figures = AGENT_RUNS > 0 ? await agentFigures(AGENT_RUNS, log) : [];
  const result = {
    scrape,
    answer: { runs: ANSWER_RUNS, targetMs: TARGET_MS, split, ownWithoutLlm: own, http: summary(http) },
    agent: { targetPercent: TARGET_SHARE * 100, figures },
  };
  if (JSON_OUT) console.log(JSON.stringify(result, null, 2));
  else {
    const table = (head: string[], rows: unknown[][]) =>
      [head, head.map((_, i) => (i ? "---:" : "---")), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
    console.log(
      `Search + scrape of ${PAGES} results (fake DuckDuckGo; pages behind the latency proxy; medians)\n`,
    );
    const scrapeHead = ["Added latency", "Runs", "Parallel ms", "One by one ms", "Speed-up"];
    console.log(
      table(
        scrapeHead,
        scrape.map((s) => [s.addedLatency, s.runs, s.parallelMs, s.sequentialMs, `${s.speedUp}x`]),
      ),
    );
    console.log(`\nStreamed answer, last page fetched -> first SSE chunk read (${ANSWER_RUNS} runs)\n`);
    const rows = parts.map((k) => [PARTS[k], split[k]!.medianMs, split[k]!.p95Ms]);
    rows.push(["total less the LLM leg above", own.medianMs, own.p95Ms]);
    rows.push([
      "POST /v1/answer on a socket: proxy's last page sent -> first chunk read",
      ...Object.values(result.answer.http),
    ]);
    console.log(table(["Part", "Median ms", "p95 ms"], rows));
    const met = (ms: number) => (ms < TARGET_MS ? "met" : "missed");
    const { total } = split;
    const { http: h } = result.answer;
    console.log(
      `\nTarget < ${TARGET_MS} ms: in process median ${met(total!.medianMs)}, p95 ${met(total!.p95Ms)}; ` +
        `over HTTP median ${met(h.medianMs)}, p95 ${met(h.p95Ms)}.`,
    );
    if (figures.length) console.log(`\n${agentReport(figures)}`);
  }
} finally {
  await shared.close();
  await store.close();
  rmSync(home, { recursive: true, force: true });
  await llm.stop();
  await engines.stop();
  await proxy.stop();
  await site.stop();
}

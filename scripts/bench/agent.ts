/**
 * The research agent's figures (issue 12), against the fakes, in one process: runAgent at depth
 * basic and thorough, the model's moves scripted, every outside server slow the way real ones are:
 *  - basic: search, then 3 result pages read in one fetch_page call; the source limit ends the
 *    research (no finish turn is needed), then the writer. 3 LLM calls, 1 search, 3 pages;
 *  - thorough: 2 searches, 4 pages, 1 search and 3 pages, 2 pages, finish; the gap check names
 *    one more query, whose one unread result is read; the writer. 7 LLM calls, 4 searches,
 *    10 pages.
 * The fake LLM answers each research turn and the gap check after LLM_MS; the writer's answer
 * (ending in a KEY FINDINGS list) starts after LLM_MS and comes in WRITE_CHUNKS chunks
 * CHUNK_MS apart. Result page i of 10 answers after 50 + i*100/9 ms (latency-proxy.ts), the
 * search engine after SEARCH_MS. Each fake sits behind a proxy that records when each request
 * was open; the time waited on the outside is the union of those intervals (requests overlap),
 * and the rest of the wall time is siphon's own: its share should be under TARGET_SHARE.
 * Pages fetched are checked against the fixture site's own count of hits.
 * Cache off (every page is fetched), escalation off, SSRF protection off (loopback). The fakes
 * and proxies share this process's event loop with the agent.
 *
 *   bun scripts/bench/agent.ts [--runs N] [--json]     (also part of research.ts: --agent-runs N)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "../../src/agent/index.ts";
import { loadConfig } from "../../src/config.ts";
import { createEngines } from "../../src/pipeline/engines.ts";
import { AgentBody } from "../../src/schemas/agent.ts";
import { validate } from "../../src/schemas/validate.ts";
import { openStore } from "../../src/store/index.ts";
import { type FakeLlmRequest, type FakeReply, startFakeLlm } from "../../test/helpers/fake-llm.ts";
import { RESULT_PAGES, startFakeSearch } from "../../test/helpers/fake-search.ts";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { startLatencyProxy } from "./latency-proxy.ts";
import { median, round1 } from "./stats.ts";

const KEY = "sk-bench-agent";
const LLM_MS = 400;
const WRITE_CHUNKS = 20;
const CHUNK_MS = 20;
const SEARCH_MS = 100;
const WARM_UP = 2;
/** Siphon's own time, as a share of the wall time, that the issue sets as the target. */
export const TARGET_SHARE = 0.1;
const PROMPT = "What did the council decide about the riverside solar farm, and what happens next?";
const WRITTEN = `The council approved the riverside solar farm by 7 votes to 2 [1], after a debate on the river \
views and the grid connection [2]. Opponents asked for a later start [3], and building is due to begin next spring [1][3].

KEY FINDINGS:
- The council approved the solar farm 7-2 [1]
- The grid connection was debated [2]
- Building starts next spring [1][3]`;

type Depth = "basic" | "thorough";
type Call = NonNullable<FakeReply["toolCalls"]>[number];
const search = (query: string): Call => ({ name: "search_web", arguments: { query } });
const finish: Call = { name: "finish", arguments: {} };

/**
 * Each depth's script: the tool calls of each research turn (a list of numbers is one fetch_page
 * call of those result pages), the gap check's queries, and what a run must add up to.
 */
const PLANS: Record<Depth, { turns: (Call | number[])[][]; gaps: string[]; pages: number; llm: string }> = {
  basic: {
    // The third page reaches the source limit, which ends the research: finish is never asked for.
    turns: [[search("riverside solar farm vote")], [[0, 1, 2]], [finish]],
    gaps: [],
    pages: 3,
    llm: "2 turns, write",
  },
  thorough: {
    turns: [
      [search("riverside solar farm vote"), search("solar farm council decision")],
      [[0, 1, 2, 3]],
      [search("solar farm objections"), [5, 6, 7]],
      [[8, 9]],
      [finish],
    ],
    // Its top results are pages 0-4, of which only page 4 is unread: the gap round reads it.
    gaps: ["solar farm construction timeline"],
    pages: 10,
    llm: "5 turns, gaps, write",
  },
};

/** Which call a request to the fake LLM is: a research turn (tools offered), the gap check, or the writer. */
function kind(req: FakeLlmRequest): "turn" | "gaps" | "write" {
  if (req.tools.length) return "turn";
  const format = req.body?.response_format as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name === "gaps" ? "gaps" : "write";
}

/** The written answer in `n` pieces of whole words. */
function pieces(text: string, n: number): string[] {
  const words = text.match(/\S+\s*/g) ?? [text];
  const at = (i: number) => Math.round((i * words.length) / n);
  return Array.from({ length: n }, (_, i) => words.slice(at(i), at(i + 1)).join(""));
}

/** Total length of the union of `intervals` within [from, to]. */
export function unionMs(intervals: [number, number][], from: number, to: number): number {
  const clipped = intervals
    .map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = from;
  for (const [s, e] of clipped) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}

export interface DepthFigures {
  depth: Depth;
  runs: number;
  /** Pages fetched (creditsUsed), equal in every run to the fixture site's hits. */
  pages: number;
  llmCalls: string;
  searches: number;
  /** Medians over the runs, ms. */
  wallMs: number;
  /** Union of the intervals with a request open at any fake. */
  waitingMs: number;
  /** The same for the fake LLM alone, and for the site and search engine alone. */
  llmWaitMs: number;
  webWaitMs: number;
  /** Wall time less waiting. */
  siphonMs: number;
  /** siphonMs / wallMs, percent: median, lowest and highest run. */
  siphonPercent: number;
  siphonPercentRange: [number, number];
  met: boolean;
}

/** Runs each depth WARM_UP + `runs` times against fresh fakes; `log` gets progress lines. */
export async function agentFigures(runs: number, log: (line: string) => void): Promise<DepthFigures[]> {
  const delays = new Map(RESULT_PAGES.slice(0, 10).map((p, i) => [p.path, 50 + Math.round((i * 100) / 9)]));
  const site = await startFixtureSite();
  const siteProxy = startLatencyProxy(site.url, (path) => delays.get(path) ?? 0);
  const engines = startFakeSearch(siteProxy.url);
  const searchOrigin = new URL(engines.duckduckgoUrl).origin;
  const searchProxy = startLatencyProxy(searchOrigin, () => SEARCH_MS);
  const llm = await startFakeLlm({ keys: [KEY] });
  const llmProxy = startLatencyProxy(llm.origin, () => 0);
  const proxies = [siteProxy, searchProxy, llmProxy];
  const home = mkdtempSync(join(tmpdir(), "siphon-bench-agent-"));
  const config = loadConfig(
    {},
    {
      home,
      disableSsrfProtection: true,
      cacheEnabled: false,
      escalation: false,
      duckduckgoUrl: engines.duckduckgoUrl.replace(searchOrigin, searchProxy.url),
      openaiBaseUrl: `${llmProxy.url}${new URL(llm.baseUrl("openai")).pathname}`,
    },
  );
  const store = await openStore(config);
  const shared = createEngines(config);
  const deps = { config, store, engines: shared, onEvent: () => {} };
  const page = (i: number) => `${siteProxy.url}${RESULT_PAGES[i]!.path}`;

  /** One run; its figures, checked against what the plan must add up to. */
  async function run(depth: Depth) {
    const plan = PLANS[depth];
    llm.reply = (req) => {
      const k = kind(req);
      const usage = { prompt_tokens: 100, completion_tokens: 10 };
      if (k === "gaps") return { json: { missing: plan.gaps }, delayMs: LLM_MS, usage };
      if (k === "write")
        return { chunks: pieces(WRITTEN, WRITE_CHUNKS), delayMs: LLM_MS, chunkDelayMs: CHUNK_MS };
      const turn = plan.turns[req.messages.filter((m) => m.role === "assistant").length] ?? [finish];
      const calls = turn.map((c) =>
        Array.isArray(c) ? { name: "fetch_page", arguments: { urls: c.map(page) } } : c,
      );
      return { toolCalls: calls, delayMs: LLM_MS, usage };
    };
    llm.requests.length = 0;
    engines.clear();
    site.resetHits();
    for (const proxy of proxies) proxy.intervals.length = 0;
    const input = validate(AgentBody, { prompt: PROMPT, llmProvider: "openai", llmApiKey: KEY, depth });
    const t0 = performance.now();
    const outcome = await runAgent(input, deps);
    const t1 = performance.now();
    const hits = RESULT_PAGES.reduce((sum, p) => sum + site.hits(p.path), 0);
    const calls = llm.requests.map(kind);
    const turns = calls.filter((c) => c === "turn").length;
    const llmCalls = `${turns} turns, ${calls.slice(turns).join(", ")}`;
    const keyFindings = (outcome.response.data.keyFindings as string[] | undefined) ?? [];
    if (
      outcome.pagesFetched !== plan.pages ||
      hits !== plan.pages ||
      llmCalls !== plan.llm ||
      !keyFindings.length
    )
      throw new Error(`${depth}: ${outcome.pagesFetched} pages, ${hits} site hits, LLM calls ${llmCalls}`);
    const waiting = unionMs(
      proxies.flatMap((p) => p.intervals),
      t0,
      t1,
    );
    return {
      wall: t1 - t0,
      waiting,
      llm: unionMs(llmProxy.intervals, t0, t1),
      web: unionMs([...siteProxy.intervals, ...searchProxy.intervals], t0, t1),
      searches: engines.requests.length,
      llmCalls,
    };
  }

  try {
    const figures: DepthFigures[] = [];
    for (const depth of ["basic", "thorough"] as const) {
      log(`agent, ${depth}: ${WARM_UP} warm-up and ${runs} runs…`);
      const all: Awaited<ReturnType<typeof run>>[] = [];
      for (let i = -WARM_UP; i < runs; i++) {
        const r = await run(depth);
        if (i >= 0) all.push(r);
      }
      const shares = all.map((r) => (100 * (r.wall - r.waiting)) / r.wall);
      const share = median(shares);
      figures.push({
        depth,
        runs,
        pages: PLANS[depth].pages,
        llmCalls: all[0]!.llmCalls,
        searches: all[0]!.searches,
        wallMs: round1(median(all.map((r) => r.wall))),
        waitingMs: round1(median(all.map((r) => r.waiting))),
        llmWaitMs: round1(median(all.map((r) => r.llm))),
        webWaitMs: round1(median(all.map((r) => r.web))),
        siphonMs: round1(median(all.map((r) => r.wall - r.waiting))),
        siphonPercent: round1(share),
        siphonPercentRange: [round1(Math.min(...shares)), round1(Math.max(...shares))],
        met: share < TARGET_SHARE * 100,
      });
    }
    return figures;
  } finally {
    await shared.close();
    await store.close();
    rmSync(home, { recursive: true, force: true });
    for (const proxy of proxies) await proxy.stop();
    await llm.stop();
    await engines.stop();
    await site.stop();
  }
}

/** The figures as a Markdown table and a line on the target. */
export function agentReport(figures: DepthFigures[]): string {
  const head = ["Depth", "Runs", "Pages (= site hits)", "LLM calls", "Searches", "Wall ms"];
  head.push("Waiting ms (LLM / site+search)", "Siphon ms", "Siphon share (runs' range)");
  const rows = figures.map((f) => [
    f.depth,
    f.runs,
    f.pages,
    f.llmCalls,
    f.searches,
    f.wallMs,
    `${f.waitingMs} (${f.llmWaitMs} / ${f.webWaitMs})`,
    f.siphonMs,
    `${f.siphonPercent}% (${f.siphonPercentRange.join("-")}%)`,
  ]);
  const table = [head, head.map((_, i) => (i ? "---:" : "---")), ...rows].map((r) => `| ${r.join(" | ")} |`);
  const target = figures.map((f) => `${f.depth} ${f.met ? "met" : "missed"}`).join(", ");
  return [
    `Research agent against the fakes (LLM ${LLM_MS} ms a call, the answer in ${WRITE_CHUNKS} chunks ${CHUNK_MS} ms apart; ` +
      `pages 50-150 ms; search ${SEARCH_MS} ms; medians)\n`,
    ...table,
    `\nTarget: siphon's share of the wall time < ${TARGET_SHARE * 100}% (median): ${target}.`,
  ].join("\n");
}

if (import.meta.main) {
  const json = hasFlag("json");
  const figures = await agentFigures(numberFlag("runs", 7), (line) => json || console.error(line));
  console.log(
    json
      ? JSON.stringify({ agent: { targetPercent: TARGET_SHARE * 100, figures } }, null, 2)
      : agentReport(figures),
  );
}

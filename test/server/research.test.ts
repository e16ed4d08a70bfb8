import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { weekStart } from "../../src/auth/week.ts";
import { GAP_SCHEMA_NAME, PLAN_SCHEMA_NAME } from "../../src/research/index.ts";
import type {
  DeepResearchEvent,
  DeepResearchResponse,
  ResearchCitation,
  ResearchResponse,
} from "../../src/schemas/research.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, type FakeLlmRequest, type FakeReply, startFakeLlm } from "../helpers/fake-llm.ts";
import { CLOSED_URL, type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

const KEY = "sk-research-caller-5d1e9a3c7b2f4e6aSECRET";
/** The operator's key (SIPHON_LLM_API_KEY) of `serviceApp`. */
const SERVICE_KEY = "sk-research-service-8c4a2e6f0b1d3c5eSECRET";

let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;
/** No LLM of its own; the cache is off so every page read reaches the fixture site. */
let app: TestApp;
/** Has its own LLM: SIPHON_LLM_PROVIDER openai, SIPHON_LLM_API_KEY, SIPHON_LLM_MODEL. */
let serviceApp: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [KEY, SERVICE_KEY], keyEcho: "full" });
  const common = {
    duckduckgoUrl: engines.duckduckgoUrl,
    openaiBaseUrl: llm.baseUrl("openai"),
    anthropicBaseUrl: llm.baseUrl("anthropic"),
    googleBaseUrl: llm.baseUrl("google"),
    escalation: false,
    fetchTimeoutMs: 3000,
    cacheEnabled: false,
  };
  app = await startTestApp(common);
  serviceApp = await startTestApp({
    ...common,
    llmProvider: "openai",
    llmApiKey: SERVICE_KEY,
    llmModel: "service-model",
  });
});
afterAll(async () => {
  await app.close();
  await serviceApp.close();
  await llm.stop();
  await engines.stop();
  await site.stop();
});

/** What the fake model answers: the plan, each gap check (by its number, from 1), and the report. */
interface Script {
  plan?: FakeReply;
  gap?: (n: number) => FakeReply;
  report?: FakeReply;
}

const PLAN = ["solar farm council vote", "http client timeouts", "tide mill restoration"];
const REPORT = "The council approved the farm [1]. Timeouts are set per client [2][3]. Not a source [9].";

function schemaName(request: FakeLlmRequest): string | undefined {
  const format = request.body?.response_format as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name;
}

function play(script: Script = {}): void {
  let gaps = 0;
  llm.reply = (request) => {
    const name = schemaName(request);
    if (name === PLAN_SCHEMA_NAME) {
      return (
        script.plan ?? { json: { subQuestions: PLAN }, usage: { prompt_tokens: 100, completion_tokens: 10 } }
      );
    }
    if (name === GAP_SCHEMA_NAME) {
      gaps++;
      return (
        script.gap?.(gaps) ?? {
          json: { answered: false, missing: [`follow up question ${gaps}`] },
          usage: { prompt_tokens: 200, completion_tokens: 20 },
        }
      );
    }
    return script.report ?? { text: REPORT, usage: { prompt_tokens: 1000, completion_tokens: 50 } };
  };
}

/** The calls the model received, by kind, in order. */
const calls = () =>
  llm.requests.map((r) =>
    schemaName(r) === PLAN_SCHEMA_NAME ? "plan" : schemaName(r) === GAP_SCHEMA_NAME ? "gap" : "report",
  );

const resultPaths = RESULT_PAGES.map((p) => p.path);
/** Result pages the fixture site served since the test began. */
const pagesServed = () => resultPaths.reduce((sum, path) => sum + site.hits(path), 0);

beforeEach(() => {
  engines.clear();
  site.resetHits();
  llm.requests.length = 0;
  play();
});

/** Every body and header this file saw, to check no key ever shows in one. */
const seen: string[] = [];

async function post(
  path: string,
  body: Record<string, unknown>,
  on = app,
  headers: Record<string, string> = {},
) {
  const res = await on.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  seen.push(await res.clone().text(), JSON.stringify([...res.headers]));
  return res;
}

const mine = { provider: "openai", apiKey: KEY };

async function ok<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T & { success: boolean };
  expect(res.status).toBe(200);
  expect(body.success).toBe(true);
  return body;
}

async function failed(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  const error = await errorOf(res);
  expect(error.type).toBe(type);
  return error;
}

/** Reads a text/event-stream body into its events, checking each is one `data:` line of JSON. */
async function events(res: Response): Promise<DeepResearchEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const text = await res.text();
  seen.push(text);
  return text
    .trimEnd()
    .split("\n\n")
    .map((block) => {
      expect(block).toStartWith("data: ");
      expect(block.split("\n")).toHaveLength(1);
      return JSON.parse(block.slice(6)) as DeepResearchEvent;
    });
}

/** Every citation is a page the fixture site served, and every marker of the report names one. */
function checkCitations(report: string, citations: ResearchCitation[], sourcesUsed: number) {
  for (const citation of citations) {
    expect(citation.url.startsWith(site.url)).toBe(true);
    expect(site.hits(new URL(citation.url).pathname)).toBeGreaterThanOrEqual(1);
    expect(citation.index).toBeLessThanOrEqual(sourcesUsed);
  }
  const markers = [...report.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  expect(markers.length).toBeGreaterThan(0);
  expect([...new Set(markers)].sort()).toEqual(citations.map((c) => c.index));
}

describe("POST /v1/research", () => {
  test("quick: one search, the top pages read, a report whose markers all name a fetched, cited page", async () => {
    const body = await ok<ResearchResponse>(
      await post("/v1/research", { query: "What did the city council approve?", maxSources: 3, llm: mine }),
    );
    expect(body.query).toBe("What did the city council approve?");
    expect(body.report).toBe(
      "The council approved the farm [1]. Timeouts are set per client [2][3]. Not a source.",
    );
    expect(body.sourcesUsed).toBe(3);
    expect(body.citations.map((c) => c.index)).toEqual([1, 2, 3]);
    expect(body.citations.map((c) => c.url)).toEqual(
      RESULT_PAGES.slice(0, 3).map((p) => `${site.url}${p.path}`),
    );
    expect(body.tokensUsed).toEqual({ input: 1000, output: 50 });
    expect(body.elapsed).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(body.elapsed)).toBe(true);
    checkCitations(body.report, body.citations, body.sourcesUsed);

    expect(calls()).toEqual(["report"]);
    expect(engines.of("duckduckgo")).toHaveLength(1);
    expect(pagesServed()).toBe(3);
    const prompt = llm.requests[0]!.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("Research question: What did the city council approve?");
    expect(prompt).toContain(`[3] ${body.citations[2]!.title}\nURL: ${body.citations[2]!.url}`);
    expect(prompt).not.toContain("[4] ");
  });

  test("quick: only cited pages are citations, with their own numbers", async () => {
    play({ report: { text: "Only the docs matter [2]." } });
    const body = await ok<ResearchResponse>(
      await post("/v1/research", { query: "council", maxSources: 3, llm: mine }),
    );
    expect(body.sourcesUsed).toBe(3);
    expect(body.citations).toHaveLength(1);
    expect(body.citations[0]).toMatchObject({ index: 2, url: `${site.url}/docs` });
  });

  test("quick: a result whose page cannot be fetched is neither numbered nor cited", async () => {
    const body = await ok<ResearchResponse>(
      await post("/v1/research", { query: "tide broken", maxSources: 3, llm: mine }),
    );
    expect(body.sourcesUsed).toBe(2);
    expect(body.citations.map((c) => c.url)).not.toContain(CLOSED_URL);
    expect(body.citations.map((c) => c.url)).toEqual([`${site.url}/docs`, `${site.url}/forum`]);
    expect(body.report).toBe(
      "The council approved the farm [1]. Timeouts are set per client [2]. Not a source.",
    );
  });

  test("depth deep runs the deep loop and answers in research's shape", async () => {
    play({ gap: () => ({ json: { answered: true, missing: [] } }) });
    const body = await ok<ResearchResponse>(
      await post("/v1/research", { query: "solar farm", depth: "deep", maxSources: 12, llm: mine }),
    );
    expect(Object.keys(body).sort()).toEqual(
      ["citations", "elapsed", "query", "report", "sourcesUsed", "success", "tokensUsed"].sort(),
    );
    expect(calls()).toEqual(["plan", "gap", "report"]);
    expect(engines.of("duckduckgo")).toHaveLength(PLAN.length);
    checkCitations(body.report, body.citations, body.sourcesUsed);
  });
});

describe("POST /v1/deep-research", () => {
  test("rounds: the plan, a gap check per round but the last, the report; each round searches its gaps", async () => {
    const body = await ok<DeepResearchResponse>(
      await post("/v1/deep-research", {
        question: "Solar farm and tide mills",
        maxRounds: 3,
        maxSources: 9,
        llm: mine,
      }),
    );
    expect(body.roundsCompleted).toBe(3);
    expect(calls()).toEqual(["plan", "gap", "gap", "report"]);
    const queries = engines.of("duckduckgo").map((r) => r.params.q);
    expect(queries).toEqual([...PLAN, "follow up question 1", "follow up question 2"]);
    // Tokens of all four calls.
    expect(body.tokensUsed).toEqual({ input: 100 + 200 + 200 + 1000, output: 10 + 20 + 20 + 50 });
    // The gap check reads what was found; the report is asked with the sub-questions.
    const gap = llm.requests[1]!.messages.map((m) => m.content).join("\n");
    expect(gap).toContain(`Queries searched:\n- ${PLAN[0]}`);
    const report = llm.requests[3]!.messages.at(-1)!.content;
    expect(report).toContain("Research question: Solar farm and tide mills");
    expect(report).toContain("- follow up question 2");
  });

  test("respects maxRounds: the research ends after the last round though pages and gaps remain", async () => {
    const body = await ok<DeepResearchResponse>(
      await post("/v1/deep-research", { question: "solar farm", maxRounds: 2, maxSources: 12, llm: mine }),
    );
    expect(body.roundsCompleted).toBe(2);
    expect(calls()).toEqual(["plan", "gap", "report"]);
    expect(engines.of("duckduckgo")).toHaveLength(PLAN.length + 1);
    // The engine knows 10 pages, all read by then; 2 of the 12 allowed were left.
    expect(pagesServed()).toBe(10);
  });

  test("respects maxSources: never more pages in all, never one page twice, whatever the rounds", async () => {
    play({
      gap: (n) => ({ json: { answered: false, missing: [`gap ${n} a`, `gap ${n} b`, `gap ${n} c`] } }),
    });
    const body = await ok<DeepResearchResponse>(
      await post("/v1/deep-research", { question: "solar farm", maxRounds: 5, maxSources: 5, llm: mine }),
    );
    expect(pagesServed()).toBe(5);
    for (const path of resultPaths) expect(site.hits(path)).toBeLessThanOrEqual(1);
    // Round 1 read a page per sub-question (3), round 2 the 2 left for its 3 queries; no gap check after it.
    expect(body.roundsCompleted).toBe(2);
    expect(calls()).toEqual(["plan", "gap", "report"]);
    expect(body.sourcesUsed).toBeLessThanOrEqual(5);
    checkCitations(body.report, body.citations, body.sourcesUsed);
  });

  test("stops when the gap check finds nothing missing", async () => {
    play({ gap: () => ({ json: { answered: true, missing: [] } }) });
    const body = await ok<DeepResearchResponse>(
      await post("/v1/deep-research", { question: "solar farm", maxRounds: 4, llm: mine }),
    );
    expect(body.roundsCompleted).toBe(1);
    expect(calls()).toEqual(["plan", "gap", "report"]);
  });

  test("maxRounds 1 asks no gap check; a plan that is not JSON falls back to the question itself", async () => {
    play({ plan: { text: "Sure! Here are some sub-questions: …" } });
    const body = await ok<DeepResearchResponse>(
      await post("/v1/deep-research", {
        question: "riverside solar farm",
        maxRounds: 1,
        maxSources: 5,
        llm: mine,
      }),
    );
    expect(body.roundsCompleted).toBe(1);
    expect(calls()).toEqual(["plan", "report"]);
    expect(engines.of("duckduckgo").map((r) => r.params.q)).toEqual(["riverside solar farm"]);
    expect(pagesServed()).toBe(5);
  });

  test("stream: progress events in order, chunks with markers cleaned across borders, then done", async () => {
    play({
      report: {
        chunks: ["Farms [", "1", "] and mills [2", ", 40]", " differ [", "3]."],
        usage: { prompt_tokens: 900, completion_tokens: 30 },
      },
    });
    const { key } = await app.createKey("max");
    const auth = { authorization: `Bearer ${key}` };
    const list = await events(
      await post(
        "/v1/deep-research",
        { question: "solar farm", maxRounds: 2, maxSources: 10, stream: true, llm: mine },
        app,
        auth,
      ),
    );
    const kinds = list
      .map((e) => e.type)
      .filter((type, i, all) => type !== "chunk" || all[i - 1] !== "chunk");
    expect(kinds).toEqual([
      "decomposing",
      "searching",
      "fetching",
      "scoring",
      "gap_check",
      "searching",
      "fetching",
      "scoring",
      "synthesizing",
      "chunk",
      "done",
    ]);
    const rounds = list.flatMap((e) => ("round" in e ? [[e.type, e.round]] : []));
    expect(rounds).toEqual([
      ["decomposing", 1],
      ["searching", 1],
      ["fetching", 1],
      ["scoring", 1],
      ["gap_check", 1],
      ["searching", 2],
      ["fetching", 2],
      ["scoring", 2],
      ["synthesizing", 2],
    ]);
    for (const event of list) {
      if ("round" in event) {
        expect(Object.keys(event).sort()).toEqual(["message", "round", "type"]);
        expect(event.message.length).toBeGreaterThan(0);
      }
    }
    expect(list[0]).toMatchObject({ message: expect.stringContaining(PLAN[0]!) });
    expect(list[4]).toMatchObject({ message: expect.stringContaining("follow up question 1") });
    const text = list.flatMap((e) => (e.type === "chunk" ? [e.text] : [])).join("");
    expect(text).toBe("Farms [1] and mills [2] differ [3].");
    const done = list.at(-1)!;
    if (done.type !== "done") throw new Error("no done event");
    expect(Object.keys(done).sort()).toEqual(
      ["citations", "roundsCompleted", "sourcesUsed", "tokensUsed", "type"].sort(),
    );
    expect(done.roundsCompleted).toBe(2);
    expect(done.tokensUsed).toEqual({ input: 100 + 200 + 900, output: 10 + 20 + 30 });
    // The stream's tokens reach the request log as it ends (settled a moment after the last event).
    const logged = async () => {
      const res = await app.request("/v2/team/token-usage/historical", { headers: auth });
      return ((await res.json()) as { periods: { tokensUsed: number }[] }).periods.reduce(
        (sum, p) => sum + p.tokensUsed,
        0,
      );
    };
    for (let i = 0; i < 50 && (await logged()) < 1260; i++) await Bun.sleep(20);
    expect(await logged()).toBe(1260);
    checkCitations(text, done.citations, done.sourcesUsed);
    expect(pagesServed()).toBeLessThanOrEqual(10);
    expect(llm.requests.at(-1)?.stream).toBe(true);
  });

  test("a report stream that fails midway ends with an error event", async () => {
    play({ report: { chunks: ["one ", "two ", "three"], streamErrorAfter: 2 } });
    const list = await events(
      await post("/v1/deep-research", {
        question: "solar farm",
        maxRounds: 1,
        maxSources: 5,
        stream: true,
        llm: mine,
      }),
    );
    expect(list.slice(-3).map((e) => e.type)).toEqual(["chunk", "chunk", "error"]);
    const last = list.at(-1)!;
    if (last.type !== "error") throw new Error("no error event");
    expect(last.error.type).toBe("answer_failed");
  });

  test("every first-round search failing is search_failed: a JSON error, or an error event once streaming", async () => {
    play({ plan: { json: { subQuestions: ["captcha one", "captcha two"] } } });
    await failed(
      await post("/v1/deep-research", { question: "solar farm", maxRounds: 2, llm: mine }),
      500,
      "search_failed",
    );
    const list = await events(
      await post("/v1/deep-research", { question: "solar farm", maxRounds: 2, stream: true, llm: mine }),
    );
    expect(list.map((e) => e.type)).toEqual(["decomposing", "searching", "error"]);
    expect(calls()).not.toContain("report");
  });

  test("a client that leaves the stream aborts the model's request", async () => {
    const base = app.listen();
    play({ report: { chunks: Array.from({ length: 50 }, (_, i) => `word${i} `), chunkDelayMs: 100 } });
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/deep-research`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "solar farm", maxRounds: 1, maxSources: 5, stream: true, llm: mine }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes('"type":"chunk"')) text += decoder.decode((await reader.read()).value);
    controller.abort();
    const closed = await llm.waitForClientClose(3000);
    expect(closed.stream).toBe(true);
  });
});

describe("whose LLM", () => {
  test("without llm, the service's: its key, its model, at the vendor's base URL", async () => {
    const body = await ok<ResearchResponse>(
      await post("/v1/research", { query: "solar farm", maxSources: 2 }, serviceApp),
    );
    expect(body.report).toStartWith("The council approved");
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({
      authorization: `Bearer ${SERVICE_KEY}`,
      model: "service-model",
      path: "/openai/v1/chat/completions",
    });
    await ok(await post("/v1/deep-research", { question: "solar farm", maxRounds: 1 }, serviceApp));
    expect(llm.requests.slice(1).every((r) => r.authorization === `Bearer ${SERVICE_KEY}`)).toBe(true);
  });

  test("with llm, the caller's, all of it: the service's key never goes to the caller's server", async () => {
    await ok(
      await post(
        "/v1/research",
        {
          query: "solar farm",
          maxSources: 2,
          llm: { provider: "anthropic", apiKey: KEY, model: "claude-x" },
        },
        serviceApp,
      ),
    );
    expect(llm.requests[0]).toMatchObject({
      authorization: `Bearer ${KEY}`,
      model: "claude-x",
      path: "/anthropic/v1/chat/completions",
    });
    // A keyless OpenAI-compatible server of the caller's: sent the placeholder, not the service's key.
    const local = await startFakeLlm({ keys: [] });
    try {
      local.reply = llm.reply;
      await ok(
        await post(
          "/v1/deep-research",
          {
            question: "solar farm",
            maxRounds: 1,
            llm: { provider: "openai", apiBase: `${local.origin}/openai/v1`, model: "llama" },
          },
          serviceApp,
        ),
      );
      expect(local.requests).toHaveLength(2);
      for (const request of local.requests) {
        expect(request.model).toBe("llama");
        expect(request.authorization).not.toContain(SERVICE_KEY);
      }
      expect(llm.requests).toHaveLength(1);
    } finally {
      await local.stop();
    }
  });

  test("neither configured nor given: 400 with a hint saying how to give one, before any search", async () => {
    for (const [path, body] of [
      ["/v1/research", { query: "solar farm" }],
      ["/v1/deep-research", { question: "solar farm" }],
      ["/v1/deep-research", { question: "solar farm", stream: true }],
    ] as const) {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      const { error } = (await res.json()) as { error: { type: string; message: string; hint: string } };
      expect(error.type).toBe("invalid_request");
      expect(error.message).toContain("llm");
      expect(error.hint).toContain("llm {provider, apiKey}");
      expect(error.hint).toContain("SIPHON_LLM_PROVIDER");
    }
    expect(engines.requests).toHaveLength(0);
    expect(llm.requests).toHaveLength(0);
  });

  test("a caller's refused key is a 400 naming llm.apiKey, before any stream; the service's is the server's failure", async () => {
    for (const stream of [false, true]) {
      const res = await post("/v1/deep-research", {
        question: "solar farm",
        stream,
        llm: { provider: "openai", apiKey: `${KEY}-wrong` },
      });
      expect(res.headers.get("content-type")).toStartWith("application/json");
      const error = await failed(res, 400, "invalid_request");
      expect(error.message).toContain("llm.apiKey");
    }
    const broken = await startTestApp({
      duckduckgoUrl: engines.duckduckgoUrl,
      openaiBaseUrl: llm.baseUrl("openai"),
      llmProvider: "openai",
      llmApiKey: `${SERVICE_KEY}-revoked`,
    });
    try {
      const res = await post("/v1/research", { query: "solar farm", maxSources: 1 }, broken);
      const error = await failed(res, 500, "answer_failed");
      expect(error.message).toContain("This server's LLM");
      expect(error.message).toContain("SIPHON_LLM_API_KEY");
      seen.push(...broken.logs);
    } finally {
      await broken.close();
    }
  });
});

describe("validation", () => {
  test.each([
    ["/v1/research", "an empty query", { query: "" }, "query"],
    ["/v1/research", "a query of 2001 characters", { query: "x".repeat(2001) }, "query"],
    ["/v1/research", "depth medium", { query: "q", depth: "medium" }, "depth"],
    ["/v1/research", "maxSources 31", { query: "q", maxSources: 31 }, "maxSources"],
    ["/v1/research", "maxSources 11 with depth quick", { query: "q", maxSources: 11 }, "maxSources"],
    ["/v1/research", "an unknown vendor", { query: "q", llm: { provider: "mistral" } }, "llm.provider"],
    ["/v1/research", "llm without provider", { query: "q", llm: { apiKey: KEY } }, "llm.provider"],
    [
      "/v1/research",
      "an unknown llm field",
      { query: "q", llm: { provider: "openai", key: KEY } },
      "llm.key",
    ],
    ["/v1/deep-research", "maxRounds 6", { question: "q", maxRounds: 6 }, "maxRounds"],
    ["/v1/deep-research", "maxRounds 0", { question: "q", maxRounds: 0 }, "maxRounds"],
    ["/v1/deep-research", "maxSources 4", { question: "q", maxSources: 4 }, "maxSources"],
    ["/v1/deep-research", "maxSources 31", { question: "q", maxSources: 31 }, "maxSources"],
    ["/v1/deep-research", "stream as text", { question: "q", stream: "yes" }, "stream"],
    ["/v1/deep-research", "query instead of question", { query: "q" }, "question"],
  ])("%s: %s is a 400 naming %s", async (path, _, body, field) => {
    const error = await failed(await post(path, { llm: mine, ...body }), 400, "invalid_request");
    expect(error.message).toContain(field);
    expect(llm.requests).toHaveLength(0);
    expect(engines.requests).toHaveLength(0);
  });
});

test("credits: one per page fetched from its site, cached pages free; a stream is charged when it ends", async () => {
  const fresh = await startTestApp({
    duckduckgoUrl: engines.duckduckgoUrl,
    openaiBaseUrl: llm.baseUrl("openai"),
    escalation: false,
  });
  try {
    const { key, accountId } = await fresh.createKey("pro");
    const auth = { authorization: `Bearer ${key}` };
    const week = async () => await fresh.store.usage.weeklyCredits(accountId, weekStart(Date.now()));
    const quick = await post("/v1/research", { query: "solar farm", maxSources: 3, llm: mine }, fresh, auth);
    expect(quick.status).toBe(200);
    expect(quick.headers.get("x-credits-used")).toBe("3");
    const deep = await post(
      "/v1/deep-research",
      { question: "solar farm", maxRounds: 1, maxSources: 5, llm: mine },
      fresh,
      auth,
    );
    expect(deep.status).toBe(200);
    // Three of its five pages were cached by the quick research.
    expect(deep.headers.get("x-credits-used")).toBe("2");
    expect(await week()).toBe(5);
    const streamed = await post(
      "/v1/deep-research",
      { question: "solar farm", maxRounds: 1, maxSources: 8, stream: true, llm: mine },
      fresh,
      auth,
    );
    expect(streamed.headers.get("x-credits-used")).toBeNull();
    expect(streamed.headers.get("x-weekly-used")).toBe("5");
    await events(streamed);
    expect(await week()).toBe(8);
  } finally {
    await fresh.close();
  }
});

test("both routes and every shape are in the OpenAPI document", async () => {
  const doc = (await (await app.request("/docs/json")).json()) as {
    paths: Record<string, { post: Record<string, unknown> }>;
  };
  const research = doc.paths["/v1/research"]!.post as {
    requestBody: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } };
    responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  };
  expect(Object.keys(research.requestBody.content["application/json"].schema.properties)).toEqual(
    expect.arrayContaining(["query", "depth", "maxSources", "llm"]),
  );
  const ok200 = research.responses["200"]!.content!["application/json"]!.schema as {
    properties: Record<string, unknown>;
  };
  expect(Object.keys(ok200.properties)).toEqual(
    expect.arrayContaining(["query", "report", "citations", "sourcesUsed", "tokensUsed", "elapsed"]),
  );
  const deep = doc.paths["/v1/deep-research"]!.post as typeof research;
  expect(Object.keys(deep.requestBody.content["application/json"].schema.properties)).toEqual(
    expect.arrayContaining(["question", "llm", "maxRounds", "maxSources", "stream"]),
  );
  const sse = deep.responses["200"]!.content!["text/event-stream"]!.schema as { oneOf: unknown[] };
  const text = JSON.stringify(sse);
  for (const word of ["decomposing", "gap_check", "synthesizing", "chunk", "done", "roundsCompleted"]) {
    expect(text).toContain(word);
  }
  expect(deep.responses["200"]!.content!["application/json"]).toBeDefined();
  expect(deep.responses["400"]).toBeDefined();
});

test("no LLM key ever appears in a response, an error, a header or a server log", () => {
  expect(seen.length).toBeGreaterThan(30);
  for (const text of [...seen, ...app.logs, ...serviceApp.logs]) {
    for (const secret of [KEY, SERVICE_KEY]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(-12));
    }
  }
});

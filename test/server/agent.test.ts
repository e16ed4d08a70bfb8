import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { AgentEvent, AgentResponse } from "../../src/schemas/agent.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import {
  type FakeLlm,
  type FakeLlmRequest,
  type FakeReply,
  fakeErrors,
  startFakeLlm,
} from "../helpers/fake-llm.ts";
import { type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";

const KEY = "sk-agent-1c3e5a7b9d0f2e4a6c8bSECRET";

let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
  // No cache: every page read is a fetch the fixture site counts.
  app = await startTestApp({
    duckduckgoUrl: engines.duckduckgoUrl,
    openaiBaseUrl: llm.baseUrl("openai"),
    escalation: false,
    cacheEnabled: false,
    fetchTimeoutMs: 3000,
  });
});
afterAll(async () => {
  await app.close();
  await llm.stop();
  await engines.stop();
  await site.stop();
});
beforeEach(() => {
  engines.clear();
  site.resetHits();
  llm.requests.length = 0;
  llm.reply = () => ({});
});

const seen: string[] = [];
const page = (i: number) => `${site.url}${RESULT_PAGES[i]!.path}`;
const WRITTEN =
  "The council approved a solar farm [1] and documented timeouts [2] [9].\n\nKEY FINDINGS:\n- Solar farm approved [1]\n- Timeouts documented [2]";

/** Which kind of call a request is: a research turn (tools offered), the gap check, or the writer. */
function kind(req: FakeLlmRequest): "turn" | "gaps" | "write" {
  if (req.tools.length) return "turn";
  const format = req.body?.response_format as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name === "gaps" ? "gaps" : "write";
}

/** The research turns done so far in a request's conversation. */
const turnsOf = (req: FakeLlmRequest) => req.messages.filter((m) => m.role === "assistant").length;

/** A model that runs `turns` (tool calls per research turn), then finishes; the writer answers `write`. */
function script(turns: FakeReply["toolCalls"][], write: FakeReply = { text: WRITTEN }, gaps: string[] = []) {
  return (req: FakeLlmRequest): FakeReply => {
    const k = kind(req);
    if (k === "gaps") return { json: { missing: gaps }, usage: { prompt_tokens: 50, completion_tokens: 5 } };
    if (k === "write") return { usage: { prompt_tokens: 1000, completion_tokens: 40 }, ...write };
    const calls = turns[turnsOf(req)] ?? [{ name: "finish", arguments: {} }];
    return { toolCalls: calls, usage: { prompt_tokens: 100, completion_tokens: 10 } };
  };
}

async function agent(body: Record<string, unknown>, on = app, headers: Record<string, string> = {}) {
  const res = await on.request("/v1/agent", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ llmApiKey: KEY, ...body }),
  });
  seen.push(await res.clone().text(), JSON.stringify([...res.headers]));
  return res;
}

async function ok(res: Response): Promise<AgentResponse> {
  const body = (await res.json()) as AgentResponse;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  expect(body.success).toBe(true);
  return body;
}

async function failed(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  const error = await errorOf(res);
  expect(error.type).toBe(type);
  return error;
}

async function events(res: Response): Promise<AgentEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const text = await res.text();
  seen.push(text);
  return text
    .trimEnd()
    .split("\n\n")
    .map((block) => {
      expect(block).toStartWith("data: ");
      return JSON.parse(block.slice(6)) as AgentEvent;
    });
}

const search = (query: string) => ({ name: "search_web", arguments: { query } });
const fetchPages = (...urls: string[]) => ({ name: "fetch_page", arguments: { urls } });

describe("POST /v1/agent", () => {
  test("the model searches, reads, finishes; the answer cites exactly the pages read", async () => {
    llm.reply = script([[search("riverside solar farm vote")], [fetchPages(page(0), page(1))]]);
    const body = await ok(await agent({ prompt: "What did the council decide about the solar farm?" }));
    expect(body.sources).toEqual([page(0), page(1)]);
    expect(body.sourcesDetailed.map((s) => s.url)).toEqual(body.sources);
    expect(body.sourcesDetailed[0]?.title).toStartWith("City Council Approves");
    expect(body.answer).toBe("The council approved a solar farm [1] and documented timeouts [2].");
    expect(body.data).toEqual({
      answer: body.answer,
      keyFindings: ["Solar farm approved [1]", "Timeouts documented [2]"],
    });
    // Pages visited and credits are the fixture site's own count of requests.
    expect([site.hits("/article"), site.hits("/docs")]).toEqual([1, 1]);
    expect(body.pagesVisited).toBe(2);
    expect(body.creditsUsed).toBe(2);
    // Three research turns (search, fetch, finish) and the writer.
    expect(llm.requests.map(kind)).toEqual(["turn", "turn", "turn", "write"]);
    expect(body.tokensUsed).toEqual({ input: 3 * 100 + 1000, output: 3 * 10 + 40 });
    // The search reached the engine with the model's query; the model saw results and page text.
    expect(engines.of("duckduckgo").map((r) => r.params.q)).toEqual(["riverside solar farm vote"]);
    const last = llm.requests[2]!;
    expect(last.tools).toEqual(["search_web", "fetch_page", "finish"]);
    const toolText = last.messages
      .filter((m) => m.role === "tool")
      .map((m) => m.content)
      .join("\n");
    expect(toolText).toContain(page(0));
    expect(toolText).toContain(ARTICLE_SENTENCE.slice(0, 50));
    // The writer got the pages numbered as cited.
    const prompt = llm.requests[3]!.messages.at(-1)!.content;
    expect(prompt).toContain(`[1] ${body.sourcesDetailed[0]?.title}\nURL: ${page(0)}`);
    expect(prompt).toContain("Task: What did the council decide about the solar farm?");
  });

  test("basic depth: one search, three pages; more is refused and the model told why", async () => {
    llm.reply = script([
      [search("first")],
      [search("second"), fetchPages(page(0))],
      [fetchPages(page(1), page(2), page(3), page(4))],
    ]);
    const body = await ok(await agent({ prompt: "solar farm" }));
    expect(engines.of("duckduckgo")).toHaveLength(1);
    expect(body.pagesVisited).toBe(3);
    expect(body.sources).toEqual([page(0), page(1), page(2)]);
    expect(site.hits(RESULT_PAGES[3]!.path) + site.hits(RESULT_PAGES[4]!.path)).toBe(0);
    const told = llm.requests
      .at(-2)!
      .messages.filter((m) => m.role === "tool")
      .map((m) => m.content)
      .join("\n");
    expect(told).toContain("search budget is spent");
    // The source limit ended the research without another turn.
    expect(llm.requests.map(kind)).toEqual(["turn", "turn", "turn", "write"]);
  });

  test("maxCredits stops fetching at the cap and the answer says it was cut short", async () => {
    llm.reply = script([[fetchPages(page(0), page(1), page(2), page(3))]]);
    const body = await ok(await agent({ prompt: "solar farm", maxCredits: 2, maxSources: 10 }));
    expect(body.creditsUsed).toBe(2);
    expect(body.pagesVisited).toBe(2);
    const fetched = RESULT_PAGES.slice(0, 4).map((p) => site.hits(p.path));
    expect(fetched).toEqual([1, 1, 0, 0]);
    expect(body.warning).toContain("credit cap (maxCredits 2)");
    expect(body.answer).toEndWith(body.warning!);
  });

  test("a server without tool calling gets the fixed plan: search the task, read the top results", async () => {
    llm.reply = (req) =>
      req.tools.length
        ? {
            status: 400,
            errorBody: {
              error: { message: "model llama3 does not support tools", type: "invalid_request_error" },
            },
          }
        : { text: "Plan answer [1]." };
    const body = await ok(await agent({ prompt: "tide mills" }));
    expect(engines.of("duckduckgo").map((r) => r.params.q)).toEqual(["tide mills"]);
    expect(body.sources).toEqual([page(0), page(1), page(2)]);
    expect(body.answer).toBe("Plan answer [1].");
  });

  test("a model that answers without calling a tool also gets the fixed plan", async () => {
    llm.reply = (req) =>
      req.tools.length ? { text: "I think the answer is 42." } : { text: "Grounded [2]." };
    const body = await ok(await agent({ prompt: "tide mills", maxSources: 2 }));
    expect(body.sources).toEqual([page(0), page(1)]);
    expect(body.answer).toBe("Grounded [2].");
  });

  test("urls: starts from the given pages and offers no search", async () => {
    llm.reply = script([[fetchPages(page(2))]]);
    const body = await ok(await agent({ prompt: "what do the pages say", urls: [page(0), page(1)] }));
    expect(engines.requests).toHaveLength(0);
    expect(body.sources).toEqual([page(0), page(1), page(2)]);
    expect(llm.requests[0]?.tools).toEqual(["fetch_page", "finish"]);
  });

  test("thorough: the gap round searches what is still missing and reads it", async () => {
    llm.reply = script([[search("solar farm")], [fetchPages(page(0))]], { text: "Thorough [1][2]." }, [
      "battery storage size",
    ]);
    const body = await ok(await agent({ prompt: "solar farm", depth: "thorough", maxSources: 3 }));
    expect(engines.of("duckduckgo").map((r) => r.params.q)).toEqual(["solar farm", "battery storage size"]);
    expect(llm.requests.map(kind)).toEqual(["turn", "turn", "turn", "gaps", "write"]);
    // The gap search's results, minus the page already read, up to maxSources.
    expect(body.sources).toEqual([page(0), page(1), page(2)]);
  });

  test("topic news asks the engine for the past month", async () => {
    llm.reply = script([[search("election")], [fetchPages(page(0))]]);
    await ok(await agent({ prompt: "latest election", topic: "news" }));
    expect(engines.of("duckduckgo")[0]?.params.df).toBe("m");
  });

  describe("outputSchema", () => {
    const schema = {
      type: "object",
      properties: { decision: { type: "string" }, votesFor: { type: "integer" } },
      required: ["decision", "votesFor"],
      additionalProperties: false,
    };

    test("a JSON answer that fails the schema is repaired with the validation errors", async () => {
      let writes = 0;
      llm.reply = (req) => {
        if (kind(req) === "turn") return script([[fetchPages(page(0))]])(req);
        writes++;
        return writes === 1
          ? { json: { decision: "approved", votesFor: "seven" } }
          : { json: { decision: "approved", votesFor: 7 } };
      };
      const body = await ok(await agent({ prompt: "council vote", outputSchema: schema }));
      expect(body.data).toEqual({ decision: "approved", votesFor: 7 });
      expect(JSON.parse(body.answer)).toEqual(body.data);
      const repair = llm.requests.at(-1)!.messages.at(-1)!.content;
      expect(repair).toContain("/votesFor must be integer");
    });

    test("the legacy schema field works the same", async () => {
      llm.reply = (req) =>
        kind(req) === "turn"
          ? script([[fetchPages(page(0))]])(req)
          : { json: { decision: "yes", votesFor: 7 } };
      const body = await ok(await agent({ prompt: "council vote", schema }));
      expect(body.data).toEqual({ decision: "yes", votesFor: 7 });
    });

    test("an answer that never validates is answer_failed listing what failed, after two repairs", async () => {
      llm.reply = (req) =>
        kind(req) === "turn" ? script([[fetchPages(page(0))]])(req) : { json: { decision: 1 } };
      const error = await failed(
        await agent({ prompt: "council vote", outputSchema: schema }),
        500,
        "answer_failed",
      );
      expect(error.message).toContain("after 2 repairs");
      expect(error.message).toContain("votesFor");
      expect(llm.requests.filter((r) => kind(r) === "write")).toHaveLength(3);
    });

    test("a schema that is not JSON Schema is a 400 before any work", async () => {
      const error = await failed(
        await agent({ prompt: "x", outputSchema: { type: "object", properties: { a: { type: "nope" } } } }),
        400,
        "invalid_request",
      );
      expect(error.message).toContain("not a valid JSON Schema");
      expect(llm.requests).toHaveLength(0);
      expect(engines.requests).toHaveLength(0);
    });
  });

  test("stream: step events as it works, chunk events with the answer, then done", async () => {
    llm.reply = script([[search("solar")], [fetchPages(page(0), page(1))]], {
      chunks: ["The council [", "1] approved it.", "\n\nKEY FIN", "DINGS:\n- one [1]"],
    });
    const list = await events(await agent({ prompt: "solar farm", stream: true }));
    const types = list.map((e) => e.type);
    expect(types.at(-1)).toBe("done");
    const firstChunk = types.indexOf("chunk");
    expect(types.slice(0, firstChunk).every((t) => t === "step")).toBe(true);
    expect(types.slice(firstChunk, -1).every((t) => t === "chunk")).toBe(true);
    const steps = list.filter((e) => e.type === "step");
    expect(steps[0]).toEqual({ type: "step", action: "searching", query: "solar" });
    expect(steps.filter((s) => s.action === "fetching").map((s) => s.url)).toEqual([page(0), page(1)]);
    expect(steps.at(-1)).toMatchObject({ action: "analyzing" });
    const text = list.flatMap((e) => (e.type === "chunk" ? [e.text] : [])).join("");
    const done = list.at(-1)!;
    if (done.type !== "done") throw new Error("no done");
    expect(text.trim()).toBe("The council [1] approved it.");
    expect(done.answer).toBe("The council [1] approved it.");
    expect(done.sources).toEqual([page(0), page(1)]);
    expect(done.data).toEqual({ answer: done.answer, keyFindings: ["one [1]"] });
  });

  test("stream: the tokens the run used go to the request log when the stream ends", async () => {
    const { key } = await app.createKey("max");
    const auth = { authorization: `Bearer ${key}` };
    const history = async () => {
      const res = await app.request("/v2/team/token-usage/historical", { headers: auth });
      const body = (await res.json()) as { periods: { tokensUsed: number }[] };
      return body.periods.reduce((sum, period) => sum + period.tokensUsed, 0);
    };
    llm.reply = script([[search("solar")], [fetchPages(page(0))]], {
      chunks: ["The council [1] approved it."],
    });
    const list = await events(await agent({ prompt: "solar farm", stream: true }, app, auth));
    const done = list.at(-1);
    if (done?.type !== "done") throw new Error("no done");
    const spent = done.tokensUsed.input + done.tokensUsed.output;
    expect(spent).toBeGreaterThan(0);
    // Settled as the stream ends: the log may take a moment behind the last event.
    for (let i = 0; i < 50 && (await history()) < spent; i++) await Bun.sleep(20);
    expect(await history()).toBe(spent);
  });

  test("stream: a refused key is a plain 400 before any event", async () => {
    const res = await agent({ prompt: "solar farm", stream: true, llmApiKey: `${KEY}x` });
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const error = await failed(res, 400, "invalid_request");
    expect(error.message).toContain("openai");
  });

  test("stream: a failure after work began ends the stream with an error event", async () => {
    llm.reply = (req) =>
      kind(req) === "turn" ? script([[fetchPages(page(0))]])(req) : fakeErrors.serverError(502);
    const list = await events(await agent({ prompt: "solar farm", stream: true }));
    const last = list.at(-1)!;
    expect(last.type).toBe("error");
    if (last.type === "error") expect(last.error.type).toBe("answer_failed");
  });

  test("credits of a streamed run are charged to the account when it ends", async () => {
    const auth = { authorization: `Bearer ${(await app.createKey("pro")).key}` };
    llm.reply = script([[fetchPages(page(0), page(1))]]);
    await events(await agent({ prompt: "solar farm", stream: true }, app, auth));
    const usage = await app.request("/v1/cli/usage", { headers: auth });
    const body = (await usage.json()) as {
      weekly?: { used?: number };
      usage?: { weekly?: { used?: number } };
    };
    expect(JSON.stringify(body)).toContain('"used":2');
  });

  test.each([
    ["no prompt", { prompt: "" }, "prompt"],
    ["maxSources 21", { prompt: "x", maxSources: 21 }, "maxSources"],
    ["an unknown depth", { prompt: "x", depth: "deep" }, "depth"],
    ["an unknown topic", { prompt: "x", topic: "sports" }, "topic"],
    ["no key", { prompt: "x", llmApiKey: undefined }, "llmApiKey"],
    ["maxCredits 0", { prompt: "x", maxCredits: 0 }, "maxCredits"],
  ])("%s is a 400 naming %s", async (_, body, field) => {
    const error = await failed(await agent(body), 400, "invalid_request");
    expect(error.message).toContain(field);
  });
});

test("the LLM key never appears in a response, an event or the server's log", () => {
  expect(seen.length).toBeGreaterThan(20);
  for (const text of [...seen, ...app.logs]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(-12));
  }
});

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { AnswerEvent, AnswerResponse } from "../../src/schemas/answer.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, fakeErrors, startFakeLlm } from "../helpers/fake-llm.ts";
import { CLOSED_URL, type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE, ARTICLE_TITLE } from "../helpers/site-pages/article.ts";

const KEY = "sk-answer-7f3a9c1e5b2d4f6a8c0eSECRET";

let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
  app = await startTestApp({
    duckduckgoUrl: engines.duckduckgoUrl,
    braveUrl: engines.braveUrl,
    openaiBaseUrl: llm.baseUrl("openai"),
    anthropicBaseUrl: llm.baseUrl("anthropic"),
    googleBaseUrl: llm.baseUrl("google"),
    escalation: false,
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
  llm.requests.length = 0;
  llm.reply = () => ({});
});

/** Every body and header this file saw, to check the key never shows in one. */
const seen: string[] = [];

async function ask(body: Record<string, unknown>, headers: Record<string, string> = {}, on = app) {
  const res = await on.request("/v1/answer", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ llmProvider: "openai", llmApiKey: KEY, ...body }),
  });
  seen.push(await res.clone().text(), JSON.stringify([...res.headers]));
  return res;
}

async function ok(res: Response): Promise<AnswerResponse> {
  const body = (await res.json()) as AnswerResponse;
  expect(res.status).toBe(200);
  expect(body.success).toBe(true);
  return body;
}

/** The format-B error of a response, after checking its status and type. */
async function failed(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  const error = await errorOf(res);
  expect(error.type).toBe(type);
  return error;
}

/** Reads a text/event-stream body into its events, checking each is one `data:` line of JSON. */
async function events(res: Response): Promise<AnswerEvent[]> {
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const text = await res.text();
  seen.push(text);
  expect(text.endsWith("\n\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n\n")
    .map((block) => {
      expect(block).toStartWith("data: ");
      expect(block.split("\n")).toHaveLength(1);
      return JSON.parse(block.slice(6)) as AnswerEvent;
    });
}

const urls = (count: number) => RESULT_PAGES.slice(0, count).map((p) => `${site.url}${p.path}`);

describe("POST /v1/answer", () => {
  test("the tokens an answer used go to the request log, as the weekly history shows", async () => {
    const { key } = await app.createKey("max");
    const history = async () => {
      const res = await app.request("/v2/team/token-usage/historical", {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json()) as { periods: { tokensUsed: number }[] };
      return body.periods.reduce((sum, period) => sum + period.tokensUsed, 0);
    };
    expect(await history()).toBe(0);
    llm.reply = () => ({
      text: "The council approved the farm [1].",
      usage: { prompt_tokens: 300, completion_tokens: 7 },
    });
    await ok(
      await ask(
        { question: "What did the city council approve?", maxSources: 1 },
        { authorization: `Bearer ${key}` },
      ),
    );
    expect(await history()).toBe(307);

    // A streamed answer is settled when its stream ends, with the tokens its done event reports.
    llm.reply = () => ({
      chunks: ["The council ", "approved it [1]."],
      usage: { prompt_tokens: 400, completion_tokens: 9 },
    });
    const streamed = await ask(
      { question: "What did the city council approve?", maxSources: 1, stream: true },
      { authorization: `Bearer ${key}` },
    );
    expect(streamed.headers.get("x-credits-used")).toBe("0");
    const done = (await events(streamed)).at(-1);
    expect(done).toMatchObject({ type: "done", tokensUsed: { input: 400, output: 9 } });
    for (let i = 0; i < 50 && (await history()) < 716; i++) await Bun.sleep(20);
    expect(await history()).toBe(716);
  });

  test("numbers the fetched sources, keeps markers in range and drops the rest", async () => {
    llm.reply = () => ({
      text: "The council approved the farm [1]. Timeouts are configurable [2][3]. Nothing here [7]. Both [1, 9].",
      usage: { prompt_tokens: 812, completion_tokens: 31 },
    });
    const body = await ok(await ask({ question: "What did the city council approve?", maxSources: 3 }));
    expect(body.answer).toBe(
      "The council approved the farm [1]. Timeouts are configurable [2][3]. Nothing here. Both [1].",
    );
    expect(body.citations.map((c) => c.url)).toEqual(urls(3));
    expect(body.citations[0]?.title).toStartWith(ARTICLE_TITLE);
    // The snippet is a passage of the page itself (the best-ranked one), not the engine's snippet.
    expect(body.citations[0]?.snippet).not.toStartWith(RESULT_PAGES[0]!.snippet);
    expect(body).toMatchObject({
      searchProvider: "duckduckgo",
      llmProvider: "openai",
      llmModel: "gpt-6-luna",
      tokensUsed: { input: 812, output: 31 },
    });
    for (const marker of body.answer.matchAll(/\[(\d+)\]/g)) {
      expect(Number(marker[1])).toBeGreaterThanOrEqual(1);
      expect(Number(marker[1])).toBeLessThanOrEqual(body.citations.length);
    }

    // What the model was given: the question, and each numbered source with its page text.
    expect(llm.requests).toHaveLength(1);
    const request = llm.requests[0]!;
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.path).toBe("/openai/v1/chat/completions");
    const prompt = request.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("Question: What did the city council approve?");
    expect(prompt).toContain(`[1] ${body.citations[0]?.title}\nURL: ${urls(1)[0]}`);
    expect(prompt).toContain(`[3] ${body.citations[2]?.title}\nURL: ${urls(3)[2]}`);
    expect(prompt).not.toContain("[4] ");
    expect(prompt).toContain(ARTICLE_SENTENCE.slice(0, 60));
    for (const citation of body.citations) expect(prompt).toContain(citation.snippet.replace(/…$/, ""));
    // The search asked for as many results as sources.
    expect(engines.of("duckduckgo")).toHaveLength(1);
  });

  test("each vendor is called at its own base URL with its default model; llmModel overrides", async () => {
    llm.reply = () => ({ text: "Answer [1]." });
    const anthropic = await ok(
      await ask({ question: "solar farm", llmProvider: "anthropic", maxSources: 1 }),
    );
    expect(anthropic).toMatchObject({ llmProvider: "anthropic", llmModel: "claude-haiku-5-5" });
    const google = await ok(
      await ask({ question: "solar farm", llmProvider: "google", llmModel: "gemini-x", maxSources: 1 }),
    );
    expect(google).toMatchObject({ llmProvider: "google", llmModel: "gemini-x" });
    expect(llm.requests.map((r) => [r.path, r.model])).toEqual([
      ["/anthropic/v1/chat/completions", "claude-haiku-5-5"],
      ["/google/v1beta/openai/chat/completions", "gemini-x"],
    ]);
  });

  test("llmApiBase sends the call to any OpenAI-compatible server", async () => {
    llm.reply = () => ({ text: "Local model [1]." });
    const body = await ok(
      await ask({
        question: "solar farm",
        llmApiBase: `${llm.origin}/google/v1beta/openai`,
        llmModel: "llama3.2",
        maxSources: 1,
      }),
    );
    expect(body).toMatchObject({ answer: "Local model [1].", llmProvider: "openai", llmModel: "llama3.2" });
    expect(llm.requests[0]?.path).toBe("/google/v1beta/openai/chat/completions");
  });

  test("a page that cannot be fetched is cited by its search snippet; the answer still comes", async () => {
    llm.reply = () => ({ text: "Gone [1], docs [2]." });
    const body = await ok(await ask({ question: "tide broken", maxSources: 2 }));
    expect(body.citations.map((c) => c.url)).toEqual([CLOSED_URL, `${site.url}/docs`]);
    expect(body.citations[0]?.snippet).toBe("Gone & more about tide.");
    expect(body.answer).toBe("Gone [1], docs [2].");
  });

  test("the brave key travels in x-search-api-key; brave is asked for maxSources results", async () => {
    const { BRAVE_KEY } = await import("../helpers/fake-search.ts");
    llm.reply = () => ({ text: "Brave [1]." });
    const body = await ok(
      await ask(
        { question: "solar farm", searchProvider: "brave", maxSources: 2 },
        { "x-search-api-key": BRAVE_KEY },
      ),
    );
    expect(body.searchProvider).toBe("brave");
    expect(body.citations).toHaveLength(2);
    const request = engines.of("brave")[0]!;
    expect(request.params.count).toBe("2");
    expect(request.headers["x-subscription-token"]).toBe(BRAVE_KEY);
  });

  test("stream=true: chunk events carry the text with markers cleaned across chunk borders, then done", async () => {
    llm.reply = () => ({
      chunks: [
        "Tide mills use ",
        "water [",
        "1",
        "] and the council voted [",
        "2, 8",
        "] again [",
        "9]",
        ".",
      ],
      usage: { prompt_tokens: 500, completion_tokens: 12 },
    });
    const res = await ask({ question: "What did the city council approve?", maxSources: 2, stream: true });
    expect(res.status).toBe(200);
    const list = await events(res);
    const done = list.at(-1)!;
    expect(list.slice(0, -1).every((e) => e.type === "chunk")).toBe(true);
    expect(list.length).toBeGreaterThan(3);
    const text = list.flatMap((e) => (e.type === "chunk" ? [e.text] : [])).join("");
    expect(text).toBe("Tide mills use water [1] and the council voted [2] again.");
    expect(done).toEqual({
      type: "done",
      citations: expect.any(Array),
      searchProvider: "duckduckgo",
      llmProvider: "openai",
      llmModel: "gpt-6-luna",
      tokensUsed: { input: 500, output: 12 },
    });
    if (done.type !== "done") throw new Error("no done event");
    expect(done.citations.map((c) => c.url)).toEqual(urls(2));
    expect(llm.requests[0]?.stream).toBe(true);
  });

  test("a stream that fails midway ends with an error event, not a hang or a 200 done", async () => {
    llm.reply = () => ({ chunks: ["one ", "two ", "three"], streamErrorAfter: 2 });
    const list = await events(await ask({ question: "solar farm", maxSources: 1, stream: true }));
    expect(list.map((e) => e.type)).toEqual(["chunk", "chunk", "error"]);
    const last = list.at(-1)!;
    if (last.type !== "error") throw new Error("no error event");
    expect(last.error.type).toBe("answer_failed");
    expect(last.error.message).toContain("openai");
  });

  test("a client that leaves a stream aborts the model's request", async () => {
    const base = app.listen();
    llm.reply = () => ({ chunks: Array.from({ length: 50 }, (_, i) => `word${i} `), chunkDelayMs: 100 });
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/answer`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        question: "solar farm",
        llmProvider: "openai",
        llmApiKey: KEY,
        maxSources: 1,
        stream: true,
      }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toStartWith('data: {"type":"chunk"');
    controller.abort();
    const closed = await llm.waitForClientClose(3000);
    expect(closed.stream).toBe(true);
  });

  test("a refused key is a 400 naming the vendor, before any stream starts, and the key is nowhere", async () => {
    for (const stream of [false, true]) {
      const res = await ask({ question: "solar farm", llmApiKey: `${KEY}x`, maxSources: 1, stream });
      expect(res.headers.get("content-type")).toStartWith("application/json");
      const error = await failed(res, 400, "invalid_request");
      expect(error.message).toContain("openai");
    }
  });

  test("vendor failures: 429 keeps Retry-After, 5xx is answer_failed", async () => {
    llm.reply = () => fakeErrors.rateLimited(17);
    const limited = await ask({ question: "solar farm", maxSources: 1 });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("17");
    llm.reply = () => fakeErrors.serverError(503);
    await failed(await ask({ question: "solar farm", maxSources: 1 }), 500, "answer_failed");
  });

  test("a search that finds nothing is answer_failed; one that fails is search_failed; neither calls the model", async () => {
    const none = await failed(await ask({ question: "nothing at all" }), 500, "answer_failed");
    expect(none.message).toContain("found no pages");
    const captcha = await failed(await ask({ question: "captcha please" }), 500, "search_failed");
    expect(captcha.message.toLowerCase()).toContain("captcha");
    expect(llm.requests).toHaveLength(0);
  });

  test.each([
    ["a question of 2001 characters", { question: "x".repeat(2001) }, "question"],
    ["an empty question", { question: "" }, "question"],
    ["maxSources 0", { question: "q", maxSources: 0 }, "maxSources"],
    ["maxSources 11", { question: "q", maxSources: 11 }, "maxSources"],
    ["an unknown vendor", { question: "q", llmProvider: "mistral" }, "llmProvider"],
    ["no LLM key", { question: "q", llmApiKey: undefined }, "llmApiKey"],
    ["an unknown search provider", { question: "q", searchProvider: "bing" }, "searchProvider"],
    ["stream as text", { question: "q", stream: "yes" }, "stream"],
  ])("%s is a 400 naming %s", async (_, body, field) => {
    const error = await failed(await ask(body), 400, "invalid_request");
    expect(error.message).toContain(field);
    expect(llm.requests).toHaveLength(0);
  });

  test("credits: one per page fetched from its site; cached pages are free", async () => {
    const fresh = await startTestApp({
      duckduckgoUrl: engines.duckduckgoUrl,
      openaiBaseUrl: llm.baseUrl("openai"),
      escalation: false,
    });
    try {
      const auth = { authorization: `Bearer ${(await fresh.createKey("pro")).key}` };
      llm.reply = () => ({ text: "Yes [1]." });
      const first = await ask({ question: "credits", maxSources: 3 }, auth, fresh);
      expect(first.status).toBe(200);
      expect(first.headers.get("x-credits-used")).toBe("3");
      const again = await ask({ question: "credits", maxSources: 3, stream: true }, auth, fresh);
      await events(again);
      expect(again.headers.get("x-credits-used")).toBe("0");
    } finally {
      await fresh.close();
    }
  });
});

test("the LLM key never appears in an answer, an error, a header or the server's log", () => {
  expect(seen.length).toBeGreaterThan(20);
  for (const text of [...seen, ...app.logs]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(-12));
  }
});

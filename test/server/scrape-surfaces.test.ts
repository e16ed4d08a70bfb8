import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FakeSearch, startFakeSearch } from "../helpers/fake-search.ts";
import {
  BRAND_CONTENT_IMAGE_PATH,
  BRAND_PRIMARY,
  type FixtureSite,
  PRODUCT_NAME,
  STRUCTURED_SCHEMAS,
  SUMMARY_FIRST_SENTENCE,
  startFixtureSite,
  structuredExpected,
} from "../helpers/fixture-site.ts";
import { runCli } from "../helpers/run.ts";

/**
 * One scrape operation behind every surface (src/pipeline/scrape.ts): what one surface can ask
 * of a page the others can too (summary, branding, change tracking, extraction, timeout), and the
 * same page outcome costs the same credits on native fetch, Firecrawl's scrape, MCP's
 * siphon_fetch, a batch and search with scraping.
 */

const LLM_KEY = "sk-surfaces-7d1c3b5a9e0f2d4cSECRET";
const OPERATOR_KEY = "sk-surfaces-operator-SECRET";
const SUMMARY = "Tide mills turn the tide into flour.";
/** Each run of the CLI starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;

let site: FixtureSite;
let llm: FakeLlm;
let engines: FakeSearch;
/** No operator LLM: native summaries are the caller's LLM's or extractive. */
let app: TestApp;
/** Has an operator LLM (SIPHON_LLM_*), which Firecrawl's routes use and native ones do not. */
let operated: TestApp;
let auth: Record<string, string>;
let home: string;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [LLM_KEY, OPERATOR_KEY] });
  engines = startFakeSearch(site.url);
  app = await startTestApp({
    escalation: false,
    fetchTimeoutMs: 5000,
    openaiBaseUrl: llm.baseUrl("openai"),
    duckduckgoUrl: engines.duckduckgoUrl,
  });
  operated = await startTestApp({
    escalation: false,
    fetchTimeoutMs: 5000,
    llmProvider: "openai",
    llmApiKey: OPERATOR_KEY,
    openaiBaseUrl: llm.baseUrl("openai"),
  });
  auth = { authorization: `Bearer ${(await app.createKey("max")).key}` };
  home = mkdtempSync(join(tmpdir(), "siphon-surfaces-"));
});
afterAll(async () => {
  await app.close();
  await operated.close();
  await engines.stop();
  await llm.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = () => ({});
});

const unique = (path: string) =>
  `${site.url}${path}${path.includes("?") ? "&" : "?"}id=${crypto.randomUUID()}`;

/** The key of `on`'s account (the operated app takes requests without one, as the local account). */
const keyOf = (on: TestApp) => (on === app ? auth : {});

/** POST /v1/fetch. */
function nativeFetch(body: Record<string, unknown>, on: TestApp = app) {
  return on.request("/v1/fetch", {
    method: "POST",
    headers: { "content-type": "application/json", ...keyOf(on) },
    body: JSON.stringify(body),
  });
}

async function resultOf(response: Response): Promise<FetchResult> {
  expect(response.status).toBe(200);
  return (await response.json()) as FetchResult;
}

/** POST /v2/scrape, Firecrawl's document. */
async function firecrawlScrape(body: Record<string, unknown>, on: TestApp = app) {
  const response = await on.request("/v2/scrape", {
    method: "POST",
    headers: { "content-type": "application/json", ...keyOf(on) },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as {
    data: Record<string, unknown> & { metadata: { creditsUsed: number } };
  };
  return { data, header: Number(response.headers.get("x-credits-used")) };
}

/** A siphon_fetch call over POST /mcp (JSON-RPC, stateless). */
async function mcpFetch(args: Record<string, unknown>) {
  const response = await app.request("/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...auth },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "siphon_fetch", arguments: args },
    }),
  });
  expect(response.status).toBe(200);
  const { result } = (await response.json()) as {
    result: {
      isError?: boolean;
      content: { type: string; text?: string }[];
      structuredContent: Record<string, unknown>;
    };
  };
  expect(result.isError).toBeFalsy();
  const text = result.content.find((block) => block.type === "text")?.text ?? "";
  return {
    structured: result.structuredContent,
    text,
    header: Number(response.headers.get("x-credits-used")),
  };
}

/** A batch of one URL, run to its end: its poll. */
async function batch(body: Record<string, unknown>) {
  const started = await app.request("/v1/batch/scrape", {
    method: "POST",
    headers: { "content-type": "application/json", ...auth },
    body: JSON.stringify(body),
  });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  for (let i = 0; i < 300; i++) {
    const poll = (await (await app.request(`/v1/batch/scrape/${id}`, { headers: auth })).json()) as {
      status: string;
      creditsUsed: number;
      data: Record<string, unknown>[];
    };
    if (poll.status === "completed" || poll.status === "failed") return poll;
    await Bun.sleep(50);
  }
  throw new Error("the batch did not finish");
}

describe("POST /v1/fetch makes what Firecrawl's scrape makes", () => {
  test("formats summary: the LLM the request names writes it; markdown is not added to the answer", async () => {
    llm.reply = () => ({ text: SUMMARY, usage: { prompt_tokens: 120, completion_tokens: 9 } });
    const result = await resultOf(
      await nativeFetch({
        url: `${site.url}/compat/summary`,
        formats: ["summary"],
        llmProvider: "openai",
        llmApiKey: LLM_KEY,
      }),
    );
    expect(result.summary).toBe(SUMMARY);
    expect(result.summaryTokensUsed).toEqual({ input: 120, output: 9 });
    expect(result.content).toContain(SUMMARY_FIRST_SENTENCE);
    expect(result.markdown).toBeUndefined();
    expect(result.rawHtml).toBeUndefined();
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.authorization).toBe(`Bearer ${LLM_KEY}`);
  });

  test("formats summary without an LLM is extractive, also on GET; the operator's LLM is Firecrawl's only", async () => {
    const result = await resultOf(
      await nativeFetch({ url: `${site.url}/compat/summary`, formats: ["markdown", "summary"] }),
    );
    expect(result.summary?.startsWith(SUMMARY_FIRST_SENTENCE)).toBe(true);
    expect(result.summary?.length).toBeLessThan(result.markdown?.length ?? 0);
    const viaGet = await resultOf(
      await app.request(`/v1/fetch?url=${encodeURIComponent(`${site.url}/compat/summary`)}&formats=summary`, {
        headers: auth,
      }),
    );
    expect(viaGet.summary).toBe(result.summary);

    llm.reply = () => ({ text: SUMMARY });
    const native = await resultOf(
      await nativeFetch({ url: `${site.url}/compat/summary`, formats: ["summary"] }, operated),
    );
    expect(native.summary?.startsWith(SUMMARY_FIRST_SENTENCE)).toBe(true);
    expect(llm.requests).toHaveLength(0);
    const firecrawl = await firecrawlScrape(
      { url: `${site.url}/compat/summary`, formats: ["summary"] },
      operated,
    );
    expect(firecrawl.data.summary).toBe(SUMMARY);
    expect(llm.requests[0]?.authorization).toBe(`Bearer ${OPERATOR_KEY}`);
  });

  test("formats branding: the page's colours, name and logo, as Firecrawl's", async () => {
    const result = await resultOf(
      await nativeFetch({ url: `${site.url}/compat/brand`, formats: ["branding"] }),
    );
    const branding = result.branding as { brandName: string; colors: { primary: string } };
    expect(branding.brandName).toBe("Kettle & Co");
    expect(branding.colors.primary).toBe(BRAND_PRIMARY);
    expect(result.rawHtml).toBeUndefined();
    const firecrawl = await firecrawlScrape({ url: `${site.url}/compat/brand`, formats: ["branding"] });
    expect(firecrawl.data.branding).toEqual(result.branding);
  });

  test("formats changeTracking: new, then changed with a git-style diff; a batch item carries it too", async () => {
    const url = unique("/compat/changing");
    const format = { type: "changeTracking", modes: ["git-diff"] };
    const first = await resultOf(await nativeFetch({ url, formats: ["markdown", format] }));
    expect(first.changeTracking).toMatchObject({ previousScrapeAt: null, changeStatus: "new" });
    const second = await resultOf(await nativeFetch({ url, formats: ["markdown", format] }));
    expect(second.changeTracking).toMatchObject({ changeStatus: "changed" });
    expect(JSON.stringify(second.changeTracking)).toContain("+Price: 14.50 GBP for 100 g");
    // Firecrawl's scrape of the same page, by the same account, compares with the same history.
    const third = await firecrawlScrape({ url, formats: ["markdown", format] });
    expect(third.data.changeTracking).toMatchObject({ changeStatus: "same" });
    // record: false compares and keeps nothing, as Firecrawl's zeroDataRetention.
    const unrecorded = { ...format, tag: "weekly", record: false };
    for (let i = 0; i < 2; i++) {
      const tagged = await resultOf(await nativeFetch({ url, formats: [unrecorded] }));
      expect(tagged.changeTracking).toMatchObject({ changeStatus: "new" });
    }

    const poll = await batch({ urls: [`${site.url}/compat/summary`], formats: ["markdown", "summary"] });
    expect(poll.status).toBe("completed");
    expect(String(poll.data[0]?.summary)).toStartWith(SUMMARY_FIRST_SENTENCE);
  });

  test("bad options of the new formats are 400s before anything is fetched", async () => {
    site.resetHits();
    const cases: [unknown[], string][] = [
      [[{ type: "changeTracking", modes: ["json"] }], '"json" mode is not supported'],
      [[{ type: "screenshot", quality: 0 }], "quality must be an integer from 1 to 100"],
      [[{ type: "screenshot", viewport: { width: 10 } }], "viewport.width must be an integer"],
      [[{ type: "question" }], "formats[0] (question): question is required"],
      [["highlights"], "the highlights format is an object"],
      [
        [{ type: "attributes", selectors: [{ selector: "a", attribute: "on click" }] }],
        "selectors.0.attribute has an invalid format",
      ],
      [
        [{ type: "attributes", selectors: [{ selector: "a:nope(", attribute: "href" }] }],
        "is not a CSS selector",
      ],
      [
        [
          { type: "highlights", query: "a" },
          { type: "highlights", query: "b" },
        ],
        "ask for highlights once",
      ],
    ];
    for (const [formats, message] of cases) {
      const response = await nativeFetch({ url: `${site.url}/article`, formats });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain(message);
    }
    const noKey = await nativeFetch({
      url: `${site.url}/article`,
      formats: ["summary"],
      llmProvider: "openai",
    });
    expect(noKey.status).toBe(400);
    expect((await errorOf(noKey)).message).toContain("needs llmApiKey");
    expect(site.hits("/article")).toBe(0);
  });

  test("formats question: the request's LLM answers from the page; without one the best passage, saying which", async () => {
    const question = { type: "question", question: "Where were the oldest tide mills built?" };
    llm.reply = () => ({ text: "In Ireland.", usage: { prompt_tokens: 140, completion_tokens: 4 } });
    const withLlm = await resultOf(
      await nativeFetch({
        url: `${site.url}/compat/summary`,
        formats: [question],
        llmProvider: "openai",
        llmApiKey: LLM_KEY,
      }),
    );
    expect(withLlm.answer).toBe("In Ireland.");
    expect(withLlm.answerMethod).toBe("llm");
    expect(withLlm.answerTokensUsed).toEqual({ input: 140, output: 4 });
    expect(withLlm.markdown).toBeUndefined();
    expect(JSON.stringify(llm.requests[0]?.messages)).toContain(question.question);

    const passage = await resultOf(
      await nativeFetch({ url: `${site.url}/compat/summary`, formats: [question] }),
    );
    expect(passage.answerMethod).toBe("passage");
    expect(passage.answer).toContain("The oldest known tide mills were built in Ireland");
    expect(passage.answerTokensUsed).toBeUndefined();
    // A quote answers with the page's words even when the request names an LLM.
    const quoted = await resultOf(
      await nativeFetch({
        url: `${site.url}/compat/summary`,
        formats: [{ ...question, quote: true }],
        llmProvider: "openai",
        llmApiKey: LLM_KEY,
      }),
    );
    expect(quoted.answer).toBe(passage.answer ?? "");
    expect(llm.requests).toHaveLength(1);
    const unanswered = await resultOf(
      await nativeFetch({
        url: `${site.url}/compat/summary`,
        formats: [{ type: "question", question: "Which airline flies to Lisbon?" }],
      }),
    );
    expect(unanswered.answer).toBeNull();
    expect(unanswered.answerMethod).toBe("passage");
  });

  test("formats highlights and attributes, and a batch item carries them", async () => {
    const result = await resultOf(
      await nativeFetch({
        url: `${site.url}/compat/brand`,
        formats: [
          "markdown",
          { type: "highlights", query: "refillable paper tins" },
          { type: "attributes", selectors: [{ selector: "figure img", attribute: "src" }] },
        ],
      }),
    );
    expect(result.highlights?.split("\n\n")[0]).toContain("paper tins");
    expect(result.attributes).toEqual([
      { selector: "figure img", attribute: "src", values: [BRAND_CONTENT_IMAGE_PATH] },
    ]);
    expect(result.rawHtml).toBeUndefined();
    const nothing = await resultOf(
      await nativeFetch({
        url: `${site.url}/compat/brand`,
        formats: [{ type: "highlights", query: "zeppelin" }],
      }),
    );
    expect(nothing.highlights).toBe("");

    const poll = await batch({
      urls: [`${site.url}/compat/brand`],
      formats: [
        "markdown",
        { type: "attributes", selectors: [{ selector: "a.btn-primary", attribute: "href" }] },
      ],
    });
    expect(poll.status).toBe("completed");
    expect(poll.data[0]?.attributes).toEqual([
      { selector: "a.btn-primary", attribute: "href", values: ["/compat/shop"] },
    ]);
  });

  test("timeout bounds the whole request: 504 timeout past it", async () => {
    const started = performance.now();
    const response = await nativeFetch({ url: `${site.url}/slow?ms=4000`, timeout: 1000, maxAge: 0 });
    expect(response.status).toBe(504);
    expect((await errorOf(response)).message).toContain("1000 ms");
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe("siphon fetch takes every page option", () => {
  const siphon = (args: string[], env: Record<string, string> = {}) =>
    runCli(["fetch", ...args], home, { ...llm.env(), ...env });

  test(
    "--extract-schema with --llm returns json from the model; @file without one fills it from the page",
    async () => {
      llm.reply = () => ({
        json: { name: PRODUCT_NAME },
        usage: { prompt_tokens: 50, completion_tokens: 5 },
      });
      const schema = '{"type":"object","properties":{"name":{"type":"string"}}}';
      const withLlm = await siphon(
        [`${site.url}/product`, "--extract-schema", schema, "--llm", "openai", "--json"],
        {
          OPENAI_API_KEY: LLM_KEY,
        },
      );
      expect(withLlm.stderr).toBe("");
      expect(withLlm.code).toBe(0);
      const result = JSON.parse(withLlm.stdout) as FetchResult;
      expect(result.json).toEqual({ name: PRODUCT_NAME });
      expect(result.extractTokensUsed).toMatchObject({ input: 50, output: 5 });
      expect(llm.requests[0]?.authorization).toBe(`Bearer ${LLM_KEY}`);

      const file = join(home, "product.schema.json");
      writeFileSync(file, JSON.stringify(STRUCTURED_SCHEMAS.product));
      const heuristic = await siphon([
        `${site.url}/structured/product/json-ld`,
        "--extract-schema",
        `@${file}`,
        "--json",
      ]);
      expect(heuristic.code).toBe(0);
      const expected = structuredExpected("product", site.url);
      expect((JSON.parse(heuristic.stdout) as FetchResult).json).toMatchObject({ name: expected.name });

      const prompt = await siphon([`${site.url}/product`, "--extract-prompt", "the name"]);
      expect(prompt.code).toBe(2);
      expect(prompt.stderr).toContain("A prompt needs an LLM");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "--formats summary,links; a JSON --formats for change tracking; --timeout",
    async () => {
      const run = await siphon([`${site.url}/compat/summary`, "--formats", "summary,links", "--json"]);
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as FetchResult;
      expect(result.summary?.startsWith(SUMMARY_FIRST_SENTENCE)).toBe(true);
      expect(Array.isArray(result.links)).toBe(true);
      expect(result.content).toContain(SUMMARY_FIRST_SENTENCE);
      expect(result.markdown).toBeUndefined();

      const url = unique("/compat/changing");
      const asked = JSON.stringify([
        { type: "question", question: "Where were the oldest tide mills built?" },
      ]);
      const answered = await siphon([`${site.url}/compat/summary`, "--formats", asked, "--json"]);
      expect(answered.code).toBe(0);
      const answer = JSON.parse(answered.stdout) as FetchResult;
      expect(answer.answerMethod).toBe("passage");
      expect(answer.answer).toContain("Ireland");

      const tracking = JSON.stringify([{ type: "changeTracking", modes: ["git-diff"] }]);
      const first = await siphon([url, "--formats", tracking, "--json"]);
      expect((JSON.parse(first.stdout) as FetchResult).changeTracking).toMatchObject({ changeStatus: "new" });
      const second = await siphon([url, "--formats", tracking, "--json"]);
      const changed = JSON.parse(second.stdout) as FetchResult;
      expect(changed.changeTracking).toMatchObject({ changeStatus: "changed" });

      const slow = await siphon([`${site.url}/slow?ms=4000`, "--timeout", "1000", "--no-cache"]);
      expect(slow.code).toBe(5);
      expect(slow.stderr).toContain("1000 ms");
    },
    SEVERAL_RUNS_MS,
  );
});

describe("siphon_fetch (MCP) takes the same formats", () => {
  test("formats summary and branding come in structuredContent and in the text", async () => {
    const { structured, text } = await mcpFetch({ url: `${site.url}/compat/summary`, formats: ["summary"] });
    expect(String(structured.summary)).toStartWith(SUMMARY_FIRST_SENTENCE);
    expect(text).toContain("## Summary");
    const brand = await mcpFetch({ url: `${site.url}/compat/brand`, formats: ["markdown", "branding"] });
    expect((brand.structured.branding as { brandName: string }).brandName).toBe("Kettle & Co");
  });

  test("formats question, highlights and attributes come in structuredContent and in the text", async () => {
    const { structured, text } = await mcpFetch({
      url: `${site.url}/compat/summary`,
      formats: [
        { type: "question", question: "Where were the oldest tide mills built?" },
        { type: "highlights", query: "mill pond water released" },
        { type: "attributes", selectors: [{ selector: "h1", attribute: "id" }] },
      ],
    });
    expect(structured.answerMethod).toBe("passage");
    expect(String(structured.answer)).toContain("Ireland");
    expect(String(structured.highlights)).toContain("mill pond is released");
    expect(structured.attributes).toEqual([{ selector: "h1", attribute: "id", values: [] }]);
    expect(text).toContain("## Answer (the page's most relevant passage)");
    const scripted = await mcpFetch({
      url: `${site.url}/compat/summary`,
      maxAge: 0,
      actions: [{ type: "executeJavascript", script: "return document.title.length;" }, { type: "scrape" }],
    });
    const made = scripted.structured.actions as { javascriptReturns: unknown[]; scrapes: unknown[] };
    expect(made.javascriptReturns).toEqual([{ type: "number", value: "How tide mills work".length }]);
    expect(made.scrapes).toHaveLength(1);
    expect(scripted.text).toContain("## Script returns");
    expect(text).toContain("## Highlights");
    expect(text).toContain("## Attributes");
  });
});

describe("credits: one rule, the same number on every surface", () => {
  /** The credits one surface reports for a request of `formats` (undefined: its default) on `url`. */
  type Surface = (url: string, formats?: unknown[]) => Promise<number>;
  const surfaces: Record<string, Surface> = {
    "POST /v1/fetch": async (url, formats) => {
      const response = await nativeFetch({ url, ...(formats ? { formats } : {}) });
      expect(response.status).toBe(200);
      return Number(response.headers.get("x-credits-used"));
    },
    "POST /v2/scrape": async (url, formats) => {
      const { data, header } = await firecrawlScrape({ url, ...(formats ? { formats } : {}) });
      expect(data.metadata.creditsUsed).toBe(header);
      return header;
    },
    "MCP siphon_fetch": async (url, formats) => {
      const { structured, header } = await mcpFetch({ url, ...(formats ? { formats } : {}) });
      expect(structured.credits).toBe(header);
      return header;
    },
    "POST /v1/batch/scrape": async (url, formats) => {
      const poll = await batch({ urls: [url], ...(formats ? { formats } : {}) });
      expect(poll.status).toBe("completed");
      return poll.creditsUsed;
    },
  };

  for (const [name, credits] of Object.entries(surfaces)) {
    test(`${name}: fresh 1, cache hit 0, a screenshot 1, a cached page with a screenshot beside it 1`, async () => {
      const page = unique("/article");
      expect(await credits(page)).toBe(1);
      expect(await credits(page)).toBe(0);
      expect(await credits(unique("/article"), ["markdown", "screenshot"])).toBe(1);
      expect(await credits(page, ["markdown", { type: "screenshot", quality: 60 }])).toBe(1);
    }, 60_000);
  }

  test("search with scraping, siphon's and Firecrawl's: 1 for the search plus 1 per page fetched", async () => {
    const search = () => app.request("/v1/search?q=surfaces&count=2&scrapeResults=true", { headers: auth });
    expect((await search()).headers.get("x-credits-used")).toBe("3");
    expect((await search()).headers.get("x-credits-used")).toBe("1");
    // Firecrawl's search scrapes the same two pages, now cached, and a third: the same code, the same rule.
    const response = await app.request("/v2/search", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ query: "surfaces", limit: 3, scrapeOptions: { formats: ["markdown"] } }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      creditsUsed: number;
      data: { web: { metadata?: { creditsUsed: number } }[] };
    };
    expect(body.data.web.map((page) => page.metadata?.creditsUsed)).toEqual([0, 0, 1]);
    expect(body.creditsUsed).toBe(2);
    expect(response.headers.get("x-credits-used")).toBe("2");
  });
});

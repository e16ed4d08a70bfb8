import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Firecrawl, { SdkError } from "@mendable/firecrawl-js";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { mcpCall } from "../helpers/mcp-call.ts";
import { runCli } from "../helpers/run.ts";

/**
 * A crawl described in a sentence: the LLM (the fake) turns it into crawl options, which a
 * preview shows and a crawl runs. The fake's answers are what a model would write, including
 * a pattern no engine compiles and numbers past the crawl's bounds.
 */

const CALLER_KEY = "sk-crawl-prompt-caller";
const OPERATOR_KEY = "sk-crawl-prompt-operator";
const PROMPT = "Only the recipe pages of the listing, at most 3, not the tag pages";
const MODEL_ANSWER = {
  includePaths: ["^/recipes/", "([unclosed"],
  excludePaths: ["^/tag/"],
  maxDepth: 99,
  limit: 3,
  allowSubdomains: false,
  sitemap: "skip",
};
const PARAMS = {
  includePaths: ["^/recipes/"],
  excludePaths: ["^/tag/"],
  maxDepth: 20,
  limit: 3,
  allowSubdomains: false,
  sitemap: "skip",
};

let site: FixtureSite;
let llm: FakeLlm;
let app: TestApp;
let operated: TestApp;
let home: string;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [CALLER_KEY, OPERATOR_KEY] });
  llm.reply = () => ({ json: MODEL_ANSWER });
  app = await startTestApp({ escalation: false, openaiBaseUrl: llm.baseUrl("openai") });
  operated = await startTestApp({
    escalation: false,
    llmProvider: "openai",
    llmApiKey: OPERATOR_KEY,
    openaiBaseUrl: llm.baseUrl("openai"),
  });
  home = mkdtempSync(join(tmpdir(), "siphon-crawl-prompt-"));
});
afterAll(async () => {
  await app.close();
  await operated.close();
  await llm.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

const post = (on: TestApp, path: string, body: Record<string, unknown>) =>
  on.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function until(on: TestApp, path: string) {
  for (let i = 0; i < 300; i++) {
    const poll = (await (await on.request(path)).json()) as { status: string; data: { url: string }[] };
    if (poll.status === "completed" || poll.status === "failed") return poll;
    await Bun.sleep(50);
  }
  throw new Error(`${path} did not finish`);
}

describe("siphon's API", () => {
  test("params-preview shows what the prompt gives, with the caller's LLM; what the model wrote is checked", async () => {
    llm.requests.length = 0;
    const response = await post(app, "/v1/crawl/params-preview", {
      url: `${site.url}/listing`,
      prompt: PROMPT,
      llmProvider: "openai",
      llmApiKey: CALLER_KEY,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, url: `${site.url}/listing`, params: PARAMS });
    expect(llm.requests[0]?.authorization).toBe(`Bearer ${CALLER_KEY}`);
    expect(JSON.stringify(llm.requests[0]?.messages)).toContain(PROMPT);
  });

  test("a crawl with a prompt runs its options (given ones win) and shows them; the stored job holds no key", async () => {
    const started = await post(app, "/v1/crawl", {
      url: `${site.url}/listing`,
      prompt: PROMPT,
      maxDepth: 1,
      llmProvider: "openai",
      llmApiKey: CALLER_KEY,
    });
    expect(started.status).toBe(202);
    const body = (await started.json()) as { id: string; params: typeof PARAMS };
    expect(body.params).toEqual(PARAMS);
    const poll = await until(app, `/v1/crawl/${body.id}?limit=100`);
    const paths = poll.data.map((page) => new URL(page.url).pathname);
    expect(paths).toHaveLength(3);
    expect(paths[0]).toBe("/listing");
    for (const path of paths.slice(1)) expect(path).toMatch(/^\/recipes\/\d+$/);
    const stored = await app.store.jobs.get(body.id);
    expect(JSON.stringify(stored?.input)).not.toContain(CALLER_KEY);
    expect(JSON.stringify(stored?.input)).not.toContain("prompt");
  });

  test("without an LLM a prompt is a 400 saying what to do; a bad prompt too", async () => {
    const none = await post(app, "/v1/crawl/params-preview", { url: `${site.url}/`, prompt: PROMPT });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).message).toContain("A crawl prompt needs an LLM");
    const crawl = await post(app, "/v1/crawl", { url: `${site.url}/`, prompt: PROMPT });
    expect(crawl.status).toBe(400);
    const empty = await post(operated, "/v1/crawl", { url: `${site.url}/`, prompt: " " });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toContain("prompt must be a sentence");
  });
});

describe("Firecrawl's SDK", () => {
  test("crawlParamsPreview and a crawl with prompt use the operator's LLM; without one the SDK's 400", async () => {
    const fc = new Firecrawl({ apiUrl: operated.listen() });
    llm.requests.length = 0;
    const preview = await fc.crawlParamsPreview(`${site.url}/listing`, PROMPT);
    expect(preview).toMatchObject({
      url: `${site.url}/listing`,
      includePaths: ["^/recipes/"],
      excludePaths: ["^/tag/"],
      maxDiscoveryDepth: 20,
      limit: 3,
      crawlEntireDomain: true,
    });
    expect(llm.requests[0]?.authorization).toBe(`Bearer ${OPERATOR_KEY}`);
    const job = await fc.crawl(`${site.url}/listing`, { prompt: PROMPT, pollInterval: 1 });
    expect(job.data).toHaveLength(3);

    const plain = new Firecrawl({ apiUrl: app.listen() });
    const error = await plain.crawlParamsPreview(`${site.url}/`, PROMPT).catch((e) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).status).toBe(400);
  }, 30_000);
});

describe("siphon_crawl (MCP) with a prompt", () => {
  test("the prompt's paths keep the crawl to the recipes; the tool's own limits stay", async () => {
    const { key } = await operated.createKey("max");
    const result = await mcpCall(operated, key, "siphon_crawl", {
      url: `${site.url}/listing`,
      prompt: PROMPT,
      limit: 4,
    });
    expect(result.isError).toBeFalsy();
    const pages = (result.structuredContent.pages ?? []) as { url: string }[];
    const paths = pages.map((page) => new URL(page.url).pathname);
    expect(paths).toHaveLength(4);
    for (const path of paths.slice(1)) expect(path).toMatch(/^\/recipes\/\d+$/);
  }, 30_000);
});

describe("siphon crawl --prompt", () => {
  test("--preview prints the options and crawls nothing; without an LLM it exits 2", async () => {
    site.resetHits();
    const preview = await runCli(
      [
        "crawl",
        `${site.url}/listing`,
        "--prompt",
        PROMPT,
        "--preview",
        "--llm",
        "openai",
        "--llm-key",
        CALLER_KEY,
      ],
      home,
      { SIPHON_OPENAI_BASE_URL: llm.baseUrl("openai") },
    );
    expect(preview.stderr).toBe("");
    expect(preview.code).toBe(0);
    expect(JSON.parse(preview.stdout)).toEqual(PARAMS);
    expect(site.hits("/listing")).toBe(0);
    const none = await runCli(["crawl", `${site.url}/listing`, "--prompt", PROMPT], home);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("A crawl prompt needs an LLM");
  }, 30_000);
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Firecrawl from "@mendable/firecrawl-js";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { mcpCall } from "../helpers/mcp-call.ts";

const KEY = "sk-llmstxt-0a1b2c3d4e5f";

let site: FixtureSite;
let llm: FakeLlm;
let app: TestApp;
/** A small docs site that publishes its own llms.txt (and llms-full.txt). */
let docs: ReturnType<typeof Bun.serve>;
const docsHits = new Map<string, number>();

const OWN_LLMS = "# Mill docs\n\n> How the tide mill works.\n\n## Docs\n\n- [Guide](/guide): the guide\n";

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY] });
  app = await startTestApp({ escalation: false, openaiBaseUrl: llm.baseUrl("openai") });
  docs = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      docsHits.set(path, (docsHits.get(path) ?? 0) + 1);
      const page = (title: string, text: string, links = "") =>
        new Response(
          `<html><head><title>${title} | Mill docs</title><meta name="description" content="${title} of the mill."></head>` +
            `<body><nav><a href="/">Home</a></nav><article><h1>${title}</h1><p>${text}</p>${links}</article></body></html>`,
          { headers: { "content-type": "text/html" } },
        );
      if (path === "/llms.txt") return new Response(OWN_LLMS, { headers: { "content-type": "text/plain" } });
      if (path === "/llms-full.txt")
        return new Response("# Mill docs\n\nEverything.\n", { headers: { "content-type": "text/plain" } });
      if (path === "/")
        return page(
          "Home",
          "The tide mill grinds grain with the ebb tide. Read the guide and the reference to run it.",
          '<a href="/docs/guide">Guide</a> <a href="/docs/reference">Reference</a> <a href="/about">About</a>',
        );
      if (path === "/docs/guide")
        return page("Guide", "Open the sluice as the tide falls. Close it at low water.");
      if (path === "/docs/reference")
        return page("Reference", "The wheel turns at twelve revolutions a minute.");
      if (path === "/about") return page("About", "The mill was built in 1170 and restored in 1990.");
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(async () => {
  await app.close();
  await llm.stop();
  await site.stop();
  docs.stop(true);
});

interface Poll {
  status: string;
  source?: string;
  llmsTxt?: string;
  llmsFullTxt?: string | null;
  pages?: number;
  descriptions?: string;
  existing?: string | null;
  tokensUsed?: { input: number; output: number };
  completed: number;
}

async function run(body: Record<string, unknown>): Promise<Poll> {
  const res = await app.request("/v1/llmstxt", { method: "POST", body: JSON.stringify(body) });
  const started = (await res.json()) as { id: string; url: string };
  if (res.status !== 202) throw new Error(`HTTP ${res.status}: ${JSON.stringify(started)}`);
  expect(started.id).toMatch(/^llmstxt_[0-9a-f-]{36}$/);
  for (let i = 0; i < 400; i++) {
    const poll = (await (await app.request(`/v1/llmstxt/${started.id}`)).json()) as Poll;
    if (["completed", "failed", "cancelled"].includes(poll.status)) return poll;
    await Bun.sleep(25);
  }
  throw new Error("the llms.txt job did not end");
}

/** Checks the llms.txt format's rules: one H1 first, a blockquote summary, H2 sections of links. */
function expectLlmsFormat(text: string, origin: string) {
  const lines = text.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^# \S/);
  expect(lines.filter((line) => /^# /.test(line))).toHaveLength(1);
  expect(lines.find((line) => line.trim() && !line.startsWith("# "))).toMatch(/^> \S/);
  expect(lines.some((line) => /^## \S/.test(line))).toBe(true);
  for (const line of lines.slice(1)) {
    if (!line.trim() || line.startsWith("> ") || line.startsWith("## ")) continue;
    expect(line).toMatch(/^- \[[^\]]+\]\((https?:\/\/[^)\s]+)\)(: \S.*)?$/);
    const url = /\((https?:[^)\s]+)\)/.exec(line)?.[1] ?? "";
    expect(url.startsWith(origin)).toBe(true);
  }
}

describe("POST /v1/llmstxt", () => {
  test("a site without llms.txt is crawled: llms.txt by the format's rules, llms-full.txt with every page", async () => {
    const poll = await run({ url: `${site.url}/`, limit: 8, maxDepth: 1 });
    expect(poll.status).toBe("completed");
    expect(poll).toMatchObject({ source: "generated", descriptions: "page", existing: null });
    const text = poll.llmsTxt ?? "";
    expectLlmsFormat(text, site.url);
    const links = text.split("\n").filter((line) => line.startsWith("- ["));
    expect(links).toHaveLength(poll.pages ?? -1);
    expect(poll.pages).toBeGreaterThan(2);
    const full = poll.llmsFullTxt ?? "";
    expect(full.split("\n")[0]).toBe(text.split("\n")[0]);
    for (const line of links) {
      const url = /\((http[^)]+)\)/.exec(line)?.[1] ?? "";
      expect(full).toContain(`Source: ${url}`);
    }
  });

  test("sections follow the top-level paths; titles lose the site's name; descriptions are the pages' own", async () => {
    const origin = `http://127.0.0.1:${docs.port}`;
    const poll = await run({ url: `${origin}/`, regenerate: true });
    expect(poll).toMatchObject({ status: "completed", source: "generated", existing: `${origin}/llms.txt` });
    expect(poll.llmsTxt).toBe(
      [
        "# Mill docs",
        "",
        "> Home of the mill.",
        "",
        "## Pages",
        "",
        `- [Home](${origin}/): Home of the mill.`,
        `- [About](${origin}/about): About of the mill.`,
        "",
        "## Docs",
        "",
        `- [Guide](${origin}/docs/guide): Guide of the mill.`,
        `- [Reference](${origin}/docs/reference): Reference of the mill.`,
        "",
      ].join("\n"),
    );
    expect(poll.llmsFullTxt).toContain(`## Guide\n\nSource: ${origin}/docs/guide\n\nOpen the sluice`);
  });

  test("a site that publishes llms.txt is answered with its own file, and nothing is crawled", async () => {
    docsHits.clear();
    const origin = `http://127.0.0.1:${docs.port}`;
    const poll = await run({ url: `${origin}/` });
    expect(poll).toMatchObject({
      status: "completed",
      source: "site",
      llmsTxt: OWN_LLMS,
      llmsFullTxt: "# Mill docs\n\nEverything.\n",
      existing: `${origin}/llms.txt`,
      pages: 1,
    });
    expect(docsHits.get("/")).toBeUndefined();
    expect(docsHits.get("/docs/guide")).toBeUndefined();
  });

  test("with an LLM the descriptions are written by it, and its tokens are counted", async () => {
    llm.reply = () => ({
      text: "A page about the mill, in one sentence.",
      usage: { prompt_tokens: 50, completion_tokens: 9 },
    });
    const origin = `http://127.0.0.1:${docs.port}`;
    const poll = await run({ url: `${origin}/`, regenerate: true, llmProvider: "openai", llmApiKey: KEY });
    expect(poll).toMatchObject({ status: "completed", descriptions: "llm" });
    expect(poll.tokensUsed).toEqual({ input: 4 * 50, output: 4 * 9 });
    const links = (poll.llmsTxt ?? "").split("\n").filter((line) => line.startsWith("- ["));
    expect(links).toHaveLength(4);
    for (const line of links) expect(line).toEndWith(": A page about the mill, in one sentence.");
    expect(JSON.stringify(poll)).not.toContain(KEY);
  });

  test("bad requests are 400s before a job exists; an unknown job is a 404", async () => {
    for (const body of [
      {},
      { url: "not a url" },
      { url: `${site.url}/`, limit: 0 },
      { url: `${site.url}/`, x: 1 },
    ]) {
      const res = await app.request("/v1/llmstxt", { method: "POST", body: JSON.stringify(body) });
      expect(res.status).toBe(400);
    }
    const missing = await app.request("/v1/llmstxt/llmstxt_00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
  });

  test("siphon_llmstxt (MCP) answers llms.txt, or llms-full.txt with full: true", async () => {
    const { key } = await app.createKey("max");
    const origin = `http://127.0.0.1:${docs.port}`;
    const own = await mcpCall(app, key, "siphon_llmstxt", { url: `${origin}/` });
    expect(own.isError).toBeFalsy();
    expect(own.structuredContent).toMatchObject({ status: "completed", source: "site", llmsTxt: OWN_LLMS });
    expect(own.content[0]?.text).toContain(OWN_LLMS.trim());
    const full = await mcpCall(app, key, "siphon_llmstxt", {
      url: `${origin}/`,
      regenerate: true,
      full: true,
    });
    expect(full.structuredContent).toMatchObject({ status: "completed", source: "generated", pages: 4 });
    expect(full.content[0]?.text).toContain(`Source: ${origin}/docs/guide`);
    const both = await mcpCall(app, key, "siphon_llmstxt", {});
    expect(both.isError).toBe(true);
  });

  test("Firecrawl's v1 generateLLMsText (the real SDK) starts and polls the same job on /v1/llmstxt", async () => {
    const { key } = await app.createKey("max");
    const fc = new Firecrawl({ apiKey: key, apiUrl: app.listen() });
    const origin = `http://127.0.0.1:${docs.port}`;
    const done = (await fc.v1.generateLLMsText(`${origin}/`, { maxUrls: 5, showFullText: true })) as {
      success: boolean;
      status: string;
      data: { llmstxt: string; llmsfulltxt?: string };
      expiresAt: string;
    };
    expect(done).toMatchObject({ success: true, status: "completed", data: { llmstxt: OWN_LLMS } });
    expect(done.data.llmsfulltxt).toBe("# Mill docs\n\nEverything.\n");
    expect(Date.parse(done.expiresAt)).toBeGreaterThan(Date.now());
    const started = (await fc.v1.asyncGenerateLLMsText(`${site.url}/`, { maxUrls: 3 })) as {
      success: boolean;
      id: string;
    };
    expect(started).toMatchObject({ success: true, id: expect.stringMatching(/^llmstxt_/) });
    const bad = await fc.v1
      .asyncGenerateLLMsText(`${site.url}/`, { maxUrls: 500 })
      .catch((error: Error) => error);
    expect(String((bad as Error).message ?? bad)).toMatch(/maxUrls/);
  });
});

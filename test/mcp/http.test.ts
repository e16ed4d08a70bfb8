import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE, ARTICLE_TITLE } from "../helpers/site-pages/article.ts";
import { AGENT_ANSWER, agentScript, LLM_KEY, structuredOf, type ToolResult, textOf } from "./support.ts";

/** Text of the fixture article's blockquote. */
const QUOTE = "biggest single step the city has taken";
const TOOL_NAMES = [
  "siphon_fetch",
  "siphon_search",
  "siphon_crawl",
  "siphon_map",
  "siphon_extract",
  "siphon_batch",
  "siphon_agent",
  "siphon_browser",
  "siphon_parse",
  "siphon_llmstxt",
];

let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;
let app: TestApp;
let base: string;
let key: string;
let client: Client;
const clients: Client[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [LLM_KEY] });
  // SSRF protection on, with the fixture site let through: forbidden addresses fail as they would in production.
  app = await startTestApp({
    disableSsrfProtection: false,
    ssrfAllow: `127.0.0.1:${site.port}`,
    escalation: false,
    fetchTimeoutMs: 1500,
    duckduckgoUrl: engines.duckduckgoUrl,
    openaiBaseUrl: llm.baseUrl("openai"),
    plans: JSON.stringify({ tiny: { weeklyQuota: 1000, burstPerHour: 3 } }),
  });
  base = app.listen();
  key = (await app.createKey("pro")).key;
  client = await connect(key);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await app.close();
  await llm.stop();
  await engines.stop();
  await site.stop();
});
beforeEach(() => {
  llm.reply = () => ({});
});

/** An SDK client connected to the endpoint with `apiKey`. */
async function connect(apiKey: string): Promise<Client> {
  const c = new Client({ name: "siphon-test", version: "1.0.0" });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  clients.push(c);
  return c;
}

const call = (name: string, args: Record<string, unknown>, on = client) =>
  on.callTool({ name, arguments: args }) as Promise<ToolResult>;

/** A raw POST /mcp, as a client without the SDK sends it. */
function post(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const fetchCall = (url: string, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "siphon_fetch", arguments: { url } },
});

describe("initialize and tools/list", () => {
  test("the server names itself and lists the ten tools", async () => {
    expect(client.getServerVersion()?.name).toBe("siphon");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("siphon_fetch");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  test("every tool has a complete input schema, an output schema, a description and annotations", async () => {
    const { tools } = await client.listTools();
    const ajv = new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true });
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(150);
      expect(tool.inputSchema.type).toBe("object");
      expect((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties).toBe(false);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect({
          tool: tool.name,
          name,
          described: Boolean((property as { description?: string }).description),
        }).toEqual({ tool: tool.name, name, described: true });
      }
      expect(tool.outputSchema?.type).toBe("object");
      // Both compile as JSON Schema, strictly: no keyword a client would not know.
      ajv.compile(tool.inputSchema);
      ajv.compile(tool.outputSchema as object);
      expect(tool.annotations).toMatchObject({
        // A browser session clicks and types on sites, which may change them; every other tool only reads.
        readOnlyHint: tool.name !== "siphon_browser",
        openWorldHint: true,
        destructiveHint: false,
      });
      expect(tool.annotations?.title).toBeTruthy();
    }
  });

  test("the MCP limits are in the schemas: crawl 1-100 pages and depth 1-5, batch 50 URLs", async () => {
    const { tools } = await client.listTools();
    const props = (name: string) =>
      tools.find((t) => t.name === name)?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props("siphon_crawl").limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(props("siphon_crawl").maxDepth).toMatchObject({ minimum: 1, maximum: 5 });
    expect(props("siphon_batch").urls).toMatchObject({ maxItems: 50 });
    for (const name of ["siphon_fetch", "siphon_crawl", "siphon_map", "siphon_batch"]) {
      expect(props(name).startIndex).toMatchObject({ type: "integer", minimum: 0 });
      expect(props(name).maxLength).toMatchObject({ type: "integer" });
    }
    expect(props("siphon_fetch").url?.type).toBe("string");
    expect(props("siphon_agent").llmApiKey?.type).toBe("string");
    expect(tools.find((t) => t.name === "siphon_agent")?.inputSchema.required).toContain("llmApiKey");
  });
});

describe("siphon_fetch", () => {
  test("answers markdown first, with the Fetch result as structuredContent", async () => {
    const result = await call("siphon_fetch", { url: `${site.url}/article` });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toStartWith(`# ${ARTICLE_TITLE}`);
    expect(text).toContain(ARTICLE_SENTENCE);
    const data = structuredOf<{
      url: string;
      content: string;
      method: string;
      page: { nextStartIndex: unknown };
    }>(result);
    expect(data.url).toBe(`${site.url}/article`);
    expect(data.content).toContain(ARTICLE_SENTENCE);
    expect(data.method).toBe("simple");
    expect(data.page.nextStartIndex).toBeNull();
  });

  test("a long page comes in parts that join up to the whole, each saying where the next starts", async () => {
    const whole = structuredOf<{ content: string }>(
      await call("siphon_fetch", { url: `${site.url}/docs`, maxLength: 1_000_000 }),
    ).content;
    expect(whole.length).toBeGreaterThan(1000);
    const parts: string[] = [];
    let startIndex: number | null = 0;
    while (startIndex !== null) {
      const result = await call("siphon_fetch", { url: `${site.url}/docs`, startIndex, maxLength: 300 });
      const data = structuredOf<{
        content: string;
        page: { nextStartIndex: number | null; totalLength: number };
      }>(result);
      expect(data.content.length).toBeLessThanOrEqual(300);
      expect(data.page.totalLength).toBe(whole.length);
      if (data.page.nextStartIndex !== null)
        expect(textOf(result)).toContain(`startIndex: ${data.page.nextStartIndex}`);
      parts.push(data.content);
      startIndex = data.page.nextStartIndex;
    }
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join("")).toBe(whole);
  });

  test("inline extraction with selectors adds the JSON to text and structuredContent", async () => {
    const result = await call("siphon_fetch", {
      url: `${site.url}/article`,
      extract: { selectors: { headline: "h1" } },
    });
    const data = structuredOf<{ json: { headline: string } }>(result);
    expect(data.json.headline).toContain("City Council Approves");
    expect(textOf(result)).toContain("## Extracted JSON");
  });

  test("failures are tool results with isError and a message saying what to do", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: "not a url" }, "invalid_url", "http"],
      [{ url: "http://10.1.2.3/" }, "forbidden_url", "public"],
      [{ url: `${site.url}/status/403-botwall` }, "blocked", "stealth"],
      [{ url: `${site.url}/hang`, maxAge: 0 }, "timeout", "try again"],
    ];
    for (const [args, type, advice] of cases) {
      const result = await call("siphon_fetch", args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toStartWith(`Error (${type}):`);
      expect(textOf(result)).toContain(advice);
    }
  });

  test("bad arguments are isError results naming the field, never protocol errors", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["siphon_fetch", {}, "url is required"],
      ["siphon_fetch", { url: `${site.url}/`, colour: "red" }, 'unknown field "colour"'],
      ["siphon_fetch", { url: `${site.url}/`, maxLength: 5 }, "maxLength must be an integer from 100"],
      ["siphon_crawl", { url: `${site.url}/`, limit: 101 }, "limit must be an integer from 1 to 100"],
      ["siphon_crawl", { url: `${site.url}/`, maxDepth: 0 }, "maxDepth must be an integer from 1 to 5"],
      ["siphon_crawl", {}, "url is required"],
      ["siphon_batch", { urls: Array.from({ length: 51 }, (_, i) => `${site.url}/?${i}`) }, "at most 50"],
      ["siphon_search", { q: "" }, "q must not be empty"],
      ["siphon_agent", { prompt: "x" }, "llmApiKey is required"],
      ["siphon_extract", { url: `${site.url}/`, prompt: "the price" }, "needs an LLM"],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(name, args);
      expect({ name, isError: result.isError }).toEqual({ name, isError: true });
      expect(textOf(result)).toContain(message);
    }
  });

  test("an unknown tool is a protocol error (InvalidParams)", async () => {
    const error = await call("siphon_nope", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("siphon_fetch");
  });
});

describe("the other tools against the fixture site and the fakes", () => {
  test("siphon_search: results from the engine, and scraped content with scrapeResults", async () => {
    const plain = await call("siphon_search", { q: "solar farm", count: 3 });
    const data = structuredOf<{ provider: string; web: { url: string; content?: string }[] }>(plain);
    expect(data.provider).toBe("duckduckgo");
    expect(data.web.map((r) => r.url)).toEqual(RESULT_PAGES.slice(0, 3).map((p) => `${site.url}${p.path}`));
    expect(textOf(plain)).toContain(`1. [${RESULT_PAGES[0]?.title}](${site.url}/article)`);
    const scraped = await call("siphon_search", { q: "solar farm", count: 1, scrapeResults: true });
    expect(structuredOf<{ web: { content: string }[] }>(scraped).web[0]?.content).toContain(ARTICLE_SENTENCE);
    expect(textOf(scraped)).toContain(ARTICLE_SENTENCE);
  });

  test("siphon_map: the site's URLs, in parts when asked", async () => {
    const all = structuredOf<{ links: string[] }>(await call("siphon_map", { url: site.url }));
    expect(all.links).toContain(`${site.url}/article`);
    const first = await call("siphon_map", { url: site.url, maxLength: 100 });
    const part = structuredOf<{ links: string[]; page: { nextStartIndex: number; total: number } }>(first);
    expect(part.links.length).toBeLessThan(all.links.length);
    expect(part.page.total).toBe(all.links.length);
    expect(part.links).toEqual(all.links.slice(0, part.links.length));
    expect(textOf(first)).toContain(`startIndex: ${part.page.nextStartIndex}`);
  });

  test("siphon_crawl waits with progress notifications and returns the pages", async () => {
    const progress: { progress: number; total?: number }[] = [];
    const result = (await client.callTool(
      { name: "siphon_crawl", arguments: { url: `${site.url}/`, limit: 3, ignoreSitemap: true } },
      undefined,
      { onprogress: (p) => void progress.push(p) },
    )) as ToolResult;
    const data = structuredOf<{ status: string; jobId: string; pages: { url: string; markdown: string }[] }>(
      result,
    );
    expect(data.status).toBe("completed");
    expect(data.jobId).toStartWith("crawl_");
    expect(data.pages).toHaveLength(3);
    expect(data.pages[0]?.url).toBe(`${site.url}/`);
    expect(textOf(result)).toContain("## 1. ");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ progress: 3, total: 3 });
  });

  test("siphon_crawl with wait false returns the job id; jobId reads it, and only its owner can", async () => {
    const started = structuredOf<{ jobId: string; status: string; pages: unknown[] }>(
      await call("siphon_crawl", { url: `${site.url}/`, limit: 2, ignoreSitemap: true, wait: false }),
    );
    expect(["queued", "processing"]).toContain(started.status);
    expect(started.pages).toEqual([]);
    const read = structuredOf<{ status: string; pages: unknown[] }>(
      await call("siphon_crawl", { jobId: started.jobId }),
    );
    expect(read.status).toBe("completed");
    expect(read.pages).toHaveLength(2);
    const stranger = await connect((await app.createKey("pro")).key);
    const refused = await call("siphon_crawl", { jobId: started.jobId }, stranger);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Error (not_found)");
  });

  test("siphon_batch: every URL in its place, a failed one reported with its error", async () => {
    const urls = [`${site.url}/article`, "http://10.0.0.1/", `${site.url}/docs`];
    const result = await call("siphon_batch", { urls });
    const data = structuredOf<{
      status: string;
      pages: { url: string; content?: string; error?: { type: string } }[];
    }>(result);
    expect(data.status).toBe("completed");
    expect(data.pages.map((p) => p.url).sort()).toEqual([...urls].sort());
    expect(data.pages.find((p) => p.url === urls[1])?.error?.type).toBe("forbidden_url");
    expect(data.pages.find((p) => p.url === urls[0])?.content).toContain(ARTICLE_SENTENCE);
    expect(textOf(result)).toContain("Failed (forbidden_url)");
  });

  test("siphon_batch: the page options apply to every page (excludeTags, waitFor as the page's wait)", async () => {
    const url = `${site.url}/article`;
    const plain = structuredOf<{ pages: { content?: string }[] }>(
      await call("siphon_batch", { urls: [url], maxAge: 0 }),
    );
    expect(plain.pages[0]?.content).toContain(QUOTE);
    const trimmed = structuredOf<{ status: string; pages: { content?: string }[] }>(
      await call("siphon_batch", { urls: [url], excludeTags: ["blockquote"], waitFor: 0, maxAge: 0 }),
    );
    expect(trimmed.status).toBe("completed");
    expect(trimmed.pages[0]?.content).toContain(ARTICLE_SENTENCE);
    expect(trimmed.pages[0]?.content).not.toContain(QUOTE);
  });

  test("siphon_extract: selectors, a schema from the page's own data, a prompt through the caller's LLM, everything", async () => {
    const selectors = structuredOf<{ method: string; data: { title: string } }>(
      await call("siphon_extract", { url: `${site.url}/article`, selectors: { title: "h1" } }),
    );
    expect(selectors).toMatchObject({ method: "selectors" });
    expect(selectors.data.title).toContain("City Council Approves");

    const schema = { type: "object", properties: { headline: { type: "string" } } };
    const heuristic = structuredOf<{ method: string; data: { headline: unknown } }>(
      await call("siphon_extract", { url: `${site.url}/article`, schema }),
    );
    expect(heuristic.method).toBe("heuristic");
    expect(heuristic.data).toHaveProperty("headline");

    llm.reply = () => ({ json: { headline: "From the model" } });
    const viaLlm = await call("siphon_extract", {
      url: `${site.url}/article`,
      schema,
      prompt: "The headline",
      llmProvider: "openai",
      llmApiKey: LLM_KEY,
    });
    expect(structuredOf(viaLlm)).toMatchObject({ method: "llm", data: { headline: "From the model" } });
    expect(textOf(viaLlm)).toContain('"headline": "From the model"');

    const everything = structuredOf<{ method: string; data: Record<string, unknown> }>(
      await call("siphon_extract", { url: `${site.url}/product` }),
    );
    expect(everything.method).toBe("heuristic");
    expect(Object.keys(everything.data).length).toBeGreaterThan(0);
  });

  test("siphon_agent: researches with the caller's LLM, reports steps as progress, cites its sources", async () => {
    llm.reply = agentScript(`${site.url}/article`);
    const steps: { message?: string }[] = [];
    const result = (await client.callTool(
      { name: "siphon_agent", arguments: { prompt: "What did the council decide?", llmApiKey: LLM_KEY } },
      undefined,
      { onprogress: (p) => void steps.push(p), timeout: 30_000 },
    )) as ToolResult;
    const data = structuredOf<{ answer: string; sources: string[] }>(result);
    expect(data.answer).toContain("The council approved a solar farm [1].");
    expect(data.sources).toEqual([`${site.url}/article`]);
    expect(textOf(result)).toStartWith(AGENT_ANSWER.split("\n")[0] as string);
    expect(textOf(result)).toContain(`[1] `);
    expect(steps.map((s) => s.message).join("\n")).toContain("searching: riverside solar farm");
    // The caller's key went to the LLM, and nowhere into the answer.
    expect(llm.requests.at(-1)?.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(JSON.stringify(result)).not.toContain(LLM_KEY);
  });
});

describe("HTTP: auth, methods, metering", () => {
  test("no key, a malformed key, an unknown key: 401 in format B (the daemon's optional auth does not apply)", async () => {
    const none = await post(fetchCall(`${site.url}/`), {});
    expect(none.status).toBe(401);
    expect((await errorOf(none)).type).toBe("unauthorized");
    expect(none.headers.get("x-request-id")).toBeTruthy();
    const malformed = await post(fetchCall(`${site.url}/`), { authorization: "Bearer nope" });
    expect((await errorOf(malformed)).type).toBe("unauthorized");
    const unknown = await post(fetchCall(`${site.url}/`), {
      authorization: `Bearer sph_live_${"a".repeat(32)}`,
    });
    expect(unknown.status).toBe(401);
    expect((await errorOf(unknown)).type).toBe("invalid_token");
    // The SDK client fails to connect without a key.
    const anonymous = new Client({ name: "anon", version: "1" });
    await expect(
      anonymous.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`))),
    ).rejects.toThrow("needs an API key");
  });

  test("GET /mcp is 405 and DELETE /mcp is 200, doing nothing", async () => {
    const get = await fetch(`${base}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, DELETE");
    expect(((await get.json()) as { success: boolean }).success).toBe(false);
    const del = await fetch(`${base}/mcp`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
    expect(del.status).toBe(200);
    // The server still answers as before.
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
  });

  test("malformed JSON is a format-B 400", async () => {
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: '{"jsonrpc": "2.0", ',
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).type).toBe("invalid_request");
  });

  test("a call costs what the REST call costs: 1 credit for a page fetched, 0 from the cache", async () => {
    const url = `${site.url}/forum?credits=${Date.now()}`;
    const miss = await post(fetchCall(url));
    expect(miss.headers.get("content-type")).toContain("application/json");
    expect(miss.headers.get("x-credits-used")).toBe("1");
    const hit = await post(fetchCall(url));
    expect(hit.headers.get("x-credits-used")).toBe("0");
    const body = (await hit.json()) as { result: ToolResult };
    expect(body.result.structuredContent?.cached).toBe(true);
  });

  test("the burst limit: a 429 is a tool error with the wait time, in the same window as REST", async () => {
    const tiny = (await app.createKey("tiny")).key;
    const limited = await connect(tiny);
    // tools/list is not metered; each call is one request of the window (3 an hour).
    await limited.listTools();
    for (let i = 0; i < 2; i++)
      expect((await call("siphon_fetch", { url: `${site.url}/` }, limited)).isError).toBeFalsy();
    const rest = await fetch(`${base}/v1/fetch?url=${encodeURIComponent(`${site.url}/`)}`, {
      headers: { authorization: `Bearer ${tiny}` },
    });
    expect(rest.status).toBe(200);
    const refused = await call("siphon_fetch", { url: `${site.url}/` }, limited);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toStartWith("Error (rate_limited):");
    expect(textOf(refused)).toMatch(/Wait \d+ seconds/);
    // The raw answer is HTTP 200 (a tool result) and carries Retry-After.
    const raw = await post(fetchCall(`${site.url}/`), { authorization: `Bearer ${tiny}` });
    expect(raw.status).toBe(200);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await raw.json()) as { result: ToolResult }).result.isError).toBe(true);
  });

  test("the server card describes the endpoint, its auth and the tools, without a key", async () => {
    const res = await fetch(`${base}/.well-known/mcp/server-card.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as {
      serverInfo: { name: string };
      transport: { type: string; endpoint: string };
      authentication: { required: boolean; schemes: string[] };
      tools: { name: string; inputSchema: unknown }[];
      remotes: { url: string }[];
    };
    expect(card.serverInfo.name).toBe("siphon");
    expect(card.transport).toEqual({ type: "streamable-http", endpoint: "/mcp" });
    expect(card.authentication).toMatchObject({ required: true, schemes: ["bearer"] });
    expect(card.tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(card.remotes[0]?.url).toBe(`${base}/mcp`);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, PRODUCT_NAME, startFixtureSite } from "../helpers/fixture-site.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * firecrawl-mcp (Firecrawl's own MCP server, the dev dependency) started over stdio with
 * FIRECRAWL_API_URL pointing at a real siphon on loopback, driven by the MCP SDK's client: its
 * scrape, map, search, crawl, crawl-status, agent and agent-status tools answer from siphon
 * (the agent on a fake OpenAI-compatible LLM as the operator's model).
 */

const SERVER = "node_modules/firecrawl-mcp/dist/index.js";

let site: FixtureSite;
let gen: GeneratedSite;
let engines: FakeSearch;
let llm: FakeLlm;
let app: TestApp;
let client: Client;
const stderr: string[] = [];

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: unknown;
};

beforeAll(async () => {
  site = await startFixtureSite();
  gen = startGeneratedSite(20);
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: ["operator-key"] });
  app = await startTestApp({
    escalation: false,
    fetchTimeoutMs: 5000,
    llmProvider: "openai",
    llmApiKey: "operator-key",
    openaiBaseUrl: llm.baseUrl("openai"),
    duckduckgoUrl: engines.duckduckgoUrl,
    braveUrl: engines.braveUrl,
    searxngUrl: engines.searxngUrl,
  });
  const apiUrl = app.listen();
  const { key } = await app.createKey("max");
  const transport = new StdioClientTransport({
    command: "node",
    args: [SERVER],
    env: { PATH: process.env.PATH ?? "", HOME: app.home, FIRECRAWL_API_URL: apiUrl, FIRECRAWL_API_KEY: key },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk) => stderr.push(String(chunk)));
  client = new Client({ name: "siphon-compat-test", version: "1.0.0" });
  await client.connect(transport);
}, 30_000);

afterAll(async () => {
  await client.close();
  await app.close();
  await engines.stop();
  await llm.stop();
  gen.stop();
  await site.stop();
});

async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}\n${stderr.join("")}`);
  return JSON.parse(result.content[0]?.text ?? "null") as Record<string, unknown>;
}

describe("firecrawl-mcp against siphon", () => {
  test("its tools are there", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const tool of ["firecrawl_scrape", "firecrawl_map", "firecrawl_search", "firecrawl_crawl"])
      expect(names).toContain(tool);
  });

  test("firecrawl_scrape: the page as markdown with Firecrawl's metadata", async () => {
    const doc = await call("firecrawl_scrape", { url: `${site.url}/product`, formats: ["markdown"] });
    expect(doc.markdown).toContain(PRODUCT_NAME);
    expect(doc.metadata).toMatchObject({ sourceURL: `${site.url}/product`, statusCode: 200 });
  });

  test("firecrawl_map: the site's URLs", async () => {
    const mapped = await call("firecrawl_map", { url: `${gen.url}/g/0`, limit: 4 });
    expect(mapped.links).toEqual([
      { url: `${gen.url}/g/0` },
      { url: expect.any(String) },
      { url: expect.any(String) },
      { url: expect.any(String) },
    ]);
  });

  test("firecrawl_search: web results, scraped with scrapeOptions (siphon refuses Alexandria as Firecrawl does, and the tool falls back)", async () => {
    const found = (await call("firecrawl_search", {
      query: "solar farm",
      limit: 2,
      scrapeOptions: { formats: ["markdown"] },
    })) as { data: { web: { url: string; title: string; markdown?: string }[] } };
    expect(found.data.web.map((r) => r.url)).toEqual(
      RESULT_PAGES.slice(0, 2).map((p) => `${site.url}${p.path}`),
    );
    expect(found.data.web[0]?.title).toBe(RESULT_PAGES[0]?.title);
    expect(found.data.web[0]?.markdown).toContain("solar");
  });

  test("firecrawl_crawl polls the crawl to its end; firecrawl_check_crawl_status reads it again", async () => {
    const crawled = (await call("firecrawl_crawl", {
      url: `${gen.url}/g/0`,
      limit: 3,
      crawlEntireDomain: true,
      scrapeOptions: { formats: ["markdown"] },
    })) as {
      id: string;
      status: string;
      total: number;
      data: { markdown: string; metadata: { sourceURL: string } }[];
    };
    expect(crawled.status).toBe("completed");
    expect(crawled.total).toBe(3);
    expect(crawled.data).toHaveLength(3);
    // Pages come in the order they finished: the sitemap's pages (one of them a 404) run beside the
    // start page, and may finish before it.
    const start = crawled.data.find((page) => page.metadata.sourceURL === `${gen.url}/g/0`);
    expect(start?.markdown).toContain("This generated page");
    const status = await call("firecrawl_check_crawl_status", { id: crawled.id });
    expect(status).toMatchObject({ id: crawled.id, status: "completed", completed: 3 });
  }, 20_000);

  test("firecrawl_agent starts siphon's agent; firecrawl_agent_status reads its result", async () => {
    llm.reply = (request) =>
      request.body?.response_format ? { json: { approved: "a solar farm" } } : { text: "A solar farm [1]." };
    const started = (await call("firecrawl_agent", {
      prompt: "What did the council approve?",
      urls: [`${site.url}/article`],
      schema: { type: "object", properties: { approved: { type: "string" } }, required: ["approved"] },
    })) as { success: boolean; id: string };
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^job_/) });
    let status: Record<string, unknown> = {};
    for (let i = 0; i < 100 && status.status !== "completed"; i++) {
      status = await call("firecrawl_agent_status", { id: started.id });
      if (status.status !== "completed") await Bun.sleep(100);
    }
    expect(status).toMatchObject({ status: "completed", data: { approved: "a solar farm" } });
  }, 20_000);

  test("an error of siphon's comes back as the tool's error", async () => {
    const result = (await client.callTool({
      name: "firecrawl_map",
      arguments: { url: "http://127.0.0.1:1/" },
    })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain("refused the connection on port 1");
  });
});

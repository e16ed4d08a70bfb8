import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { listTools } from "../../mcp/server.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FakeSearch, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE, ARTICLE_TITLE } from "../helpers/site-pages/article.ts";
import { agentScript, LLM_KEY, structuredOf, type ToolResult, textOf } from "./support.ts";

/**
 * `siphon mcp` as a desktop client runs it: the compiled binary spawned with stdio pipes, spoken
 * to by the SDK's own client. The local pipeline and store; no server, no key.
 */

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;
let home: string;
let client: Client;
let stderr = "";

/** The environment a client config would give the server, pointing the outside services at the fakes. */
const env = () => ({
  PATH: process.env.PATH ?? "",
  SIPHON_HOME: home,
  DISABLE_SSRF_PROTECTION: "true",
  SIPHON_ESCALATION: "false",
  SIPHON_DUCKDUCKGO_URL: engines.duckduckgoUrl,
  ...llm.env(),
});

beforeAll(async () => {
  // The suite runs after scripts/setup.sh built the binary; build it when run alone.
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [LLM_KEY] });
  home = mkdtempSync(join(tmpdir(), "siphon-mcp-stdio-"));
  const transport = new StdioClientTransport({ command: binary, args: ["mcp"], env: env(), stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: "siphon-stdio-test", version: "1.0.0" });
  await client.connect(transport);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await llm.stop();
  await engines.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  llm.reply = () => ({});
});

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolResult>;

describe("dist/siphon mcp over stdio", () => {
  test("initializes and lists the same ten tools, with the same schemas, as the HTTP endpoint", async () => {
    expect(client.getServerVersion()?.name).toBe("siphon");
    const { tools } = await client.listTools();
    expect(tools).toEqual(JSON.parse(JSON.stringify(listTools())));
  });

  test("siphon_fetch reads a page of the fixture site", async () => {
    const result = await call("siphon_fetch", { url: `${site.url}/article` });
    expect(textOf(result)).toStartWith(`# ${ARTICLE_TITLE}`);
    expect(structuredOf<{ content: string }>(result).content).toContain(ARTICLE_SENTENCE);
  });

  test("siphon_search, siphon_map, siphon_extract answer from the fakes and the site", async () => {
    const search = structuredOf<{ web: { url: string }[] }>(
      await call("siphon_search", { q: "solar", count: 2 }),
    );
    expect(search.web[0]?.url).toBe(`${site.url}/article`);
    const map = structuredOf<{ links: string[] }>(await call("siphon_map", { url: site.url }));
    expect(map.links).toContain(`${site.url}/docs`);
    const extract = structuredOf<{ data: { title: string } }>(
      await call("siphon_extract", { url: `${site.url}/article`, selectors: { title: "h1" } }),
    );
    expect(extract.data.title).toContain("City Council Approves");
  });

  test("siphon_crawl and siphon_batch run as local jobs, with progress", async () => {
    const progress: unknown[] = [];
    const crawl = (await client.callTool(
      { name: "siphon_crawl", arguments: { url: `${site.url}/`, limit: 2, ignoreSitemap: true } },
      undefined,
      { onprogress: (p) => void progress.push(p) },
    )) as ToolResult;
    expect(structuredOf<{ status: string; pages: unknown[] }>(crawl)).toMatchObject({ status: "completed" });
    expect(structuredOf<{ pages: unknown[] }>(crawl).pages).toHaveLength(2);
    expect(progress.length).toBeGreaterThan(0);
    const batch = structuredOf<{ pages: { url: string }[] }>(
      await call("siphon_batch", { urls: [`${site.url}/docs`, `${site.url}/forum`] }),
    );
    expect(batch.pages.map((p) => p.url).sort()).toEqual([`${site.url}/docs`, `${site.url}/forum`]);
  });

  test("siphon_agent researches with the caller's LLM", async () => {
    llm.reply = agentScript(`${site.url}/article`);
    const result = await call("siphon_agent", { prompt: "What did the council decide?", llmApiKey: LLM_KEY });
    expect(structuredOf<{ sources: string[] }>(result).sources).toEqual([`${site.url}/article`]);
  });

  test("bad arguments and failures are isError results; the server carries on; logs go to stderr", async () => {
    const bad = await call("siphon_crawl", { url: `${site.url}/`, maxDepth: 9 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("maxDepth must be an integer from 1 to 5");
    const refused = await call("siphon_agent", { prompt: "x", llmApiKey: "sk-wrong-key-000000000000" });
    expect(refused.isError).toBe(true);
    // The failed LLM call was logged, on stderr (stdout carries only the protocol).
    expect(stderr).toContain("llm openai");
    const after = await call("siphon_fetch", { url: `${site.url}/docs` });
    expect(after.isError).toBeFalsy();
  });
});

describe("stdout", () => {
  test("carries nothing but JSON-RPC messages, a log-worthy failure included", async () => {
    const proc = Bun.spawn([binary, "mcp"], { env: env(), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const send = (message: unknown) => proc.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "siphon_fetch", arguments: { url: `${site.url}/` } },
    });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "siphon_agent", arguments: { prompt: "x", llmApiKey: "sk-wrong-key-000000000000" } },
    });
    send({ jsonrpc: "2.0", id: 4, method: "tools/list" });
    await proc.stdin.flush();
    // Closing stdin ends the server, as a client quitting does.
    const lines: string[] = [];
    const reader = proc.stdout.getReader();
    let buffer = "";
    while (lines.length < 4) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += new TextDecoder().decode(value);
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      lines.push(...parts.filter(Boolean));
    }
    await proc.stdin.end();
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).toBe(0);
    const messages = lines.map(
      (line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: unknown },
    );
    expect(messages.every((m) => m.jsonrpc === "2.0")).toBe(true);
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    expect(err).toContain("llm openai");
  }, 30_000);
});

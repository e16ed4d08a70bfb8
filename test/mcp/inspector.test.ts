import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { run } from "../helpers/run.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";

/**
 * A real third-party client: the MCP Inspector's CLI mode (@modelcontextprotocol/inspector, run
 * by node as a user runs it) against `dist/siphon mcp` and against the HTTP endpoint: tools/list
 * (with --strict, its schema portability check) and one tools/call each.
 */

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
const inspector = join(root, "node_modules/.bin/mcp-inspector");
let site: FixtureSite;
let app: TestApp;
let base: string;
let key: string;
let home: string;

beforeAll(async () => {
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  app = await startTestApp();
  base = app.listen();
  key = (await app.createKey("pro")).key;
  home = mkdtempSync(join(tmpdir(), "siphon-inspector-"));
}, 120_000);
afterAll(async () => {
  await app.close();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Runs the inspector's CLI; its catalog file is kept out of the real home. */
function inspect(args: string[]) {
  return run([inspector, "--cli", ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", HOME: home, MCP_CATALOG_PATH: join(home, "mcp.json") },
  });
}

const stdio = () => [binary, "mcp", "-e", `SIPHON_HOME=${home}`, "-e", "DISABLE_SSRF_PROTECTION=true"];
const http = () => [`${base}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${key}`];
const fetchArgs = () => [
  "--method",
  "tools/call",
  "--tool-name",
  "siphon_fetch",
  "--tool-arg",
  `url=${site.url}/article`,
];

function toolNames(stdout: string): string[] {
  return (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
}

describe("MCP Inspector CLI", () => {
  test("against siphon mcp (stdio): tools/list passes --strict, and siphon_fetch answers", async () => {
    const list = await inspect([...stdio(), "--method", "tools/list", "--strict"]);
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
    expect(toolNames(list.stdout)).toHaveLength(10);
    const called = await inspect([...stdio(), ...fetchArgs()]);
    expect(called.code).toBe(0);
    const result = JSON.parse(called.stdout) as {
      content: { text: string }[];
      structuredContent: { url: string };
    };
    expect(result.content[0]?.text).toContain(ARTICLE_SENTENCE);
    expect(result.structuredContent.url).toBe(`${site.url}/article`);
  }, 60_000);

  test("against the HTTP endpoint: tools/list passes --strict, siphon_fetch answers, no key is refused", async () => {
    const list = await inspect([...http(), "--method", "tools/list", "--strict"]);
    expect(list.stderr).toBe("");
    expect(list.code).toBe(0);
    expect(toolNames(list.stdout)).toContain("siphon_crawl");
    const called = await inspect([...http(), ...fetchArgs()]);
    expect(called.code).toBe(0);
    expect((JSON.parse(called.stdout) as { content: { text: string }[] }).content[0]?.text).toContain(
      ARTICLE_SENTENCE,
    );
    const anonymous = await inspect([`${base}/mcp`, "--transport", "http", "--method", "tools/list"]);
    expect(anonymous.code).not.toBe(0);
  }, 60_000);
});

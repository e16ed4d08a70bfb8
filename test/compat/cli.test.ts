import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, PRODUCT_NAME, startFixtureSite } from "../helpers/fixture-site.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * firecrawl-cli (Firecrawl's own CLI, the dev dependency) run as a user runs it, against a real
 * siphon on loopback that requires a key: `firecrawl scrape` and `firecrawl map` with
 * `--api-url`, the key from `--api-key` or FIRECRAWL_API_KEY.
 */

const CLI = resolve("node_modules/firecrawl-cli/dist/index.js");

let site: FixtureSite;
let gen: GeneratedSite;
/** Keys required; SSRF protection on, with the fixture sites let through. */
let app: TestApp;
let apiUrl: string;
let key: string;

beforeAll(async () => {
  site = await startFixtureSite();
  gen = startGeneratedSite(20);
  app = await startTestApp({
    auth: "required",
    escalation: false,
    fetchTimeoutMs: 5000,
    disableSsrfProtection: false,
    ssrfAllow: `127.0.0.1:${site.port},127.0.0.1:${new URL(gen.url).port}`,
  });
  apiUrl = app.listen();
  key = (await app.createKey("max")).key;
});

afterAll(async () => {
  await app.close();
  gen.stop();
  await site.stop();
});

/** Runs `firecrawl <args>` in an empty home, with no update check and no telemetry. */
async function firecrawl(args: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn(["node", CLI, ...args], {
    cwd: app.home,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: app.home,
      FIRECRAWL_NO_UPDATE_CHECK: "1",
      FIRECRAWL_NO_TELEMETRY: "1",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

describe("firecrawl-cli against siphon", () => {
  test("scrape prints the page's markdown", async () => {
    const run = await firecrawl(["scrape", `${site.url}/product`, "--api-url", apiUrl, "--api-key", key]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(PRODUCT_NAME);
    expect(run.stderr).toMatch(/Scrape ID: [0-9a-f-]{36}/);
  });

  test("scrape with several formats prints Firecrawl's document as JSON; the key may come from FIRECRAWL_API_KEY", async () => {
    const run = await firecrawl(
      ["scrape", `${site.url}/product`, "--format", "markdown,links", "--api-url", apiUrl],
      {
        FIRECRAWL_API_KEY: key,
      },
    );
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      markdown: string;
      links: string[];
      metadata: { sourceURL: string };
    };
    expect(doc.markdown).toContain(PRODUCT_NAME);
    expect(Array.isArray(doc.links)).toBe(true);
    expect(doc.metadata.sourceURL).toBe(`${site.url}/product`);
  });

  test("map prints the site's URLs, one a line, or as JSON with --json", async () => {
    const run = await firecrawl([
      "map",
      `${gen.url}/g/0`,
      "--limit",
      "3",
      "--api-url",
      apiUrl,
      "--api-key",
      key,
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`${gen.url}/g/0`);
    const json = await firecrawl([
      "map",
      `${gen.url}/g/0`,
      "--limit",
      "2",
      "--json",
      "--api-url",
      apiUrl,
      "--api-key",
      key,
    ]);
    expect(JSON.parse(json.stdout)).toEqual({
      success: true,
      data: { links: [{ url: `${gen.url}/g/0` }, { url: expect.any(String) }] },
    });
  });

  test("siphon's refusals are the CLI's errors: a bad key, a blocked address", async () => {
    const badKey = await firecrawl([
      "map",
      `${gen.url}/g/0`,
      "--api-url",
      apiUrl,
      "--api-key",
      "sph_live_nope",
    ]);
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toStartWith("Error: The API key is not well-formed");
    const blocked = await firecrawl(["scrape", "http://127.0.0.1:9/", "--api-url", apiUrl, "--api-key", key]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("Error: The address 127.0.0.1 is not a public address (loopback)");
  });
});

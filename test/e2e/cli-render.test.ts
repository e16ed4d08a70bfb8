import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARTICLE_SENTENCE, apiText, type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { run } from "../helpers/run.ts";

/** The compiled binary on rendered apps: content, warnings on stderr, formats in one fetch. */

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
let site: FixtureSite;
let home: string;

beforeAll(async () => {
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-e2e-render-"));
}, 120_000);
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

function siphon(args: string[], env: Record<string, string> = {}) {
  return run([binary, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true", ...env },
  });
}

describe("siphon fetch on rendered apps", () => {
  test("--render waits for an app whose content comes from a 300 ms API call", async () => {
    const run = await siphon(["fetch", `${site.url}/app/api?delay=300`, "--render", "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.method).toBe("browser");
    expect(result.content).toContain(apiText(300));
    expect(result.quality).toBeGreaterThan(0);
    expect(result.warning).toBeUndefined();
  }, 60_000);

  test("the automatic escalation renders it too, without --render", async () => {
    const run = await siphon(["fetch", `${site.url}/app/api?delay=300`, "--json", "--no-cache"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.method).toBe("browser");
    expect(result.content).toContain(apiText(300));
  }, 60_000);

  test("an app that never draws returns at the cap: warning in the JSON and on stderr, exit 0", async () => {
    const started = performance.now();
    const run = await siphon(["fetch", `${site.url}/app/shell`, "--render", "--json"], {
      SIPHON_RENDER_WAIT_MAX_MS: "1500",
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.warning).toContain("#root");
    expect(run.stderr).toContain("still looked unfinished");
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 60_000);

  test("--formats returns several outputs of one fetch", async () => {
    const run = await siphon([
      "fetch",
      `${site.url}/article`,
      "--formats",
      "markdown,text,rawHtml,links",
      "--json",
      "--no-cache",
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.markdown).toContain(ARTICLE_SENTENCE);
    expect(result.text).toContain(ARTICLE_SENTENCE);
    expect(result.rawHtml).toContain("<!DOCTYPE html>");
    expect(result.links.length).toBeGreaterThan(0);
    expect(site.hits("/article")).toBe(1);
  }, 60_000);
});

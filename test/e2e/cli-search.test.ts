import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SearchResponse } from "../../src/schemas/search.ts";
import { type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { run } from "../helpers/run.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
let site: FixtureSite;
let engines: FakeSearch;
let home: string;

beforeAll(async () => {
  // The suite runs after scripts/setup.sh built the binary; build it when run alone.
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  home = mkdtempSync(join(tmpdir(), "siphon-e2e-search-"));
}, 120_000);
afterAll(async () => {
  await engines.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

test("dist/siphon search: scraped results as JSON, and a captcha page exits 1 saying so", async () => {
  const env = {
    PATH: process.env.PATH ?? "",
    SIPHON_HOME: home,
    DISABLE_SSRF_PROTECTION: "true",
    SIPHON_ESCALATION: "false",
    SIPHON_DUCKDUCKGO_URL: engines.duckduckgoUrl,
  };
  const found = await run([binary, "search", "solar farm", "--count", "2", "--scrape", "--json"], {
    env,
    cwd: home,
  });
  expect(found.code).toBe(0);
  const { data } = JSON.parse(found.stdout) as SearchResponse;
  expect(data.web.map((r) => r.url)).toEqual(RESULT_PAGES.slice(0, 2).map((p) => `${site.url}${p.path}`));
  expect(data.web[0]?.content).toContain(ARTICLE_SENTENCE);
  expect(engines.of("duckduckgo")[0]?.params.q).toBe("solar farm");

  const limited = await run([binary, "search", "solar captcha"], { env, cwd: home });
  expect(limited.code).toBe(1);
  expect(limited.stdout).toBe("");
  expect(limited.stderr).toContain("DuckDuckGo rate-limited siphon");
}, 30_000);

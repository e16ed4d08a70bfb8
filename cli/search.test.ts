import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SearchResponse } from "../src/schemas/search.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import {
  BRAVE_KEY,
  CLOSED_URL,
  type FakeSearch,
  RESULT_PAGES,
  startFakeSearch,
} from "../test/helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";
import { DOCS_TITLE } from "../test/helpers/site-pages/docs.ts";

const _main = join(import.meta.dir, "main.ts");
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
let home: string;
let site: FixtureSite;
let engines: FakeSearch;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-search-"));
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
});
afterAll(async () => {
  await engines.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `bun cli/main.ts search …` against the fake engines; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return runCli(["search", ...args], home, {
    SIPHON_DUCKDUCKGO_URL: engines.duckduckgoUrl,
    SIPHON_BRAVE_URL: engines.braveUrl,
    SIPHON_SEARXNG_URL: engines.searxngUrl,
    ...env,
  });
}

describe("siphon search", () => {
  test("prints a numbered list: title, URL, snippet; several words are one query", async () => {
    const result = await siphon(["tide", "mills", "--count", "2"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        `1. ${RESULT_PAGES[0]!.title}`,
        `   ${site.url}/article`,
        "   The council voted 7-2 & more about tide.",
        `2. ${RESULT_PAGES[1]!.title}`,
        `   ${site.url}/docs`,
        "   Timeouts, retries & proxies & more about tide.",
        "",
      ].join("\n"),
    );
    expect(engines.of("duckduckgo").at(-1)?.params.q).toBe("tide mills");
  });

  test("--json prints the SPEC Search response; every flag reaches the provider", async () => {
    engines.clear();
    const result = await siphon([
      "tide",
      "--json",
      "--provider",
      "brave",
      "--search-key",
      BRAVE_KEY,
      "--count",
      "3",
      "--sources",
      "web,news,images",
      "--categories",
      "pdf",
      "--tbs",
      "qdr:m",
      "--country",
      "ch-de",
      "--location",
      "Zurich, Switzerland",
    ]);
    expect(result.code).toBe(0);
    const response = JSON.parse(result.stdout) as SearchResponse;
    expect(response.success).toBe(true);
    expect(response.data.web).toHaveLength(3);
    expect(response.data.news).toHaveLength(3);
    expect(response.data.images).toHaveLength(3);
    const web = engines.of("brave").find((r) => r.path.endsWith("/web/search"));
    expect(web?.params).toEqual({
      q: "tide filetype:pdf",
      count: "3",
      country: "CH",
      search_lang: "de",
      freshness: "pm",
    });
    expect(web?.headers).toMatchObject({ "x-subscription-token": BRAVE_KEY, "x-loc-city": "Zurich" });
    expect(result.stdout + result.stderr).not.toContain(BRAVE_KEY);
  });

  test(
    "--scrape prints each page's content after its entry; a failed page is a warning",
    async () => {
      const result = await siphon(["tide broken", "--count", "2", "--scrape"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`   ${CLOSED_URL}\n   Gone & more about tide.\n   (not fetched: `);
      expect(result.stdout).toContain(`\n\n# ${DOCS_TITLE}\n`);
      expect(result.stderr).toContain(`${CLOSED_URL}: 127.0.0.1 refused the connection`);

      const json = await siphon(["tide broken", "--count", "2", "--scrape", "--json"]);
      const data = (JSON.parse(json.stdout) as SearchResponse).data;
      expect(data.web[0]).toMatchObject({ url: CLOSED_URL, content: null, error: { type: "network_error" } });
      expect(data.web[1]?.content).toStartWith(`# ${DOCS_TITLE}`);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "exit codes: 2 for bad input, 1 for a failed search; --json prints the error object",
    async () => {
      const bad = await siphon(["tide", "--count", "11", "--json"]);
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stdout)).toEqual({
        success: false,
        error: { type: "invalid_request", message: "--count must be an integer from 1 to 10" },
      });
      const news = await siphon(["tide", "--sources", "news"]);
      expect(news.code).toBe(2);
      expect(news.stderr).toContain("DuckDuckGo has no news search");

      const captcha = await siphon(["tide captcha", "--json"]);
      expect(captcha.code).toBe(1);
      const error = JSON.parse(captcha.stdout).error;
      expect(error.type).toBe("search_failed");
      expect(error.message).toStartWith("DuckDuckGo rate-limited siphon");

      const wrongKey = "BSA-not-the-key-4242";
      const refused = await siphon(["tide", "--provider", "brave", "--search-key", wrongKey]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("Brave Search refused the key");
      expect(refused.stdout + refused.stderr).not.toContain(wrongKey);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "remote mode calls GET /v1/search with the key in a header, and prints the same",
    async () => {
      const app: TestApp = await startTestApp({
        braveUrl: engines.braveUrl,
        duckduckgoUrl: engines.duckduckgoUrl,
      });
      const seen: { url: string; key: string | null }[] = [];
      // A recorder in front of the app, to see what the CLI sent.
      const front = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        fetch(request) {
          const url = new URL(request.url);
          seen.push({ url: request.url, key: request.headers.get("x-search-api-key") });
          return app.request(`${url.pathname}${url.search}`, { headers: request.headers });
        },
      });
      try {
        const apiUrl = `http://127.0.0.1:${front.port}`;
        const args = [
          "tide",
          "--provider",
          "brave",
          "--search-key",
          BRAVE_KEY,
          "--count",
          "2",
          "--tbs",
          "qdr:w",
        ];
        const remote = await siphon([...args, "--api-url", apiUrl]);
        const local = await siphon(args);
        expect(remote.code).toBe(0);
        expect(remote.stdout).toBe(local.stdout);
        expect(seen).toHaveLength(1);
        const sent = new URL(seen[0]!.url);
        expect(sent.pathname).toBe("/v1/search");
        expect(Object.fromEntries(sent.searchParams)).toEqual({
          q: "tide",
          count: "2",
          sources: "web",
          provider: "brave",
          tbs: "qdr:w",
        });
        expect(seen[0]!.url).not.toContain(BRAVE_KEY);
        expect(seen[0]!.key).toBe(BRAVE_KEY);
        // The server's errors become the same exit codes.
        const failed = await siphon(["tide captcha", "--api-url", apiUrl]);
        expect(failed.code).toBe(1);
        expect(failed.stderr).toContain("DuckDuckGo rate-limited siphon");
      } finally {
        front.stop(true);
        await app.close();
      }
    },
    SEVERAL_RUNS_MS,
  );
});

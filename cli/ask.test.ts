import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskResponse } from "../src/schemas/ask.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import { BRAVE_KEY, type FakeSearch, startFakeSearch } from "../test/helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";
import { KNOWLEDGE_RESULTS } from "../test/helpers/site-pages/knowledge.ts";

const _main = join(import.meta.dir, "main.ts");
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
const TIDE_MILL_WHEEL = "Tide mills therefore used undershot or low breastshot wheels";
let home: string;
let site: FixtureSite;
let engines: FakeSearch;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-ask-"));
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  engines.results = KNOWLEDGE_RESULTS;
});
afterAll(async () => {
  await engines.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `bun cli/main.ts ask …` against the fake engines; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return runCli(["ask", ...args], home, {
    SIPHON_DUCKDUCKGO_URL: engines.duckduckgoUrl,
    SIPHON_BRAVE_URL: engines.braveUrl,
    ...env,
  });
}

/** The readable form `siphon ask` prints for a response. */
function readable(response: AskResponse): string {
  const sources = response.sources
    .map(
      (s, i) =>
        `${i + 1}. ${s.title}\n   ${s.url}\n   confidence ${s.confidence.toFixed(2)} · ${s.authority} · ${s.freshness}`,
    )
    .join("\n");
  const answer =
    response.answer === null ? "" : `${response.answer}\n\nConfidence: ${response.confidence.toFixed(2)}\n\n`;
  return `${answer}Sources:\n${sources}\n`;
}

describe("siphon ask", () => {
  test(
    "prints the answer, its confidence and the sources; --json the Ask response; several words are one question",
    async () => {
      const json = await siphon(["what", "wheel", "does", "a", "tide", "mill", "use", "--json"]);
      expect(json.code).toBe(0);
      const response = JSON.parse(json.stdout) as AskResponse;
      expect(response).toMatchObject({
        success: true,
        question: "what wheel does a tide mill use",
        method: "bm25",
      });
      expect(response.answer).toContain(TIDE_MILL_WHEEL);
      expect(response.sources).toHaveLength(3);
      expect(response.sources[0]).toMatchObject({
        url: `${site.url}/knowledge/tide-mills`,
        authority: "general",
        freshness: "older",
      });
      expect(engines.of("duckduckgo").at(-1)?.params.q).toBe("what wheel does a tide mill use");

      const human = await siphon(["what wheel does a tide mill use"]);
      expect(human.code).toBe(0);
      expect(human.stdout).toBe(readable(response));
      expect(human.stdout).toStartWith(`The fall of water in a tide mill is small`);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "--sources, --provider and --search-key reach the search",
    async () => {
      engines.clear();
      const result = await siphon([
        "what kind of stone made the best millstones?",
        "--sources",
        "5",
        "--provider",
        "brave",
        "--search-key",
        BRAVE_KEY,
        "--json",
      ]);
      expect(result.code).toBe(0);
      const response = JSON.parse(result.stdout) as AskResponse;
      expect(response.sources).toHaveLength(5);
      expect(response.answer).toContain("Millers prized French burr");
      const sent = engines.of("brave")[0];
      expect(sent?.params.count).toBe("5");
      expect(sent?.headers["x-subscription-token"]).toBe(BRAVE_KEY);
      expect(result.stdout + result.stderr).not.toContain(BRAVE_KEY);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "no passage with the question's words: no answer, a warning, exit 0",
    async () => {
      const result = await siphon(["quantum chromodynamics gluon", "--sources", "2"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toStartWith("Sources:\n1. ");
      expect(result.stdout).not.toContain("Confidence:");
      expect(result.stderr).toContain("No passage of the pages found has the question's words");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "exit codes: 2 for bad input, 1 for a failed search; --json prints the error object",
    async () => {
      const bad = await siphon(["tides", "--sources", "6", "--json"]);
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stdout)).toEqual({
        success: false,
        error: { type: "invalid_request", message: "--sources must be an integer from 1 to 5" },
      });
      const provider = await siphon(["tides", "--provider", "bing"]);
      expect(provider.code).toBe(2);
      expect(provider.stderr).toContain("provider must be one of duckduckgo, brave, searxng");

      const captcha = await siphon(["tides captcha", "--json"]);
      expect(captcha.code).toBe(1);
      const error = JSON.parse(captcha.stdout).error;
      expect(error.type).toBe("search_failed");
      expect(error.message).toStartWith("DuckDuckGo rate-limited siphon");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "remote mode calls POST /v1/ask with the key in a header, and prints the same",
    async () => {
      const app: TestApp = await startTestApp({
        braveUrl: engines.braveUrl,
        duckduckgoUrl: engines.duckduckgoUrl,
        escalation: false,
      });
      const seen: { method: string; path: string; body: string; key: string | null }[] = [];
      // A recorder in front of the app, to see what the CLI sent.
      const front = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        async fetch(request) {
          const url = new URL(request.url);
          const body = await request.text();
          seen.push({
            method: request.method,
            path: url.pathname,
            body,
            key: request.headers.get("x-search-api-key"),
          });
          return app.request(`${url.pathname}${url.search}`, {
            method: request.method,
            headers: request.headers,
            body,
          });
        },
      });
      try {
        const apiUrl = `http://127.0.0.1:${front.port}`;
        const args = [
          "why are there two high tides every day?",
          "--provider",
          "brave",
          "--search-key",
          BRAVE_KEY,
          "--sources",
          "4",
        ];
        const remote = await siphon([...args, "--api-url", apiUrl]);
        const local = await siphon(args);
        expect(remote.code).toBe(0);
        expect(remote.stdout).toBe(local.stdout);
        expect(remote.stdout).toContain("most coasts get two high tides and two low tides a day");
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ method: "POST", path: "/v1/ask", key: BRAVE_KEY });
        expect(JSON.parse(seen[0]?.body ?? "")).toEqual({
          question: "why are there two high tides every day?",
          sources: 4,
          provider: "brave",
        });
        // The server's errors become the same exit codes.
        const failed = await siphon(["tides captcha", "--api-url", apiUrl]);
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

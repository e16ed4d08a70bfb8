import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GAP_SCHEMA_NAME, PLAN_SCHEMA_NAME } from "../src/research/index.ts";
import type { DeepResearchResponse, ResearchResponse } from "../src/schemas/research.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import { type FakeLlm, type FakeLlmRequest, startFakeLlm } from "../test/helpers/fake-llm.ts";
import { type FakeSearch, startFakeSearch } from "../test/helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";

const _main = join(import.meta.dir, "main.ts");
const KEY = "sk-cli-research-3b7d1f5a9c2e4b6dSECRET";
const SERVICE_KEY = "sk-cli-research-service-6e0a4c8b2d1fSECRET";
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
let home: string;
let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;

const schemaName = (r: FakeLlmRequest) =>
  (r.body?.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-research-"));
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [KEY, SERVICE_KEY] });
});
afterAll(async () => {
  await llm.stop();
  await engines.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = (request) => {
    const name = schemaName(request);
    if (name === PLAN_SCHEMA_NAME)
      return { json: { subQuestions: ["solar farm vote", "http client timeouts"] } };
    if (name === GAP_SCHEMA_NAME) return { json: { answered: false, missing: ["council budget"] } };
    return { text: "The council approved it [1]. Mills use tides [2][7]." };
  };
});

/** Runs `bun cli/main.ts research …` against the fakes; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return runCli(["research", ...args], home, {
    SIPHON_DUCKDUCKGO_URL: engines.duckduckgoUrl,
    ...llm.env(),
    ...env,
  });
}

const SERVICE_ENV = { SIPHON_LLM_PROVIDER: "openai", SIPHON_LLM_API_KEY: SERVICE_KEY };

describe("siphon research", () => {
  test("prints the report, then the sources it cites; the key comes from OPENAI_API_KEY", async () => {
    const result = await siphon(["what", "did", "the", "council", "approve", "--sources", "3"], {
      OPENAI_API_KEY: KEY,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // Numbered as cited, each with its page's own title and its URL; [7] named no source.
    expect(result.stdout).toMatch(
      new RegExp(
        "^The council approved it \\[1\\]\\. Mills use tides \\[2\\]\\.\n\nSources:\n" +
          `\\[1\\] City Council Approves Riverside Solar Farm[^\\n]*\\n    ${site.url}/article\\n` +
          `\\[2\\] Configuring the HTTP client[^\\n]*\\n    ${site.url}/docs\\n$`,
      ),
    );
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  test(
    "--deep --rounds 2 --stream: progress on stderr, the report streamed on stdout; SIPHON_LLM_* is the default LLM",
    async () => {
      const result = await siphon(["solar farm", "--deep", "--rounds", "2", "--stream"], SERVICE_ENV);
      expect(result.code).toBe(0);
      const steps = result.stderr
        .split("\n")
        .filter(Boolean)
        .map((line) => /(\w+) \(round (\d)\)/.exec(line)?.slice(1).join(" "));
      expect(steps).toEqual([
        "decomposing 1",
        "searching 1",
        "fetching 1",
        "scoring 1",
        "gap_check 1",
        "searching 2",
        "fetching 2",
        "scoring 2",
        "synthesizing 2",
      ]);
      expect(result.stdout).toStartWith(
        "The council approved it [1]. Mills use tides [2].\n\nSources:\n[1] ",
      );
      // The plan, one gap check (after round 1), the report: all on the service's key.
      expect(llm.requests.map((r) => r.authorization)).toEqual(Array(3).fill(`Bearer ${SERVICE_KEY}`));
      expect(llm.requests.at(-1)?.stream).toBe(true);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "--json prints the response: research's for --depth deep, deep research's for --deep",
    async () => {
      const research = JSON.parse(
        (await siphon(["solar farm", "--depth", "deep", "--sources", "6", "--json"], SERVICE_ENV)).stdout,
      ) as ResearchResponse;
      expect(research).toMatchObject({ success: true, query: "solar farm", sourcesUsed: expect.any(Number) });
      expect(research.citations.map((c) => c.index)).toEqual([1, 2]);
      const deep = JSON.parse(
        (await siphon(["solar farm", "--deep", "--rounds", "1", "--stream", "--json"], SERVICE_ENV)).stdout,
      ) as DeepResearchResponse;
      expect(deep).toMatchObject({ success: true, roundsCompleted: 1 });
      expect(deep.report).toBe("The council approved it [1]. Mills use tides [2].");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "exit codes: 2 without an LLM or with bad flags, 2 for a refused key, 1 when the search fails; no key printed",
    async () => {
      const none = await siphon(["solar farm"]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("--llm-key");
      expect(none.stderr).toContain("SIPHON_LLM_PROVIDER");
      const rounds = await siphon(["solar farm", "--rounds", "9"], SERVICE_ENV);
      expect(rounds.code).toBe(2);
      expect(rounds.stderr).toContain("maxRounds");
      const both = await siphon(["solar farm", "--deep", "--depth", "quick"], SERVICE_ENV);
      expect(both.code).toBe(2);
      const refused = await siphon(["solar farm", "--llm-key", `${KEY}-wrong`, "--sources", "1"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("llm.apiKey");
      const failed = await siphon(["captcha", "--llm-key", KEY, "--json"]);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout).error.type).toBe("search_failed");
      for (const out of [none, rounds, both, refused, failed]) {
        expect(out.stdout + out.stderr).not.toContain(KEY);
      }
    },
    SEVERAL_RUNS_MS,
  );

  describe("with --api-url", () => {
    let app: TestApp;
    let apiUrl: string;
    beforeAll(async () => {
      app = await startTestApp({
        duckduckgoUrl: engines.duckduckgoUrl,
        openaiBaseUrl: llm.baseUrl("openai"),
        escalation: false,
        llmProvider: "openai",
        llmApiKey: SERVICE_KEY,
      });
      apiUrl = app.listen();
    });
    afterAll(() => app.close());

    test(
      "the server's LLM without flags; the stream and --json print what a local run prints",
      async () => {
        const args = ["solar farm", "--deep", "--rounds", "1", "--stream"];
        const remote = await siphon([...args, "--api-url", apiUrl]);
        const local = await siphon(args, SERVICE_ENV);
        expect(remote.code).toBe(0);
        expect(remote.stdout).toBe(local.stdout);
        expect(remote.stderr).toContain("synthesizing (round 1)");
        const quick = ["solar farm", "--sources", "2", "--llm-key", KEY, "--json"];
        const remoteJson = JSON.parse((await siphon([...quick, "--api-url", apiUrl])).stdout);
        const localJson = JSON.parse((await siphon(quick)).stdout);
        delete remoteJson.elapsed;
        delete localJson.elapsed;
        expect(remoteJson).toEqual(localJson);
        expect(llm.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
      },
      SEVERAL_RUNS_MS,
    );
  });
});

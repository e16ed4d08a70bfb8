import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnswerResponse } from "../src/schemas/answer.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../test/helpers/fake-llm.ts";
import { type FakeSearch, RESULT_PAGES, startFakeSearch } from "../test/helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";

const _main = join(import.meta.dir, "main.ts");
const KEY = "sk-cli-answer-4e8b2a6c0d1f3e5a7b9cSECRET";
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
let home: string;
let site: FixtureSite;
let engines: FakeSearch;
let llm: FakeLlm;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-answer-"));
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
});
afterAll(async () => {
  await llm.stop();
  await engines.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `bun cli/main.ts answer …` against the fakes; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return runCli(["answer", ...args], home, {
    SIPHON_DUCKDUCKGO_URL: engines.duckduckgoUrl,
    ...llm.env(),
    ...env,
  });
}

/** "Sources:" then, per source, "[n] <its page's title>" and its URL indented: the first `count` results. */
const sourcesPattern = (count: number) => {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const entries = RESULT_PAGES.slice(0, count).map(
    (p, i) =>
      `\\[${i + 1}\\] ${literal(p.title.split(" ").slice(0, 3).join(" "))}[^\\n]*\\n    ${literal(site.url + p.path)}`,
  );
  return new RegExp(`^Sources:\\n${entries.join("\\n")}\\n$`);
};

describe("siphon answer", () => {
  test("prints the streamed answer, then the numbered sources; the key comes from OPENAI_API_KEY", async () => {
    llm.reply = () => ({ chunks: ["Solar ", "farm [", "1] and ", "docs [2][5]."] });
    const result = await siphon(["what", "did", "the", "council", "approve", "--sources", "2"], {
      OPENAI_API_KEY: KEY,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [text, sources] = result.stdout.split("\n\n");
    expect(text).toBe("Solar farm [1] and docs [2].");
    // Numbered as cited, each with the page's own title and its URL.
    expect(sources).toMatch(sourcesPattern(2));
    const request = llm.requests.at(-1)!;
    expect(request.stream).toBe(true);
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.messages.at(-1)?.content).toContain("Question: what did the council approve");
  });

  test("--json prints the Answer response; --llm and --llm-model choose the vendor and model", async () => {
    llm.reply = () => ({ text: "Answer [1].", usage: { prompt_tokens: 90, completion_tokens: 3 } });
    const result = await siphon([
      "solar farm",
      "--llm",
      "anthropic",
      "--llm-key",
      KEY,
      "--llm-model",
      "claude-x",
      "--sources",
      "1",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as AnswerResponse;
    expect(body).toMatchObject({
      success: true,
      answer: "Answer [1].",
      llmProvider: "anthropic",
      llmModel: "claude-x",
      searchProvider: "duckduckgo",
      tokensUsed: { input: 90, output: 3 },
    });
    expect(body.citations.map((c) => c.url)).toEqual([`${site.url}/article`]);
    expect(llm.requests.at(-1)?.path).toBe("/anthropic/v1/chat/completions");
  });

  test(
    "exit codes: 2 without a key or with bad flags, 2 for a refused key, 1 when the search fails; the key is never printed",
    async () => {
      const none = await siphon(["solar farm"]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("OPENAI_API_KEY");
      const bad = await siphon(["solar farm", "--llm-key", KEY, "--sources", "11"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("maxSources");
      const refused = await siphon(["solar farm", "--llm-key", `${KEY}-wrong`, "--sources", "1"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("openai");
      expect(refused.stdout + refused.stderr).not.toContain(KEY);
      const failed = await siphon(["captcha", "--llm-key", KEY, "--json"]);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout).error.type).toBe("search_failed");
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
      });
      apiUrl = app.listen();
    });
    afterAll(() => app.close());

    test(
      "streams from the server's SSE and prints what a local run prints; --json matches too",
      async () => {
        llm.reply = () => ({ text: "Remote answer [2].", chunks: ["Remote ", "answer [", "2", "]."] });
        const args = ["solar farm", "--llm-key", KEY, "--sources", "2"];
        const remote = await siphon([...args, "--api-url", apiUrl]);
        const local = await siphon(args);
        expect(remote.code).toBe(0);
        expect(remote.stdout).toStartWith("Remote answer [2].\n\nSources:\n[1] ");
        expect(remote.stdout).toBe(local.stdout);
        const remoteJson = JSON.parse((await siphon([...args, "--json", "--api-url", apiUrl])).stdout);
        const localJson = JSON.parse((await siphon([...args, "--json"])).stdout);
        expect(remoteJson).toEqual(localJson);
        expect(remoteJson.answer).toBe("Remote answer [2].");
      },
      SEVERAL_RUNS_MS,
    );

    test("a server error before the stream is the same exit code and message", async () => {
      const remote = await siphon(["captcha", "--llm-key", KEY, "--api-url", apiUrl]);
      expect(remote.code).toBe(1);
      expect(remote.stderr).toContain("[search_failed]");
    });
  });
});

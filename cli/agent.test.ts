import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentResponse } from "../src/schemas/agent.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../test/helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { run, runCli } from "../test/helpers/run.ts";
import { ARTICLE_TITLE } from "../test/helpers/site-pages/article.ts";

const main = join(import.meta.dir, "main.ts");
const KEY = "sk-cli-agent-0b1c2d3e4f5a6b7c8d9eSECRET";
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
let home: string;
let site: FixtureSite;
let llm: FakeLlm;
let server: TestApp;
let base: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-agent-"));
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
  server = await startTestApp({ openaiBaseUrl: llm.baseUrl("openai"), escalation: false });
  base = server.listen();
});
afterAll(async () => {
  await server.close();
  await llm.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = () => ({ chunks: ["The council ", "approved a ", "solar farm [1]."] });
});

/** Runs `bun cli/main.ts agent …` against the fakes; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return runCli(["agent", ...args], home, { ...llm.env(), ...env });
}

const article = () => `${site.url}/article`;
/** The sources list of one source, the article, under its page title. */
const SOURCES = () => new RegExp(`\n\nSources:\n\\[1\\] ${ARTICLE_TITLE}[^\n]*\n    ${article()}\n$`);

describe("siphon agent", () => {
  test("prints the answer as it is written, then the numbered sources; the key comes from OPENAI_API_KEY", async () => {
    const result = await siphon(["what was approved?", "--urls", article()], { OPENAI_API_KEY: KEY });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toStartWith("The council approved a solar farm [1].");
    expect(result.stdout).toMatch(SOURCES());
    expect(llm.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  test(
    "--json prints the Agent response; --schema FILE gives structured data; --json --stream prints events",
    async () => {
      const schemaFile = join(home, "schema.json");
      writeFileSync(
        schemaFile,
        JSON.stringify({
          type: "object",
          properties: { project: { type: "string" } },
          required: ["project"],
        }),
      );
      llm.reply = (req) => (req.body?.response_format ? { json: { project: "solar farm" } } : { text: "ok" });
      const structured = await siphon([
        "what?",
        "--urls",
        article(),
        "--llm-key",
        KEY,
        "--schema",
        schemaFile,
        "--json",
      ]);
      expect(structured.code).toBe(0);
      const response = JSON.parse(structured.stdout) as AgentResponse;
      expect(response).toMatchObject({
        success: true,
        data: { project: "solar farm" },
        sources: [article()],
      });

      llm.reply = () => ({ chunks: ["Solar ", "farm [1]."] });
      const events = await siphon(["what?", "--urls", article(), "--llm-key", KEY, "--json", "--stream"]);
      expect(events.code).toBe(0);
      const lines = events.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; text?: string });
      expect(lines.some((e) => e.type === "step")).toBe(true);
      expect(
        lines
          .filter((e) => e.type === "chunk")
          .map((e) => e.text)
          .join(""),
      ).toBe("Solar farm [1].");
      expect(lines.at(-1)).toMatchObject({ type: "done", sources: [article()] });
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "bad input exits 2: no key, a bad schema, --async without a server",
    async () => {
      const noKey = await siphon(["what?"]);
      expect(noKey.code).toBe(2);
      expect(noKey.stderr).toContain("OPENAI_API_KEY");
      const badSchema = await siphon(["what?", "--llm-key", KEY, "--schema", "{not json"]);
      expect(badSchema.code).toBe(2);
      const alone = await siphon(["what?", "--llm-key", KEY, "--async"]);
      expect(alone.code).toBe(2);
      expect(alone.stderr).toContain("--api-url");
      expect(llm.requests).toHaveLength(0);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "--async prints the job id; `agent status ID --wait` follows it to the answer, here or on the server; `jobs` lists it",
    async () => {
      llm.requests.length = 0;
      const started = await siphon([
        "what was approved?",
        "--urls",
        article(),
        "--llm-key",
        KEY,
        "--async",
        "--api-url",
        base,
      ]);
      expect(started.code).toBe(0);
      const id = started.stdout.trim();
      expect(id).toMatch(/^job_[0-9a-f-]{36}$/);

      const followed = await siphon(["status", id, "--wait", "--api-url", base]);
      expect(followed.code).toBe(0);
      expect(followed.stdout).toStartWith("The council approved a solar farm [1].");
      expect(followed.stdout).toMatch(SOURCES());

      // The server's own store, read without it: the same job, as JSON, without the key.
      const local = await siphon(["status", id, "--json"], { SIPHON_HOME: server.home });
      expect(local.code).toBe(0);
      const view = JSON.parse(local.stdout);
      expect(view).toMatchObject({ id, status: "completed", sources: [article()], creditsUsed: 1 });
      expect(local.stdout).not.toContain(KEY);

      const jobs = await run(
        [process.execPath, main, "jobs", "--type", "agent", "--json", "--api-url", base],
        {
          env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home },
        },
      );
      expect(
        jobs.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).id),
      ).toContain(id);

      const unknown = await siphon(["status", "job_00000000-0000-0000-0000-000000000000", "--api-url", base]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("not_found");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "a job that failed: status prints failed and its error, exit 5",
    async () => {
      const started = await siphon([
        "what?",
        "--urls",
        article(),
        "--llm-key",
        `${KEY}x`,
        "--async",
        "--api-url",
        base,
      ]);
      const id = started.stdout.trim();
      const followed = await siphon(["status", id, "--wait", "--api-url", base]);
      expect(followed.code).toBe(5);
      expect(followed.stdout).toBe("failed\n");
      expect(followed.stderr).toContain(`${id} failed`);
      expect(followed.stderr).not.toContain(`${KEY}x`);
    },
    SEVERAL_RUNS_MS,
  );

  test("against a server without --async: the answer streams from POST /v1/agent", async () => {
    const result = await siphon([
      "what was approved?",
      "--urls",
      article(),
      "--llm-key",
      KEY,
      "--api-url",
      base,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toStartWith("The council approved a solar farm [1].");
    expect(result.stdout).toMatch(SOURCES());
  });
});

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

const root = join(import.meta.dir, "../..");
const KEY = "sk-restart-9a8b7c6d5e4f3a2b1c0dSECRET";

let site: FixtureSite;
let llm: FakeLlm;
let home: string;
const servers: { proc: Bun.Subprocess; stderr: () => string }[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY] });
  home = mkdtempSync(join(tmpdir(), "siphon-agent-restart-"));
});
afterAll(async () => {
  // A failed assertion skips a test's own kill: no server may outlive the suite.
  for (const { proc } of servers) if (proc.exitCode === null) proc.kill("SIGKILL");
  await llm.stop();
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Starts `siphon serve --port 0` from source on the shared home; resolves with its base URL. */
async function startServe(
  extraEnv: Record<string, string> = {},
): Promise<{ proc: Bun.Subprocess; base: string; stderr: () => string }> {
  const proc = Bun.spawn(["bun", join(root, "cli/main.ts"), "serve", "--port", "0"], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? "",
      SIPHON_HOME: home,
      DISABLE_SSRF_PROTECTION: "true",
      SIPHON_ESCALATION: "false",
      ...llm.env(),
      ...extraEnv,
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  let text = "";
  const server = { proc, stderr: () => text };
  servers.push(server);
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const pattern = /listening on (http:\/\/\S+)/;
  while (!pattern.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${text}`);
    text += decoder.decode(value);
  }
  // Keep reading, so the log can be checked for the key afterwards.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value);
    }
  })();
  return { ...server, base: pattern.exec(text)?.[1] ?? "" };
}

/** The operator's setting that lets jobs carrying keys survive a restart (keys are stored only sealed with it). */
const SEALING = { SIPHON_JOB_SECRET_KEY: "an operator passphrase of enough length" };

describe("restart safety of agent jobs", () => {
  test("an agent job running when the server is SIGKILLed is run again by the next server and completes", async () => {
    // The first model call hangs until the server dies; every later one answers at once.
    let calls = 0;
    llm.reply = () => (++calls === 1 ? { text: "never sent", delayMs: 60_000 } : { text: "Solar farm [1]." });
    const first = await startServe(SEALING);
    const start = await fetch(`${first.base}/v1/agent/async`, {
      method: "POST",
      body: JSON.stringify({ prompt: "What was approved?", llmApiKey: KEY, urls: [`${site.url}/article`] }),
    });
    expect(start.status).toBe(202);
    const { id } = (await start.json()) as { id: string };
    for (let i = 0; i < 400 && llm.requests.length === 0; i++) await Bun.sleep(25);
    expect(llm.requests).toHaveLength(1);
    const running = (await (await fetch(`${first.base}/v1/agent/${id}`)).json()) as { status: string };
    expect(running.status).toBe("processing");

    first.proc.kill("SIGKILL");
    await first.proc.exited;
    const second = await startServe(SEALING);
    let polled = { status: "", answer: "" } as Record<string, unknown>;
    let text = "";
    for (let i = 0; i < 400 && !["completed", "failed", "cancelled"].includes(String(polled.status)); i++) {
      await Bun.sleep(25);
      text = await (await fetch(`${second.base}/v1/agent/${id}`)).text();
      polled = JSON.parse(text);
    }
    second.proc.kill("SIGTERM");
    await second.proc.exited;

    expect(polled).toMatchObject({ status: "completed", answer: expect.stringContaining("Solar farm") });
    expect(second.stderr()).toContain("resumed 1 unfinished job(s)");
    // The model saw the job again, from the second server, with the caller's key.
    expect(llm.requests.length).toBeGreaterThan(1);
    for (const r of llm.requests) expect(r.authorization).toBe(`Bearer ${KEY}`);
    expect(text).not.toContain(KEY);
    for (const server of servers) expect(server.stderr()).not.toContain(KEY);
    const db = new Database(join(home, "siphon.db"), { readonly: true });
    try {
      const row = db.prepare("SELECT status, input FROM jobs WHERE id = ?1").get(id) as {
        status: string;
        input: string;
      };
      expect(row.status).toBe("completed");
      expect(row.input).toContain("What was approved?");
      expect(row.input).not.toContain(KEY);
    } finally {
      db.close();
    }
  }, 60_000);

  test("without SIPHON_JOB_SECRET_KEY, the next server fails the job saying its key went with the process, and never runs it keyless", async () => {
    let calls = 0;
    llm.requests.length = 0;
    llm.reply = () => (++calls === 1 ? { text: "never sent", delayMs: 60_000 } : { text: "Solar farm [1]." });
    const first = await startServe();
    const start = await fetch(`${first.base}/v1/agent/async`, {
      method: "POST",
      body: JSON.stringify({ prompt: "What was approved?", llmApiKey: KEY, urls: [`${site.url}/article`] }),
    });
    const { id } = (await start.json()) as { id: string };
    for (let i = 0; i < 400 && llm.requests.length === 0; i++) await Bun.sleep(25);
    expect(llm.requests).toHaveLength(1);
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    const second = await startServe();
    const polled = (await (await fetch(`${second.base}/v1/agent/${id}`)).json()) as Record<string, unknown>;
    second.proc.kill("SIGTERM");
    await second.proc.exited;
    expect(polled.status).toBe("failed");
    expect(String(polled.error)).toContain("SIPHON_JOB_SECRET_KEY");
    // The second server never called the model for it, with or without a key.
    expect(llm.requests).toHaveLength(1);
  }, 60_000);
});

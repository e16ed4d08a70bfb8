import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../test/helpers/run.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-config-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

test("siphon config prints every setting, where it came from, and no secret", async () => {
  const secret = "sk-config-cli-0123456789abcdef";
  writeFileSync(join(home, "config.json"), JSON.stringify({ port: 8080, llmApiKey: secret }));
  const env = { REDIS_URL: "redis://:hunter2@127.0.0.1:6379" };
  const table = await runCli(["config"], home, env);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^PORT +8080 +\(config\.json\)$/m);
  expect(table.stdout).toMatch(/^SIPHON_HOST +"127\.0\.0\.1"$/m);
  const json = JSON.parse((await runCli(["config", "--json"], home, env)).stdout) as {
    env: string;
    value: unknown;
    source: string;
  }[];
  expect(json.find((s) => s.env === "REDIS_URL")).toMatchObject({
    value: "redis://:****@127.0.0.1:6379",
    source: "environment",
  });
  expect(json.find((s) => s.env === "SIPHON_LLM_API_KEY")?.source).toBe("config.json");
  for (const out of [table.stdout, JSON.stringify(json)]) {
    expect(out).not.toContain(secret);
    expect(out).not.toContain("hunter2");
  }
});

test("a config.json with an unknown key stops every command with exit 2 and the closest name", async () => {
  writeFileSync(join(home, "config.json"), JSON.stringify({ SIPHON_SSRF_ALOW: "10.0.0.5" }));
  for (const args of [["config"], ["fetch", "https://example.com"], ["serve", "--port", "0"]]) {
    const run = await runCli(args, home);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('did you mean "SIPHON_SSRF_ALLOW"?');
  }
});

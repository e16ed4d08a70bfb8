import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";

let site: FixtureSite;
let home: string;
beforeAll(async () => {
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-llmstxt-"));
});
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

test("llmstxt prints llms.txt, writes both files with -o, and --json gives the result", async () => {
  const args = ["llmstxt", `${site.url}/`, "--limit", "4", "--max-depth", "1"];
  const printed = await runCli(args, home);
  expect(printed.code).toBe(0);
  expect(printed.stdout).toMatch(/^# \S.*\n\n> \S/);
  expect(printed.stdout).toContain(`](${site.url}/)`);

  const out = join(home, "out");
  const written = await runCli([...args, "-o", out], home);
  expect(written.code).toBe(0);
  expect(readFileSync(join(out, "llms.txt"), "utf8")).toBe(printed.stdout);
  expect(readFileSync(join(out, "llms-full.txt"), "utf8")).toContain(`Source: ${site.url}/`);

  const json = await runCli([...args, "--json"], home);
  const result = JSON.parse(json.stdout) as Record<string, unknown>;
  expect(result).toMatchObject({ status: "completed", source: "generated", llmsTxt: printed.stdout });

  const bad = await runCli(["llmstxt", `${site.url}/`, "-o", out, "--json"], home);
  expect(bad.code).toBe(2);

  // The jobs list and siphon jobs ID know llms.txt jobs too.
  const listed = await runCli(["jobs", "--type", "llmstxt", "--json"], home);
  expect(listed.code).toBe(0);
  const ids = listed.stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { id: string }).id);
  expect(ids.length).toBe(3);
  const shown = await runCli(["jobs", ids[0] as string, "--json"], home);
  expect(shown.code).toBe(0);
  expect(JSON.parse(shown.stdout)).toMatchObject({ type: "llmstxt", status: "completed" });
});

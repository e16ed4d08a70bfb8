import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARTICLE_SENTENCE, type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";

let site: FixtureSite;
const homes: string[] = [];
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});
const freshHome = () => {
  const home = mkdtempSync(join(tmpdir(), "siphon-fetch-store-"));
  homes.push(home);
  return home;
};

test("fetch --no-cache never creates the store; a fetch with the cache creates it and hits it next time", async () => {
  const home = freshHome();
  const url = `${site.url}/article`;
  const plain = await runCli(["fetch", url, "--no-cache"], home);
  expect(plain.code).toBe(0);
  expect(plain.stdout).toContain(ARTICLE_SENTENCE);
  expect(existsSync(join(home, "siphon.db"))).toBe(false);

  site.resetHits();
  const first = await runCli(["fetch", url], home);
  const second = await runCli(["fetch", url], home);
  expect([first.code, second.code]).toEqual([0, 0]);
  expect(second.stdout).toBe(first.stdout);
  expect(existsSync(join(home, "siphon.db"))).toBe(true);
  // The second answer came from the cache the first one filled.
  expect(site.hits("/article")).toBe(1);
});

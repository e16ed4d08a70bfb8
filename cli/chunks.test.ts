import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Chunk } from "../src/chunks/index.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";

let site: FixtureSite;
let home: string;
beforeAll(async () => {
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-chunks-"));
});
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

const lines = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Chunk);

test("fetch --chunks prints JSON Lines, one chunk a line; the same page gives the same ids", async () => {
  const url = `${site.url}/docs`;
  const first = await runCli(["fetch", url, "--chunks", "--chunk-tokens", "64", "--no-cache"], home);
  expect(first.code).toBe(0);
  const chunks = lines(first.stdout);
  expect(chunks.length).toBeGreaterThan(2);
  expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  for (const chunk of chunks) {
    expect(chunk.url).toBe(url);
    expect(chunk.tokenizer).toBe("o200k_base");
    expect(chunk.tokens).toBeGreaterThan(0);
  }
  expect(chunks.some((c) => c.headings.length === 2)).toBe(true);
  const again = await runCli(["fetch", url, "--chunks", "--chunk-tokens", "64", "--no-cache"], home);
  expect(lines(again.stdout).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
  const other = await runCli(["fetch", url, "--chunks", "--tokenizer", "cl100k_base", "--no-cache"], home);
  expect(lines(other.stdout)[0]?.tokenizer).toBe("cl100k_base");
});

test("--chunk-tokens without --chunks, and a bad size, are usage errors", async () => {
  const alone = await runCli(["fetch", `${site.url}/docs`, "--chunk-tokens", "64"], home);
  expect(alone.code).toBe(2);
  expect(alone.stderr).toContain("--chunk-tokens needs --chunks");
  const small = await runCli(["fetch", `${site.url}/docs`, "--chunks", "--chunk-tokens", "8"], home);
  expect(small.code).toBe(2);
  expect(small.stderr).toContain("maxTokens");
});

test("crawl --chunks -o DIR writes one chunks.jsonl beside the pages; --json items carry chunks", async () => {
  const out = join(home, "crawl");
  const args = ["crawl", `${site.url}/`, "--limit", "4", "--max-depth", "1", "--chunks"];
  const written = await runCli([...args, "-o", out], home);
  expect(written.code).toBe(0);
  const chunks = lines(readFileSync(join(out, "chunks.jsonl"), "utf8"));
  const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8")) as { url: string; file?: string }[];
  const pages = index.filter((page) => page.file).map((page) => page.url);
  expect(new Set(chunks.map((c) => c.url))).toEqual(new Set(pages));
  const json = await runCli([...args, "--json"], home);
  const items = lines(json.stdout) as unknown as { url: string; chunks: Chunk[] }[];
  expect(items.every((item) => Array.isArray(item.chunks) && item.chunks.length > 0)).toBe(true);
  // Without --json or -o: the chunks of every page, one a line.
  const plain = await runCli(args, home);
  expect(lines(plain.stdout).length).toBe(chunks.length);
});

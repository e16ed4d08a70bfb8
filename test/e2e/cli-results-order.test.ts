/**
 * `siphon crawl` and `siphon batch` print (--json) or write (-o DIR) every page exactly once,
 * whatever order the pages finish in: on this machine (the local store and runner) and
 * following a server (--api-url), run after run on a site whose pages answer after uneven delays.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { expectEachOnce } from "../helpers/results-order.ts";
import { run } from "../helpers/run.ts";
import { startUnevenSite, type UnevenSite } from "../helpers/uneven-site.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
/** Runs of each case: a race shows in a loop, not in one lucky run (each run is a cold CLI and a crawl). */
const RUNS = 2;
let site: UnevenSite;
let app: TestApp;
let apiUrl: string;
let key: string;
const dirs: string[] = [];

const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "siphon-order-"));
  dirs.push(dir);
  return dir;
};

/** The CLI with a fresh home (a cold cache), protection off for the loopback site. */
const siphon = (...args: string[]) =>
  run([process.execPath, MAIN, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: freshDir(),
      SIPHON_HOME: freshDir(),
      DISABLE_SSRF_PROTECTION: "true",
      SIPHON_ESCALATION: "false",
      NO_COLOR: "1",
    },
  });

const crawlArgs = () => ["crawl", site.page(0), "--limit", String(site.all().length), "--max-depth", "5"];
const urlsOfLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => String((JSON.parse(line) as { url: string }).url));

beforeAll(async () => {
  site = startUnevenSite(41);
  app = await startTestApp({ escalation: false, cacheEnabled: false });
  apiUrl = app.listen();
  key = (await app.createKey("max")).key;
});

afterAll(async () => {
  await app?.close();
  site?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("on this machine", () => {
  test(`siphon crawl --json prints each page once (${RUNS} runs)`, async () => {
    for (let i = 0; i < RUNS; i++) {
      const result = await siphon(...crawlArgs(), "--json");
      expect(result.code).toBe(0);
      expectEachOnce(urlsOfLines(result.stdout), site.all());
    }
  }, 120_000);

  test(`siphon crawl -o DIR writes one file per page and an index naming each page once (${RUNS} runs)`, async () => {
    for (let i = 0; i < RUNS; i++) {
      const out = join(freshDir(), "out");
      const result = await siphon(...crawlArgs(), "-o", out);
      expect(result.code).toBe(0);
      const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8")) as {
        url: string;
        file: string;
      }[];
      expectEachOnce(
        index.map((entry) => entry.url),
        site.all(),
      );
      const files = readdirSync(out).filter((name) => name.endsWith(".md"));
      expect(files.sort()).toEqual(index.map((entry) => entry.file).sort());
      // No page written twice under a second name.
      expect(files.filter((name) => /-\d+\.md$/.test(name))).toEqual([]);
      expect(result.stderr).toContain(`completed: ${site.all().length} of ${site.all().length}`);
    }
  }, 120_000);

  test(`siphon batch --json prints each URL once (${RUNS} runs)`, async () => {
    const list = join(freshDir(), "urls.txt");
    await Bun.write(list, `${site.all().join("\n")}\n`);
    for (let i = 0; i < RUNS; i++) {
      const result = await siphon("batch", list, "--json");
      expect(result.code).toBe(0);
      expectEachOnce(urlsOfLines(result.stdout), site.all());
    }
  }, 120_000);
});

describe("following a server (--api-url)", () => {
  test(`siphon crawl --json --api-url prints each page once (${RUNS} runs)`, async () => {
    for (let i = 0; i < RUNS; i++) {
      const result = await siphon(...crawlArgs(), "--json", "--api-url", apiUrl, "--api-key", key);
      expect(result.code).toBe(0);
      expectEachOnce(urlsOfLines(result.stdout), site.all());
    }
  }, 120_000);
});

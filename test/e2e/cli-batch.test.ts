import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARTICLE_SENTENCE, type FixtureSite, NAV_TEXT, startFixtureSite } from "../helpers/fixture-site.ts";
import { type Run, runCli } from "../helpers/run.ts";

/** `siphon batch` takes the page options of POST /v1/batch/scrape as flags derived from its schema. */

/** Text of the article's blockquote, and of the "Related stories" list main-content extraction drops. */
const QUOTE = "biggest single step the city has taken";
const RELATED = "Related stories";

let site: FixtureSite;
let home: string;
let list: string;

beforeAll(async () => {
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-cli-batch-"));
  list = join(home, "urls.txt");
  await Bun.write(list, `${site.url}/article\n${site.url}/article?copy=2\n`);
});
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

const siphon = (args: string[]) => runCli(["batch", ...args], home);

/** The JSON Lines of a run's stdout. */
const items = (run: Run) =>
  run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown> & { content: string });

describe("siphon batch page flags", () => {
  test("--exclude-tags, --only-main-content and --formats reach every page", async () => {
    const plain = await siphon([list, "--json"]);
    expect(plain.code).toBe(0);
    for (const item of items(plain)) expect(item.content).toContain(QUOTE);

    const run = await siphon([
      list,
      "--exclude-tags",
      "nav,blockquote",
      "--only-main-content",
      "--formats",
      "markdown,links",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const pages = items(run);
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(page.content).toContain(ARTICLE_SENTENCE);
      for (const gone of [NAV_TEXT, QUOTE, RELATED]) expect(page.content).not.toContain(gone);
      expect(page.markdown).toBe(page.content);
      expect(page.links).toContain(`${site.url}/places/old-rail-yards`);
    }
  });

  test("--format text sets each page's content as before", async () => {
    const run = await siphon([list, "--format", "text", "--json"]);
    expect(run.code).toBe(0);
    for (const page of items(run)) {
      expect(page.content).toContain(ARTICLE_SENTENCE);
      expect(page.text).toBe(page.content);
      expect(page.markdown).toBeUndefined();
    }
  });

  test("a bad page option is the API's 400, named by its flag, before any page is fetched", async () => {
    site.resetHits();
    const run = await siphon([list, "--wait", "70000", "--json"]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error.message).toBe("--wait must be an integer from 0 to 60000");
    const timeout = await siphon([list, "--timeout", "soon"]);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("--timeout must be");
    expect(site.hits("/article")).toBe(0);
  });
});

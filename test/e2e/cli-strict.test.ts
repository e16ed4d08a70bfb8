import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERROR_TABLE } from "../../src/errors.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { type Run, runCli } from "../helpers/run.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";
import { SPA_TEXT } from "../helpers/site-pages/special.ts";

/** The CLI as strict as the API: unknown flags and words refused, page flags applied, one job shown, help. */

/** Text of the article's blockquote, and of the "Related stories" list main-content extraction drops. */
const QUOTE = "biggest single step the city has taken";
const RELATED = "Related stories";
/** The photo caption: the default page shows it, main content leaves it out (related stories leave both). */
const CAPTION = "An artist's impression of the Riverside solar farm";

let site: FixtureSite;
let home: string;

beforeAll(async () => {
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-strict-"));
});
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

const siphon = (args: string[], env: Record<string, string> = {}) => runCli(args, home, env);

/** The JSON Lines of a run's stdout. */
const lines = (run: Run) =>
  run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Asserts a run was refused as bad input (exit 2) with `message` in its one error line on stderr. */
function refused(run: Run, message: string) {
  expect(run.code).toBe(ERROR_TABLE.invalid_request.exit);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(message);
  expect(run.stderr).toContain("[invalid_request]");
}

describe("unknown flags and extra words", () => {
  test("an unknown flag is refused with exit 2 before anything is fetched, naming the closest flag", async () => {
    site.resetHits();
    refused(await siphon(["fetch", `${site.url}/article`, "--bogus-flag"]), "unknown flag --bogus-flag");
    refused(
      await siphon(["fetch", `${site.url}/article`, "--only-main"]),
      "unknown flag --only-main; did you mean --only-main-content?",
    );
    refused(await siphon(["crawl", `${site.url}/article`, "--max-dpeth", "1"]), "did you mean --max-depth?");
    refused(await siphon(["map", site.url, "--limt", "3"]), "unknown flag --limt; did you mean --limit?");
    expect(site.hits("/article")).toBe(0);
    expect(site.hits("/")).toBe(0);
  });

  test("subcommands are checked too: keys create --bogus creates no key", async () => {
    refused(await siphon(["keys", "create", "--name", "ci", "--bogus"]), "unknown flag --bogus");
    refused(await siphon(["keys", "create", "--nmae", "ci"]), "did you mean --name?");
    refused(
      await siphon(["keys", "crate", "--name", "ci"]),
      "unknown command siphon keys crate; did you mean",
    );
    const keys = await siphon(["keys", "list", "--json"]);
    expect(keys.code).toBe(0);
    expect(keys.stdout).toBe("");
  });

  test("with --json the error is the JSON error object on stdout", async () => {
    const run = await siphon(["crawl", `${site.url}/article`, "--renderr", "--json"]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      success: false,
      error: {
        type: "invalid_request",
        message: "unknown flag --renderr; did you mean --render?",
        hint: "See siphon crawl --help.",
      },
    });
  });

  test("a word a command does not take is refused: a flag's value never becomes another URL", async () => {
    site.resetHits();
    refused(
      await siphon(["crawl", `${site.url}/article`, "2000"]),
      'unexpected argument "2000": siphon crawl takes one URL',
    );
    refused(await siphon(["map", site.url, "extra"]), 'unexpected argument "extra"');
    refused(await siphon(["usage", "now"]), "siphon usage takes no arguments");
    // A value flag at the end, or followed by another flag, has no value.
    refused(await siphon(["crawl", `${site.url}/article`, "--limit"]), "--limit needs a value");
    refused(await siphon(["crawl", `${site.url}/article`, "--limit", "--quiet"]), "--limit needs a value");
    // Only an on/off flag turns off with --no-, and it takes true or false at most.
    refused(await siphon(["crawl", `${site.url}/article`, "--no-limit"]), "only an on/off flag");
    refused(await siphon(["crawl", `${site.url}/article`, "--render=maybe"]), "--render takes no value");
    expect(site.hits("/article")).toBe(0);
  });

  test("the forms a flag may take are all accepted: =, camelCase, short groups, --no-X, and -- before words", async () => {
    const out = join(home, "forms");
    const run = await siphon([
      "crawl",
      `${site.url}/article`,
      "--max-depth=0",
      "--onlyMainContent",
      "--no-store-in-cache",
      "-qo",
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const page = readFileSync(join(out, "article.md"), "utf8");
    expect(page).toContain(ARTICLE_SENTENCE);
    expect(page).not.toContain(RELATED);
    // After --, a word that looks like a flag is a word (here one that usage does not take).
    refused(await siphon(["usage", "--", "--bogus"]), 'unexpected argument "--bogus"');
  });
});

describe("crawl applies the page options it takes", () => {
  test("--exclude-tags, --only-main-content and --formats reach every page", async () => {
    const url = `${site.url}/article`;
    const plain = lines(await siphon(["crawl", url, "--max-depth", "0", "--json"]))[0] as Record<
      string,
      string
    >;
    expect(plain.markdown).toContain(QUOTE);
    expect(plain.markdown).toContain(CAPTION);
    expect(plain.html).toBeUndefined();

    const run = await siphon([
      "crawl",
      url,
      "--max-depth",
      "0",
      "--exclude-tags",
      "blockquote",
      "--only-main-content",
      "--formats",
      "markdown,html,links",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const [page] = lines(run) as Record<string, unknown>[];
    expect(page?.markdown).toContain(ARTICLE_SENTENCE);
    expect(page?.markdown).not.toContain(QUOTE);
    expect(page?.markdown).not.toContain(RELATED);
    expect(page?.markdown).not.toContain(CAPTION);
    expect(page?.html).toContain("<p>");
    expect(page?.links).toContain(`${site.url}/places/old-rail-yards`);
  });

  test("--render renders each page in the browser", async () => {
    const url = `${site.url}/spa`;
    const out = join(home, "rendered");
    const plain = await siphon(["crawl", url, "--max-depth", "0", "--json"]);
    expect(plain.stdout).not.toContain(SPA_TEXT);
    const run = await siphon([
      "crawl",
      url,
      "--max-depth",
      "0",
      "--render",
      "--exclude-tags",
      "ul",
      "-o",
      out,
    ]);
    expect(run.code).toBe(0);
    const page = readFileSync(join(out, "spa.md"), "utf8");
    expect(page).toContain(SPA_TEXT);
    expect(page).not.toContain("Ticket #102");
  }, 60_000);

  test("a bad page option is the API's 400, named by its flag", async () => {
    const run = await siphon(["crawl", `${site.url}/article`, "--wait", "70000", "--json"]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error.message).toBe("--wait must be an integer from 0 to 60000");
  });
});

describe("siphon jobs ID", () => {
  let id: string;
  let crawled: string[];

  beforeAll(async () => {
    const run = await siphon(["crawl", `${site.url}/article`, "--max-depth", "1", "--limit", "4", "--json"]);
    expect(run.code).toBe(0);
    crawled = lines(run).map((item) => String(item.url));
    const listed = lines(await siphon(["jobs", "--json", "--type", "crawl", "--limit", "1"]));
    id = String(listed[0]?.id);
  }, 60_000);

  test("shows the job's status and progress", async () => {
    const run = await siphon(["jobs", id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`id        ${id}`);
    expect(run.stdout).toMatch(/^status {4}completed$/m);
    expect(run.stdout).toMatch(/^progress {2}4 of 4 pages, 100%$/m);
  });

  test("--json prints the job with each of its pages once", async () => {
    const run = await siphon(["jobs", id, "--json"]);
    expect(run.code).toBe(0);
    const job = JSON.parse(run.stdout) as { status: string; completed: number; data: { url: string }[] };
    expect(job).toMatchObject({
      id,
      type: "crawl",
      status: "completed",
      total: 4,
      completed: 4,
      progress: 100,
    });
    const urls = job.data.map((page) => page.url);
    expect(urls).toHaveLength(4);
    expect(new Set(urls).size).toBe(4);
    expect(urls.toSorted()).toEqual(crawled.toSorted());
  });

  test("-o DIR writes its pages as crawl -o does", async () => {
    const out = join(home, "job-pages");
    const run = await siphon(["jobs", id, "-o", out]);
    expect(run.code).toBe(0);
    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8")) as {
      url: string;
      file: string;
    }[];
    expect(index.map((entry) => entry.url).toSorted()).toEqual(crawled.toSorted());
    for (const entry of index) expect(existsSync(join(out, entry.file))).toBe(true);
    expect(readFileSync(join(out, "article.md"), "utf8")).toContain(ARTICLE_SENTENCE);
  });

  test("an unknown job exits with not_found's code; the list's filters do not go with an id", async () => {
    const missing = await siphon(["jobs", "crawl_00000000-0000-0000-0000-000000000000", "--json"]);
    expect(missing.code).toBe(ERROR_TABLE.not_found.exit);
    expect(JSON.parse(missing.stdout).error.type).toBe("not_found");
    const nope = await siphon(["jobs", "nope"]);
    expect(nope.code).toBe(ERROR_TABLE.not_found.exit);
    expect(nope.stderr).toContain("No job nope");
    refused(await siphon(["jobs", id, "--status", "failed"]), "--status filters the list of jobs");
    refused(await siphon(["jobs", "-o", join(home, "x")]), "--output needs a job id");
    // Without an id, jobs still lists them.
    expect(lines(await siphon(["jobs", "--json"])).map((job) => job.id)).toContain(id);
  });
});

describe("help", () => {
  test("siphon help CMD prints that command's help; an unknown one exits 2 naming the closest", async () => {
    const crawl = await siphon(["help", "crawl"]);
    expect(crawl.code).toBe(0);
    expect(crawl.stdout).toContain("USAGE siphon crawl [OPTIONS] <URL>");
    for (const flag of ["--render", "--formats=<list>", "--exclude-tags=<list>", "--only-main-content"])
      expect(crawl.stdout).toContain(flag);
    expect(crawl.stdout).toBe((await siphon(["crawl", "--help"])).stdout);
    const create = await siphon(["help", "keys", "create"]);
    expect(create.code).toBe(0);
    expect(create.stdout).toContain("USAGE siphon keys create");
    expect(create.stdout).toContain("--name=<name>");
    refused(await siphon(["help", "crawll"]), "unknown command crawll; did you mean crawl?");
    refused(await siphon(["help", "keys", "crate"]), "did you mean create?");
  });

  test("piped help fits 80 columns: no line longer, none padded, no word broken", async () => {
    const root = await siphon(["--help"]);
    expect(root.code).toBe(0);
    const commands = root.stdout.slice(root.stdout.indexOf("COMMANDS"));
    const names = [...commands.matchAll(/^\s+([a-z]+)\s{2,}\S/gm)].map((m) => m[1] as string);
    expect(names).toContain("crawl");
    const helps = [root.stdout];
    for (const name of names) helps.push((await siphon(["help", name])).stdout);
    helps.push(
      (await siphon(["help", "keys", "create"])).stdout,
      (await siphon(["help", "watch", "add"])).stdout,
    );
    for (const help of helps) {
      for (const line of help.split("\n")) {
        expect(line.length).toBeLessThanOrEqual(80);
        expect(line).not.toMatch(/\s$/);
      }
    }
    // A description longer than a line wraps at a space: its words arrive whole.
    const crawl = (await siphon(["help", "crawl"])).stdout.replace(/\n\s+/g, " ");
    expect(crawl).toContain("Seconds to wait after each page of a host before the next one of that host");
  });
});

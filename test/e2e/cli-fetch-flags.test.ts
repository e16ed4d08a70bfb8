import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fetchCommand from "../../cli/commands/fetch.ts";
import { ARTICLE_SENTENCE, type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { type Run, runCli } from "../helpers/run.ts";

/** `siphon fetch`'s flags come from POST /v1/fetch's schema: the same names, a bad value named by its flag. */

/** Text of the article's blockquote, and of the "Related stories" list main-content extraction drops. */
const QUOTE = "biggest single step the city has taken";
const RELATED = "Related stories";

let site: FixtureSite;
let home: string;

beforeAll(async () => {
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-cli-fetch-"));
});
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

const siphon = (args: string[]) => runCli(["fetch", ...args], home);

/** Asserts a run was refused as bad input (exit 2) with exactly `message` in its --json error. */
function refused(run: Run, message: string) {
  expect(run.code).toBe(2);
  expect(JSON.parse(run.stdout).error).toMatchObject({ type: "invalid_request", message });
}

describe("siphon fetch flags from the schema", () => {
  test("every flag siphon fetch had keeps its name", () => {
    expect(Object.keys(fetchCommand.args ?? {}).toSorted()).toEqual(
      [
        "url",
        "format",
        "formats",
        "extract-schema",
        "extract-prompt",
        "extract-selectors",
        "llm",
        "llm-key",
        "llm-model",
        "llm-base",
        "timeout",
        "only-main-content",
        "include-tags",
        "exclude-tags",
        "images",
        "location",
        "languages",
        "max-age",
        "cache",
        "render",
        "wait",
        "actions",
        "stealth",
        "headers",
        "cookies",
        "json",
        "output",
        "quiet",
        "api-url",
        "api-key",
        "lockdown",
        "min-age",
        "stdin-html",
        "site-markdown",
        "chunks",
        "chunk-tokens",
        "chunk-overlap",
        "tokenizer",
      ].toSorted(),
    );
  });

  test("a bad value is the API's 400 named by its flag, before anything is fetched", async () => {
    site.resetHits();
    const url = `${site.url}/article`;
    refused(
      await siphon([url, "--timeout", "soon", "--json"]),
      "--timeout must be an integer from 1000 to 300000",
    );
    refused(
      await siphon([url, "--timeout", "5", "--json"]),
      "--timeout must be an integer from 1000 to 300000",
    );
    refused(await siphon([url, "--wait", "70000", "--json"]), "--wait must be an integer from 0 to 60000");
    refused(
      await siphon([url, "--max-age", "-1", "--json"]),
      "--max-age must be an integer from 0 to 2592000000",
    );
    refused(
      await siphon([url, "--extract-selectors", "[1]", "--json"]),
      "--extract-selectors must be an object",
    );
    refused(await siphon([url, "--format", "pdf", "--json"]), "--format must be one of markdown, text, html");
    expect(site.hits("/article")).toBe(0);
  });

  test("the page flags reach the request and the page", async () => {
    const sent = await siphon([
      `${site.url}/headers`,
      "--languages",
      "de-CH,fr",
      "--headers",
      '{"X-Cli-Probe":"fetch"}',
      "--cookies",
      "a=1; b=2",
      "--no-cache",
    ]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/"accept-language": "de-CH,fr;q=0\.9/);
    expect(sent.stdout).toContain('"x-cli-probe": "fetch"');
    expect(sent.stdout).toContain('"cookie": "a=1; b=2"');

    const page = await siphon([
      `${site.url}/article`,
      "--only-main-content",
      "--exclude-tags",
      "blockquote",
      "--format",
      "text",
    ]);
    expect(page.code).toBe(0);
    expect(page.stdout).toContain(ARTICLE_SENTENCE);
    expect(page.stdout).not.toContain(QUOTE);
    expect(page.stdout).not.toContain(RELATED);
    expect(page.stdout).not.toMatch(/^#/m);
  });
});

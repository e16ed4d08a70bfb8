import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtractJobPoll, ExtractResponse } from "../src/schemas/extract.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../test/helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../test/helpers/fixture-site.ts";
import { runCli } from "../test/helpers/run.ts";
import { ARTICLE_TITLE } from "../test/helpers/site-pages/article.ts";
import { PRODUCT_NAME } from "../test/helpers/site-pages/product.ts";
import { STRUCTURED_SCHEMAS, structuredExpected } from "../test/helpers/site-pages/structured.ts";

const _main = join(import.meta.dir, "main.ts");
const KEY = "sk-cli-extract-5e6f7a8b9c0d1e2fSECRET";
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
let home: string;
let site: FixtureSite;
let llm: FakeLlm;
let server: TestApp;
let base: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-extract-"));
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY] });
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
  llm.reply = () => ({});
});

/** Runs `bun cli/main.ts extract …` against the fakes; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return runCli(["extract", ...args], home, { ...llm.env(), ...env });
}

const SELECTORS = JSON.stringify({ title: "h1", links: ["main a@href"] });

describe("siphon extract URL", () => {
  test(
    "--schema alone fills it from the page's structured data; --selectors reads the page; --json prints the response",
    async () => {
      const page = `${site.url}/structured/product/json-ld`;
      const schemaFile = join(home, "product.schema.json");
      writeFileSync(schemaFile, JSON.stringify(STRUCTURED_SCHEMAS.product));
      const heuristic = await siphon([page, "--schema", schemaFile]);
      expect(heuristic.code).toBe(0);
      const expected = structuredExpected("product", site.url);
      expect(JSON.parse(heuristic.stdout)).toMatchObject({
        name: expected.name,
        price: expected.price,
        currency: expected.currency,
      });

      const selectors = await siphon([`${site.url}/product`, "--selectors", SELECTORS, "--json"]);
      expect(selectors.code).toBe(0);
      const response = JSON.parse(selectors.stdout) as ExtractResponse;
      expect(response).toMatchObject({ success: true, method: "selectors", data: { title: PRODUCT_NAME } });
      expect(Array.isArray(response.data.links)).toBe(true);
    },
    SEVERAL_RUNS_MS,
  );

  test("--llm sends the page and the schema to the model; the key comes from OPENAI_API_KEY", async () => {
    llm.reply = () => ({ json: { name: PRODUCT_NAME }, usage: { prompt_tokens: 50, completion_tokens: 5 } });
    const result = await siphon(
      [
        `${site.url}/product`,
        "--llm",
        "openai",
        "--schema",
        '{"type":"object","properties":{"name":{"type":"string"}}}',
        "--prompt",
        "the product's name",
      ],
      { OPENAI_API_KEY: KEY },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ name: PRODUCT_NAME });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(llm.requests[0]?.messages.at(-1)?.content).toContain("the product's name");
  });
});

describe("siphon extract URL URL …", () => {
  test(
    "prints the merged data; --json the job's final poll; on a server (--api-url) the same as here",
    async () => {
      const urls = [`${site.url}/product`, `${site.url}/article`];
      const merged = await siphon([...urls, "--selectors", SELECTORS]);
      expect(merged.code).toBe(0);
      const data = JSON.parse(merged.stdout) as { title: string; links: string[] };
      expect(data.title).toBe(PRODUCT_NAME);

      const local = await siphon([...urls, "--selectors", SELECTORS, "--json"]);
      expect(local.code).toBe(0);
      const poll = JSON.parse(local.stdout) as ExtractJobPoll;
      expect(poll).toMatchObject({ success: true, status: "completed", total: 2, completed: 2, failed: 0 });
      expect(poll.data).toEqual(data);
      expect(poll.results.map((r) => r.url)).toEqual(urls);
      const titles = poll.results.map((r) => ("data" in r ? r.data.title : null));
      expect(titles).toEqual([PRODUCT_NAME, ARTICLE_TITLE]);
      // Arrays are every page's, concatenated in the order of the URLs.
      const links = poll.results.flatMap((r) => ("data" in r ? (r.data.links as string[]) : []));
      expect(links.length).toBeGreaterThan(0);
      expect(data.links).toEqual(links);

      const remote = await siphon([...urls, "--selectors", SELECTORS, "--json", "--api-url", base]);
      expect(remote.code).toBe(0);
      const remotePoll = JSON.parse(remote.stdout) as ExtractJobPoll;
      const same = ({ status, total, completed, failed, data, results }: ExtractJobPoll) => ({
        status,
        total,
        completed,
        failed,
        data,
        results,
      });
      expect(same(remotePoll)).toEqual(same(poll));
      expect(remotePoll.creditsUsed).toBe(2);
      const listed = (await (await server.request("/v1/jobs?type=extract")).json()) as {
        jobs: { type: string; status: string }[];
      };
      expect(listed.jobs[0]).toMatchObject({ type: "extract", status: "completed" });

      const remoteData = await siphon([...urls, "--selectors", SELECTORS, "--api-url", base]);
      expect(JSON.parse(remoteData.stdout)).toEqual(data);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "a page that fails is named on stderr and left out of the merge; every page failing exits 5",
    async () => {
      const some = await siphon([`${site.url}/product`, "http://127.0.0.1:1/", "--selectors", SELECTORS]);
      expect(some.code).toBe(0);
      expect(JSON.parse(some.stdout).title).toBe(PRODUCT_NAME);
      expect(some.stderr).toContain("http://127.0.0.1:1/");

      const none = await siphon(["http://127.0.0.1:1/", "not a url", "--selectors", SELECTORS]);
      expect(none.code).toBe(5);
      expect(none.stdout).toBe("");
      expect(none.stderr).toContain("Every page of the job failed");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "bad input exits 2 before any page is fetched: nothing to extract, a prompt without --llm, bad --schema JSON, 101 URLs",
    async () => {
      site.resetHits();
      const urls = [`${site.url}/product`, `${site.url}/article`];
      const nothing = await siphon(urls);
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toContain("Nothing to extract");
      const prompt = await siphon([...urls, "--prompt", "prices"]);
      expect(prompt.code).toBe(2);
      expect(prompt.stderr).toContain("needs an LLM");
      const badSchema = await siphon([...urls, "--schema", "{not json", "--api-url", base]);
      expect(badSchema.code).toBe(2);
      const many = Array.from({ length: 101 }, (_, i) => `${site.url}/p${i}`);
      const tooMany = await siphon([...many, "--selectors", SELECTORS]);
      expect(tooMany.code).toBe(2);
      expect(tooMany.stderr).toContain("100");
      expect(site.hits("/product") + site.hits("/article")).toBe(0);
    },
    SEVERAL_RUNS_MS,
  );
});

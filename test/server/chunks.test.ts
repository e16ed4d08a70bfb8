import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { mcpCall } from "../helpers/mcp-call.ts";

let site: FixtureSite;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp({ escalation: false });
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

type Chunk = NonNullable<FetchResult["chunks"]>[number];

async function fetchResult(body: Record<string, unknown>): Promise<FetchResult> {
  const res = await app.request("/v1/fetch", { method: "POST", body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text}`);
  return JSON.parse(text) as FetchResult;
}

describe("the chunks format", () => {
  test("POST /v1/fetch: chunks of the markdown under their heading paths, ids stable, tokens counted", async () => {
    const url = `${site.url}/docs`;
    const body = { url, formats: ["markdown", { type: "chunks", maxTokens: 64 }] };
    const result = await fetchResult(body);
    const chunks = result.chunks as Chunk[];
    expect(chunks.length).toBeGreaterThan(2);
    // Every chunk's text is in the markdown, in order, and none is over the limit.
    let at = 0;
    for (const chunk of chunks) {
      const found = (result.markdown ?? "").indexOf(chunk.text.split("\n")[0] ?? "", at);
      expect(found).toBeGreaterThanOrEqual(at);
      at = found;
      expect(chunk.tokens).toBeLessThanOrEqual(64);
      expect(chunk).toMatchObject({ url, title: result.title, tokenizer: "o200k_base" });
    }
    expect(chunks[0]?.headings).toEqual([result.markdown?.match(/^# (.+)$/m)?.[1] ?? ""]);
    const again = await fetchResult({ ...body, maxAge: 0 });
    expect(again.chunks?.map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    // "chunks" alone takes the defaults; content is still the markdown.
    const plain = await fetchResult({ url, formats: ["chunks"] });
    expect(plain.content).toBe(result.markdown as string);
    expect(plain.chunks?.length).toBeLessThan(chunks.length);
  });

  test("bad chunk options are 400s naming them", async () => {
    for (const entry of [
      { type: "chunks", maxTokens: 10 },
      { type: "chunks", maxTokens: 100, overlap: 50 },
      { type: "chunks", tokenizer: "llama" },
      { type: "chunks", size: 5 },
    ]) {
      const res = await app.request("/v1/fetch", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/docs`, formats: [entry] }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
        /maxTokens|overlap|tokenizer|size/,
      );
    }
  });

  test("a batch's items and a crawl's pages carry their chunks", async () => {
    const res = await app.request("/v1/crawl", {
      method: "POST",
      body: JSON.stringify({
        url: `${site.url}/`,
        limit: 3,
        maxDepth: 1,
        sitemap: "skip",
        scrapeOptions: { formats: ["markdown", "chunks"] },
      }),
    });
    const { id } = (await res.json()) as { id: string };
    let poll = { status: "", data: [] as { url: string; chunks?: Chunk[] }[] };
    for (let i = 0; i < 200 && !["completed", "failed"].includes(poll.status); i++) {
      await Bun.sleep(25);
      poll = await (await app.request(`/v1/crawl/${id}`)).json();
    }
    expect(poll.status).toBe("completed");
    for (const page of poll.data) {
      expect(page.chunks?.length).toBeGreaterThan(0);
      expect(page.chunks?.every((c) => c.url === page.url)).toBe(true);
    }
  });

  test("siphon_fetch (MCP) returns the chunks in its structured answer", async () => {
    const { key } = await app.createKey("max");
    const answer = await mcpCall(app, key, "siphon_fetch", { url: `${site.url}/docs`, formats: ["chunks"] });
    expect(answer.isError).toBeFalsy();
    const chunks = answer.structuredContent.chunks as Chunk[];
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks[0]?.tokenizer).toBe("o200k_base");
  });
});

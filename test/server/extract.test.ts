import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Ajv from "ajv";
import type { ExtractResponse } from "../../src/schemas/extract.ts";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, type FakeLlmRequest, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME } from "../helpers/site-pages/product.ts";

const KEY = "sk-extract-9a8b7c6d5e4f3a2b1c0dSECRET";

let site: FixtureSite;
let llm: FakeLlm;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
  app = await startTestApp({ openaiBaseUrl: llm.baseUrl("openai"), escalation: false, fetchTimeoutMs: 3000 });
});
afterAll(async () => {
  await app.close();
  await llm.stop();
  await site.stop();
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = () => ({});
});

const seen: string[] = [];
const ajv = new Ajv({ strict: false });

const PRODUCT_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string" },
    price: { type: "number" },
    currency: { type: "string" },
    inStock: { type: "boolean" },
  },
  required: ["name", "price", "currency", "inStock"],
  additionalProperties: false,
};
const GOOD = { name: PRODUCT_NAME, price: 39.95, currency: "EUR", inStock: true };

async function post(path: string, body: Record<string, unknown>) {
  const res = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  seen.push(await res.clone().text());
  return res;
}

async function ok<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function failed(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  const error = await errorOf(res);
  expect(error.type).toBe(type);
  return error;
}

const isWrite = (req: FakeLlmRequest) => req.body?.response_format !== undefined;

describe("POST /v1/extract with an LLM", () => {
  test("the page's content and the schema go to structured output; the answer matches the schema", async () => {
    llm.reply = () => ({ json: GOOD, usage: { prompt_tokens: 700, completion_tokens: 25 } });
    const body = await ok<ExtractResponse>(
      await post("/v1/extract", {
        url: `${site.url}/product`,
        schema: PRODUCT_SCHEMA,
        llmProvider: "openai",
        llmApiKey: KEY,
      }),
    );
    expect(body).toEqual({
      success: true,
      url: `${site.url}/product`,
      data: GOOD,
      method: "llm",
      tokensUsed: { input: 700, output: 25 },
    });
    expect(ajv.validate(PRODUCT_SCHEMA, body.data)).toBe(true);
    const request = llm.requests[0]!;
    const format = request.body?.response_format as {
      type: string;
      json_schema: { schema: unknown; strict: boolean };
    };
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.schema).toEqual(PRODUCT_SCHEMA);
    expect(format.json_schema.strict).toBe(true);
    const prompt = request.messages.at(-1)!.content;
    expect(prompt).toContain(PRODUCT_DESCRIPTION);
    expect(prompt).toContain(`(${site.url}/product)`);
  });

  test("JSON that fails the schema is repaired with the validation errors; the result then matches", async () => {
    llm.reply = (req) =>
      req.messages.some((m) => m.content.includes("does not match the schema"))
        ? { json: GOOD }
        : { json: { ...GOOD, price: "39,95 €" } };
    const body = await ok<ExtractResponse>(
      await post("/v1/extract", {
        url: `${site.url}/product`,
        schema: PRODUCT_SCHEMA,
        llmProvider: "openai",
        llmApiKey: KEY,
      }),
    );
    expect(body.data).toEqual(GOOD);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.messages.at(-1)!.content).toContain("/price must be number");
  });

  test("JSON that never passes is answer_failed listing what failed, after two repairs", async () => {
    llm.reply = () => ({ json: { name: 42 } });
    const error = await failed(
      await post("/v1/extract", {
        url: `${site.url}/product`,
        schema: PRODUCT_SCHEMA,
        llmProvider: "openai",
        llmApiKey: KEY,
      }),
      500,
      "answer_failed",
    );
    expect(error.message).toContain("after 2 repairs");
    expect(error.message).toContain("/name must be string");
    expect(error.message).toContain("must have required property 'price'");
    expect(llm.requests.filter(isWrite)).toHaveLength(3);
  });

  test("a prompt alone asks for a JSON object and returns what the model found", async () => {
    llm.reply = () => ({ json: { claims: ["compact", "brews in one minute"] } });
    const body = await ok<ExtractResponse>(
      await post("/v1/extract", {
        url: `${site.url}/product`,
        prompt: "the main claims",
        llmProvider: "openai",
        llmApiKey: KEY,
      }),
    );
    expect(body.data).toEqual({ claims: ["compact", "brews in one minute"] });
    expect(llm.requests[0]!.messages.at(-1)!.content).toContain("What to extract: the main claims");
  });

  test("a key for anthropic goes to its base URL with the schema in the prompt", async () => {
    const other = await startTestApp({ anthropicBaseUrl: llm.baseUrl("anthropic"), escalation: false });
    try {
      llm.reply = () => ({ text: JSON.stringify(GOOD) });
      const res = await other.request("/v1/extract", {
        method: "POST",
        body: JSON.stringify({
          url: `${site.url}/product`,
          schema: PRODUCT_SCHEMA,
          llmProvider: "anthropic",
          llmApiKey: KEY,
        }),
      });
      expect((await ok<ExtractResponse>(res)).data).toEqual(GOOD);
      expect(llm.requests[0]!.path).toBe("/anthropic/v1/chat/completions");
      expect(llm.requests[0]!.messages[0]!.content).toContain(JSON.stringify(PRODUCT_SCHEMA));
    } finally {
      await other.close();
    }
  });
});

describe("POST /v1/extract with selectors", () => {
  test("text, attributes made absolute, and every match; no LLM", async () => {
    const body = await ok<ExtractResponse>(
      await post("/v1/extract", {
        url: `${site.url}/product`,
        selectors: {
          name: "h1",
          price: ".price .amount",
          image: ".gallery img@src",
          reviewers: [".review .reviewer"],
          missing: ".nothing-here",
        },
      }),
    );
    expect(body.method).toBe("selectors");
    expect(body.data).toEqual({
      name: PRODUCT_NAME,
      price: "€39.95",
      image: `${site.url}/images/aeropress-go.jpg`,
      reviewers: ["— Tomasz, verified buyer", "— Priya, verified buyer"],
      missing: null,
    });
    expect(llm.requests).toHaveLength(0);
  });
});

describe("bad input is a 400 with the reason, before any page is fetched", () => {
  test.each([
    ["nothing to extract", { url: "/product" }, "schema, a prompt or selectors"],
    ["a prompt without an LLM", { url: "/product", prompt: "x" }, "A prompt needs an LLM"],
    [
      "llmProvider without llmApiKey",
      { url: "/product", schema: PRODUCT_SCHEMA, llmProvider: "openai" },
      "needs llmApiKey",
    ],
    [
      "an unknown provider",
      { url: "/product", schema: PRODUCT_SCHEMA, llmProvider: "mistral", llmApiKey: KEY },
      "llmProvider",
    ],
    [
      "a schema that is not JSON Schema",
      { url: "/product", schema: { type: "object", properties: { a: { type: "decimal" } } } },
      "not a valid JSON Schema",
    ],
    [
      "a schema whose root is not an object",
      { url: "/product", schema: { type: "array" } },
      "must describe an object",
    ],
    ["a selector that does not parse", { url: "/product", selectors: { a: "div[" } }, 'selectors.a: "div["'],
    [
      "selectors with a schema",
      { url: "/product", selectors: { a: "h1" }, schema: PRODUCT_SCHEMA },
      "cannot be combined",
    ],
    ["no url", { schema: PRODUCT_SCHEMA }, "url"],
  ])("%s", async (_, body, reason) => {
    site.resetHits();
    const given = body as Record<string, unknown>;
    const withUrl = typeof given.url === "string" ? { ...given, url: `${site.url}${given.url}` } : given;
    const error = await failed(await post("/v1/extract", withUrl), 400, "invalid_request");
    expect(error.message).toContain(reason);
    expect(site.hits("/product")).toBe(0);
    expect(llm.requests).toHaveLength(0);
  });
});

describe("inline extraction on POST /v1/fetch", () => {
  test("extract with an LLM adds json and extractTokensUsed; content stays the format asked for", async () => {
    llm.reply = () => ({ json: GOOD, usage: { prompt_tokens: 500, completion_tokens: 20 } });
    const body = await ok<FetchResult>(
      await post("/v1/fetch", {
        url: `${site.url}/product`,
        format: "text",
        extract: { schema: PRODUCT_SCHEMA },
        llmProvider: "openai",
        llmApiKey: KEY,
      }),
    );
    expect(body.json).toEqual(GOOD);
    expect(body.extractTokensUsed).toEqual({ input: 500, output: 20 });
    expect(body.content).not.toContain("# ");
    // What extraction read is not added to the answer.
    expect(body.markdown).toBeUndefined();
    expect(body.rawHtml).toBeUndefined();
    expect(body.text).toBeUndefined();
  });

  test('a formats entry {type:"json"} does the same, beside the other formats asked for', async () => {
    llm.reply = () => ({ json: GOOD });
    const body = await ok<FetchResult>(
      await post("/v1/fetch", {
        url: `${site.url}/product`,
        formats: ["markdown", { type: "json", schema: PRODUCT_SCHEMA }],
        llmProvider: "openai",
        llmApiKey: KEY,
      }),
    );
    expect(body.json).toEqual(GOOD);
    expect(body.markdown).toContain(`# ${PRODUCT_NAME}\n`);
    expect(body.rawHtml).toBeUndefined();
  });

  test("llm fields without extract are refused, as is a json format without schema or prompt", async () => {
    const lone = await failed(
      await post("/v1/fetch", { url: `${site.url}/product`, llmProvider: "openai", llmApiKey: KEY }),
      400,
      "invalid_request",
    );
    expect(lone.message).toContain("only apply with extract");
    const bare = await failed(
      await post("/v1/fetch", { url: `${site.url}/product`, formats: ["json"], llmApiKey: KEY }),
      400,
      "invalid_request",
    );
    expect(bare.message).toContain("needs a schema or a prompt");
  });
});

test("the LLM key never appears in a response", () => {
  expect(seen.length).toBeGreaterThan(10);
  for (const text of [...seen, ...app.logs]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(-12));
  }
});

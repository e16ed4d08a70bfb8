import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../../test/helpers/fake-llm.ts";
import { type Config, loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { LlmOutputError } from "./errors.ts";
import { completeStructured, fitsStrictMode } from "./structured.ts";

const KEY = "sk-structured-0123456789abcdef";
const messages = [{ role: "user" as const, content: "Extract the mill's name and its wheel count." }];

const schema = {
  type: "object",
  properties: {
    name: { type: "string" },
    wheels: { type: "integer", minimum: 1 },
    kind: { type: "string", enum: ["tide", "river"] },
  },
  required: ["name", "wheels", "kind"],
  additionalProperties: false,
};

let fake: FakeLlm;
let config: Config;

beforeAll(async () => {
  fake = await startFakeLlm({ keys: [KEY] });
  config = loadConfig(fake.env(), { home: "/nonexistent/siphon-llm-test" });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.reply = () => ({});
});

async function failure(promise: Promise<unknown>): Promise<SiphonError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected a SiphonError");
}

describe("vendors with json_schema support (openai, google)", () => {
  for (const provider of ["openai", "google"] as const) {
    test(`${provider}: sends response_format json_schema and returns the parsed, valid object`, async () => {
      fake.reply = () => ({
        json: { name: "Eling", wheels: 1, kind: "tide" },
        usage: { prompt_tokens: 50, completion_tokens: 12 },
      });
      const result = await completeStructured<{ name: string; wheels: number; kind: string }>(
        { llm: { provider, apiKey: KEY }, messages, schema, schemaName: "mill info" },
        { config },
      );
      expect(result.data).toEqual({ name: "Eling", wheels: 1, kind: "tide" });
      expect(result.mode).toBe("json_schema");
      expect(result.usage).toEqual({ input: 50, output: 12, estimated: false });
      const body = fake.requests[0]!.body!;
      expect(fake.requests[0]!.mount).toBe(provider);
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: "mill_info", schema, strict: true },
      });
      // The schema travels in response_format only.
      expect(fake.requests[0]!.messages).toEqual(messages);
    });
  }

  test("strict is off for a schema strict mode would refuse (optional properties, open objects)", async () => {
    const loose = {
      type: "object",
      properties: { name: { type: "string" }, note: { type: "string" } },
      required: ["name"],
    };
    fake.reply = () => ({ json: { name: "x" } });
    await completeStructured(
      { llm: { provider: "openai", apiKey: KEY }, messages, schema: loose },
      { config },
    );
    const format = fake.requests[0]!.body!.response_format as { json_schema: { strict: boolean } };
    expect(format.json_schema.strict).toBe(false);
  });

  test("a schema whose root is not an object travels wrapped in {value} and comes back unwrapped", async () => {
    const list = { type: "array", items: { type: "string" } };
    fake.reply = (request) => {
      const format = request.body!.response_format as { json_schema: { schema: Record<string, unknown> } };
      expect(format.json_schema.schema).toMatchObject({ type: "object", required: ["value"] });
      return { json: { value: ["a", "b"] } };
    };
    const result = await completeStructured(
      { llm: { provider: "google", apiKey: KEY }, messages, schema: list },
      { config },
    );
    expect(result.data).toEqual(["a", "b"]);
  });

  test("the fake's default answer to a json_schema request conforms", async () => {
    const result = await completeStructured(
      { llm: { provider: "openai", apiKey: KEY }, messages, schema },
      { config },
    );
    expect(result.data).toEqual({ name: "example", wheels: 1, kind: "tide" });
  });
});

describe("vendors without json_schema support (anthropic)", () => {
  test("asks for JSON in a system message, sends no response_format, and takes JSON out of a code fence", async () => {
    fake.reply = () => ({
      text: 'Following your {schema}:\n```json\n{"name": "Eling", "wheels": 2, "kind": "tide"}\n```\nDone {ok}.',
    });
    const result = await completeStructured(
      { llm: { provider: "anthropic", apiKey: KEY }, messages, schema },
      { config },
    );
    expect(result.mode).toBe("prompt");
    expect(result.data).toEqual({ name: "Eling", wheels: 2, kind: "tide" });
    const request = fake.requests[0]!;
    expect(request.mount).toBe("anthropic");
    expect(request.body).not.toHaveProperty("response_format");
    expect(request.messages[0]!.role).toBe("system");
    expect(request.messages[0]!.content).toContain(JSON.stringify(schema));
    expect(request.messages.slice(1)).toEqual(messages);
  });
});

describe("answers that do not conform", () => {
  test("JSON that breaks the schema is an LlmOutputError naming the provider and every problem", async () => {
    fake.reply = () => ({ json: { name: 3, wheels: 0, kind: "windmill", extra: true } });
    const error = await failure(
      completeStructured({ llm: { provider: "google", apiKey: KEY }, messages, schema }, { config }),
    );
    expect(error).toBeInstanceOf(LlmOutputError);
    expect(error.type).toBe("answer_failed");
    expect(error.message).toStartWith("google answered JSON that does not match the schema: ");
    const output = error as LlmOutputError;
    expect(output.issues).toEqual(
      expect.arrayContaining([
        "/ must NOT have additional properties (extra)",
        "/name must be string",
        "/wheels must be >= 1",
        "/kind must be equal to one of the allowed values (tide, river)",
      ]),
    );
    expect(output.text).toContain("windmill");
    expect(output.usage.estimated).toBe(false);
  });

  test("text that is not JSON is an LlmOutputError", async () => {
    fake.reply = () => ({ text: "I think the mill is called Eling." });
    const error = await failure(
      completeStructured({ llm: { provider: "anthropic", apiKey: KEY }, messages, schema }, { config }),
    );
    expect(error).toBeInstanceOf(LlmOutputError);
    expect(error.message).toStartWith("anthropic answered text that is not JSON");
  });

  test("JSON cut off at the token limit says to raise maxTokens", async () => {
    fake.reply = () => ({ text: '{"name": "Eli', finishReason: "length" });
    const error = await failure(
      completeStructured(
        { llm: { provider: "openai", apiKey: KEY }, messages, schema, maxTokens: 5 },
        { config },
      ),
    );
    expect(error.message).toBe(
      "openai stopped at the token limit before the JSON answer was complete; raise maxTokens",
    );
  });

  test("an invalid JSON Schema is the caller's invalid_request, found before any call", async () => {
    const error = await failure(
      completeStructured(
        { llm: { provider: "openai", apiKey: KEY }, messages, schema: { type: "nonsense" } },
        { config },
      ),
    );
    expect(error.type).toBe("invalid_request");
    expect(error.message).toStartWith("The output schema is not a valid JSON Schema");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("fitsStrictMode", () => {
  test("every object closed with every property required, nested ones too", () => {
    expect(fitsStrictMode(schema)).toBe(true);
    expect(fitsStrictMode({ ...schema, required: ["name"] })).toBe(false);
    expect(fitsStrictMode({ type: "object", properties: {}, required: [] })).toBe(false);
    const nested = {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      },
      required: ["items"],
      additionalProperties: false,
    };
    expect(fitsStrictMode(nested)).toBe(false);
  });
});

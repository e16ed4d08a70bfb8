import { describe, expect, test } from "bun:test";
import { fromStatus, scrubSecret } from "./errors.ts";
import type { ResolvedTarget } from "./providers.ts";

const KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123";

describe("scrubSecret", () => {
  test("removes the key, anything holding its head or tail, and masked echoes", () => {
    const text = [
      `key ${KEY} here`,
      `prefix ${KEY.slice(0, 10)}... and`,
      `suffix ...${KEY.slice(-8)}.`,
      "masked sk-pro****************0123 end",
      `quoted "${KEY}"`,
    ].join(" | ");
    const out = scrubSecret(text, KEY, 1000);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(KEY.slice(0, 6));
    expect(out).not.toContain(KEY.slice(-6));
    expect(out).not.toContain("****");
    expect(out).toContain("[redacted]");
    expect(out).toContain("key [redacted] here");
  });

  test("leaves other text alone and cuts it to length", () => {
    expect(scrubSecret("The model `gpt-x` does not exist.", KEY)).toBe("The model `gpt-x` does not exist.");
    expect(scrubSecret("a".repeat(50), KEY, 10)).toBe(`${"a".repeat(9)}…`);
  });
});

describe("fromStatus", () => {
  const target: ResolvedTarget = {
    provider: "openai",
    apiKey: KEY,
    hasKey: true,
    model: "gpt-x",
    baseUrl: "https://api.openai.com/v1",
    customBase: false,
    jsonSchema: true,
  };

  test("a 400 from the vendor is the caller's to fix, with the vendor's scrubbed words", () => {
    const error = fromStatus(
      { status: 400, error: { message: `This model's maximum context length is 8192 tokens (key ${KEY})` } },
      target,
    );
    expect(error.type).toBe("invalid_request");
    expect(error.message).toContain(
      "openai refused the request (400): This model's maximum context length is 8192",
    );
    expect(error.message).not.toContain(KEY);
  });

  test("a 404 whose text says the model is unknown counts as an unknown model without a code", () => {
    const error = fromStatus(
      { status: 404, error: { message: "model 'llama9' not found, try pulling it first" } },
      target,
    );
    expect(error.message).toBe('openai does not know model "gpt-x" (404); check llmModel');
  });

  test("Retry-After as an HTTP date becomes seconds", () => {
    const headers = new Headers({ "retry-after": new Date(Date.now() + 30_000).toUTCString() });
    const error = fromStatus({ status: 429, headers, error: { message: "slow down" } }, target);
    const seconds = Number(error.headers["Retry-After"]);
    expect(seconds).toBeGreaterThanOrEqual(28);
    expect(seconds).toBeLessThanOrEqual(31);
  });

  test("a 401 from a keyless server asks for a key instead of blaming one", () => {
    const error = fromStatus({ status: 401, error: null }, { ...target, hasKey: false, customBase: true });
    expect(error.message).toBe("openai at https://api.openai.com/v1 wants an API key (401); pass llmApiKey");
  });
});

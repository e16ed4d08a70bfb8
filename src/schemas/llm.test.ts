import { describe, expect, test } from "bun:test";
import { Type as T } from "@sinclair/typebox";
import { SiphonError } from "../errors.ts";
import { LlmFields, LlmFieldsRequired, llmTargetOf } from "./llm.ts";
import { validate } from "./validate.ts";

function refusal(run: () => unknown): SiphonError {
  try {
    run();
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected a SiphonError");
}

describe("the shared LLM request fields", () => {
  test("accept the four fields and turn them into the llm module's target", () => {
    const input = validate(LlmFields, {
      llmProvider: "anthropic",
      llmApiKey: "k",
      llmModel: "claude-x",
      llmApiBase: "https://gw.example/v1",
    });
    expect(llmTargetOf(input)).toEqual({
      provider: "anthropic",
      apiKey: "k",
      model: "claude-x",
      apiBase: "https://gw.example/v1",
    });
  });

  test("no provider means an OpenAI-compatible API (POST /v1/agent has no llmProvider)", () => {
    expect(llmTargetOf({ llmApiKey: "k" }).provider).toBe("openai");
  });

  test("refuse an unknown provider, naming the choices, and a base URL that is not http(s)", () => {
    expect(refusal(() => validate(LlmFields, { llmProvider: "mistral" })).message).toBe(
      "llmProvider must be one of openai, anthropic, google",
    );
    expect(refusal(() => validate(LlmFields, { llmApiBase: "localhost:11434" })).message).toStartWith(
      "llmApiBase has an invalid format",
    );
  });

  test("an endpoint composes them into its own body; the required set needs provider and key", () => {
    const Body = T.Object({ question: T.String(), ...LlmFieldsRequired }, { additionalProperties: false });
    expect(refusal(() => validate(Body, { question: "q", llmProvider: "openai" })).message).toBe(
      "llmApiKey is required",
    );
    expect(validate(Body, { question: "q", llmProvider: "google", llmApiKey: "k" }).llmProvider).toBe(
      "google",
    );
  });

  test("a rejected key is never echoed by validation", () => {
    const secret = "sk-".padEnd(2000, "s");
    expect(refusal(() => validate(LlmFields, { llmApiKey: secret })).message).not.toContain("sss");
  });
});

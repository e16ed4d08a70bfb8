import { expect, test } from "bun:test";
import { loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { chooseLlm, ResearchModel } from "./llm.ts";

const config = (overrides = {}) => loadConfig({}, { home: "/nonexistent-siphon-home", ...overrides });

test("the caller's llm wins, and never borrows the service's key or base URL", () => {
  const service = config({
    llmProvider: "google",
    llmApiKey: "service-key",
    llmBaseUrl: "http://llm.internal/v1",
  });
  expect(chooseLlm({ provider: "openai" }, service)).toEqual({
    origin: "caller",
    target: { provider: "openai", apiKey: undefined, model: undefined, apiBase: undefined },
  });
});

test("without llm, the service's settings; without those either, a 400 saying how to give one", () => {
  const service = config({ llmProvider: "anthropic", llmApiKey: "service-key", llmModel: "m" });
  expect(chooseLlm(undefined, service)).toEqual({
    origin: "service",
    target: { provider: "anthropic", apiKey: "service-key", model: "m", apiBase: undefined },
  });
  try {
    chooseLlm(undefined, config());
    throw new Error("no error");
  } catch (error) {
    expect(error).toBeInstanceOf(SiphonError);
    expect((error as SiphonError).type).toBe("invalid_request");
    expect((error as SiphonError).hint).toContain("SIPHON_LLM_PROVIDER");
  }
  expect(() => chooseLlm(undefined, config({ llmProvider: "mistral" }))).toThrow("SIPHON_LLM_PROVIDER");
});

test("errors name the request's fields for a caller, the settings and the server's fault for the service", () => {
  const refused = new SiphonError("invalid_request", "openai rejected the API key (401); check llmApiKey", {
    hint: "Check llmModel and llmApiBase.",
  });
  const caller = new ResearchModel(chooseLlm({ provider: "openai", apiKey: "k" }, config()), {
    config: config(),
  });
  const asCaller = caller.translate(refused) as SiphonError;
  expect(asCaller.type).toBe("invalid_request");
  expect(asCaller.message).toContain("check llm.apiKey");
  expect(asCaller.hint).toBe("Check llm.model and llm.apiBase.");

  const service = config({ llmProvider: "openai", llmApiKey: "k" });
  const model = new ResearchModel(chooseLlm(undefined, service), { config: service });
  const asService = model.translate(refused) as SiphonError;
  expect(asService.type).toBe("answer_failed");
  expect(asService.message).toBe(
    "This server's LLM failed: openai rejected the API key (401); check SIPHON_LLM_API_KEY",
  );
  expect(asService.hint).toContain("SIPHON_LLM_MODEL and SIPHON_LLM_BASE_URL");
  // A rate limit stays a rate limit, with its Retry-After.
  const limited = model.translate(
    new SiphonError("rate_limited", "slow down", { headers: { "Retry-After": "5" } }),
  ) as SiphonError;
  expect(limited.type).toBe("rate_limited");
  expect(limited.headers["Retry-After"]).toBe("5");
  // Anything else (an abort) passes as it is.
  const abort = new DOMException("gone", "AbortError");
  expect(model.translate(abort)).toBe(abort);
});

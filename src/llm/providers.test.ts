import { describe, expect, test } from "bun:test";
import { type Config, loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { displayBaseUrl, LLM_PROVIDER_NAMES, PLACEHOLDER_KEY, resolveTarget } from "./providers.ts";

const config: Config = loadConfig({}, { home: "/nonexistent/siphon-llm-test" });

function refusal(run: () => unknown): SiphonError {
  try {
    run();
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected a SiphonError");
}

describe("the vendor table and its defaults", () => {
  test("three vendors, in the order DECISIONS.md names them", () => {
    expect(LLM_PROVIDER_NAMES).toEqual(["openai", "anthropic", "google"]);
  });

  test("each vendor's documented OpenAI-compatible endpoint and current default model", () => {
    expect(resolveTarget({ provider: "openai", apiKey: "k" }, config)).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      model: "gpt-6-luna",
      jsonSchema: true,
    });
    expect(resolveTarget({ provider: "anthropic", apiKey: "k" }, config)).toMatchObject({
      baseUrl: "https://api.anthropic.com/v1",
      model: "claude-haiku-5-5",
      jsonSchema: false,
    });
    expect(resolveTarget({ provider: "google", apiKey: "k" }, config)).toMatchObject({
      baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
      model: "gemini-3.8-flash",
      jsonSchema: true,
    });
  });

  test("SIPHON_<VENDOR>_MODEL and _BASE_URL override the defaults; llmModel and llmApiBase override those", () => {
    const custom = loadConfig(
      { SIPHON_GOOGLE_MODEL: "gemini-x", SIPHON_GOOGLE_BASE_URL: "http://gw.internal:8080/google/" },
      { home: "/nonexistent/siphon-llm-test" },
    );
    expect(resolveTarget({ provider: "google", apiKey: "k" }, custom)).toMatchObject({
      model: "gemini-x",
      baseUrl: "http://gw.internal:8080/google",
      customBase: false,
    });
    expect(
      resolveTarget(
        { provider: "google", apiKey: "k", model: "m2", apiBase: "https://openrouter.ai/api/v1" },
        custom,
      ),
    ).toMatchObject({ model: "m2", baseUrl: "https://openrouter.ai/api/v1", customBase: true });
  });
});

describe("keys", () => {
  test("a vendor's public endpoint without a key is refused before any call", () => {
    const error = refusal(() => resolveTarget({ provider: "anthropic" }, config));
    expect(error.type).toBe("invalid_request");
    expect(error.message).toBe("llmApiKey is required for anthropic (https://api.anthropic.com/v1)");
  });

  test("a keyless server elsewhere gets the placeholder key", () => {
    const target = resolveTarget({ provider: "openai", apiBase: "http://localhost:11434/v1" }, config);
    expect(target).toMatchObject({ apiKey: PLACEHOLDER_KEY, hasKey: false });
    expect(
      resolveTarget({ provider: "openai", apiKey: " k ", apiBase: "http://x/v1" }, config),
    ).toMatchObject({
      apiKey: "k",
      hasKey: true,
    });
  });
});

describe("bad targets", () => {
  test("an unknown provider is invalid_request naming the choices", () => {
    const error = refusal(() => resolveTarget({ provider: "mistral" as never, apiKey: "k" }, config));
    expect(error.type).toBe("invalid_request");
    expect(error.message).toBe('Unknown LLM provider "mistral"; use one of openai, anthropic, google');
  });

  test("llmApiBase must be an http(s) URL", () => {
    for (const apiBase of ["localhost:11434", "ftp://host/v1", "file:///etc/passwd"]) {
      const error = refusal(() => resolveTarget({ provider: "openai", apiKey: "k", apiBase }, config));
      expect(error.type).toBe("invalid_request");
      expect(error.message).toContain("llmApiBase");
    }
  });

  test("base URLs are shown without credentials or query", () => {
    expect(displayBaseUrl("https://user:pw@host.example/v1?key=secret#x")).toBe("https://host.example/v1");
  });
});

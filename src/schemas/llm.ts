import { type Static, Type as T } from "@sinclair/typebox";
import { LLM_PROVIDER_NAMES, type LlmProviderName, type LlmTarget } from "../llm/providers.ts";
import { StringEnum } from "./common.ts";

/**
 * The LLM fields every request that calls a model shares (answer, agent, extract in fetch,
 * the compat and MCP surfaces), defined once. Which of them is required differs per endpoint
 * (SPEC: answer requires llmProvider and llmApiKey; agent has no llmProvider and means an
 * OpenAI-compatible API), so each field is exported alone as well as in the usual sets.
 */

export const LlmProviderField = StringEnum(
  [...LLM_PROVIDER_NAMES] as [LlmProviderName, ...LlmProviderName[]],
  {
    description:
      "LLM vendor: openai, anthropic or google. Any other OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter): openai with llmApiBase",
  },
);

export const LlmApiKeyField = T.String({
  minLength: 1,
  maxLength: 1024,
  description: "Your own key for the vendor; used for this request only, never stored, logged or echoed",
});

export const LlmModelField = T.String({
  minLength: 1,
  maxLength: 200,
  description: "Model name; default: the vendor's default model (SIPHON_<VENDOR>_MODEL)",
});

export const LlmApiBaseField = T.String({
  minLength: 1,
  maxLength: 2048,
  pattern: "^[Hh][Tt][Tt][Pp][Ss]?://",
  description:
    "Base URL of an OpenAI-compatible API (the part before /chat/completions), e.g. http://localhost:11434/v1; default: the vendor's",
});

/** The four fields, all optional: for requests where the LLM is optional (fetch with extract). */
export const LlmFieldsOptional = {
  llmProvider: T.Optional(LlmProviderField),
  llmApiKey: T.Optional(LlmApiKeyField),
  llmModel: T.Optional(LlmModelField),
  llmApiBase: T.Optional(LlmApiBaseField),
};

/** Provider and key required, model and base URL optional: POST /v1/answer's combination. */
export const LlmFieldsRequired = {
  llmProvider: LlmProviderField,
  llmApiKey: LlmApiKeyField,
  llmModel: T.Optional(LlmModelField),
  llmApiBase: T.Optional(LlmApiBaseField),
};

/** The LLM fields as a standalone object schema (documentation, tests). */
export const LlmFields = T.Object(LlmFieldsOptional, { additionalProperties: false });
export type LlmFieldsInput = Static<typeof LlmFields>;

/**
 * The request's LLM fields as the llm module's target. `fallback` is the provider when the
 * request names none (POST /v1/agent has no llmProvider: an OpenAI-compatible API).
 */
export function llmTargetOf(input: LlmFieldsInput, fallback: LlmProviderName = "openai"): LlmTarget {
  return {
    provider: input.llmProvider ?? fallback,
    apiKey: input.llmApiKey,
    model: input.llmModel,
    apiBase: input.llmApiBase,
  };
}

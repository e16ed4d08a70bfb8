import { SiphonError } from "../src/errors.ts";
import type { LlmProviderName } from "../src/llm/index.ts";

/** The flags of every command that calls a model: vendor, key, model and base URL. */
export const llmArgs = {
  llm: {
    type: "string",
    description: "LLM vendor: openai (default), anthropic or google",
    valueHint: "vendor",
  },
  "llm-key": {
    type: "string",
    description: "Your key for the vendor (else OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY)",
    valueHint: "key",
  },
  "llm-model": {
    type: "string",
    description: "Model (default: the vendor's, SIPHON_<VENDOR>_MODEL)",
    valueHint: "name",
  },
  "llm-base": {
    type: "string",
    description: "Base URL of any OpenAI-compatible server, e.g. http://localhost:11434/v1",
    valueHint: "url",
  },
} as const;

/** The flags of every command that searches the web: which engine, and its key. */
export const searchArgs = {
  provider: {
    type: "string",
    description: "Search provider: duckduckgo (default), brave or searxng",
    valueHint: "name",
  },
  "search-key": {
    type: "string",
    description: "Brave Search API key (else SIPHON_BRAVE_API_KEY)",
    valueHint: "key",
  },
} as const;

/** Where a vendor's key is found when --llm-key is not given: the variables its own tools read. */
const KEY_ENV: Record<LlmProviderName, string[]> = {
  openai: ["OPENAI_API_KEY"],
  anthropic: ["ANTHROPIC_API_KEY"],
  google: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
};

/** The vendor's key (default openai) from its own variables, or undefined. */
export function keyFromEnv(
  vendor: unknown,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const names = KEY_ENV[(vendor ?? "openai") as LlmProviderName] ?? [];
  return names.map((n) => env[n]).find(Boolean);
}

/**
 * The key for `vendor` (default openai): --llm-key, else its environment variables. With
 * `keyless` (a --llm-base server that may need none) a missing key is undefined, not an error.
 * @throws SiphonError invalid_request naming the variables to set
 */
export function llmKeyOf(
  vendor: unknown,
  flag: unknown,
  env: Record<string, string | undefined> = process.env,
  field = "llmApiKey",
): string {
  const name = (vendor ?? "openai") as LlmProviderName;
  const names = KEY_ENV[name];
  const key = (typeof flag === "string" && flag) || keyFromEnv(name, env);
  if (key) return key;
  throw new SiphonError("invalid_request", `${field}: no key for ${name}`, {
    hint: names
      ? `Pass --llm-key or set ${names.join(" or ")} (any value for a keyless server behind --llm-base).`
      : "Pass --llm openai, anthropic or google.",
  });
}

/**
 * The LLM flags as a request's fields (llmProvider, llmApiKey, llmModel, llmApiBase), only when a
 * --llm flag asks for a model; the key from --llm-key or the vendor's variable. Throws
 * invalid_request when no key is found.
 */
export function llmRequestFields(a: Record<string, unknown>): Record<string, unknown> {
  if (a.llm === undefined && a["llm-key"] === undefined && a["llm-base"] === undefined) return {};
  const fields: Record<string, unknown> = {
    llmProvider: a.llm ?? "openai",
    llmApiKey: llmKeyOf(a.llm, a["llm-key"]),
    llmModel: a["llm-model"],
    llmApiBase: a["llm-base"],
  };
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields;
}

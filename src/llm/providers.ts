import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";

/**
 * The LLM vendors siphon talks to, all through their OpenAI-compatible chat completions
 * endpoint (one SDK, one wire format). This table is the one place a vendor is described;
 * it imports no SDK, so schemas and help text can read it for free.
 */
export const LLM_PROVIDERS = {
  openai: {
    baseUrlSetting: "openaiBaseUrl",
    modelSetting: "openaiModel",
    // Structured Outputs: response_format {type: "json_schema", json_schema: {name, schema, strict}}.
    jsonSchema: true,
  },
  anthropic: {
    baseUrlSetting: "anthropicBaseUrl",
    modelSetting: "anthropicModel",
    // Anthropic's OpenAI compatibility layer ignores response_format, so siphon asks for JSON in
    // the prompt and validates what comes back.
    jsonSchema: false,
  },
  google: {
    baseUrlSetting: "googleBaseUrl",
    modelSetting: "googleModel",
    // Gemini's OpenAI compatibility layer takes response_format with a json_schema.
    jsonSchema: true,
  },
} as const satisfies Record<string, LlmProviderInfo>;

/** What the table says about one vendor. */
export interface LlmProviderInfo {
  /** Config key of the vendor's base URL (SIPHON_<VENDOR>_BASE_URL). */
  baseUrlSetting: keyof Config;
  /** Config key of the vendor's default model (SIPHON_<VENDOR>_MODEL). */
  modelSetting: keyof Config;
  /** Whether the endpoint honours response_format json_schema; otherwise JSON is asked for in the prompt. */
  jsonSchema: boolean;
}

export type LlmProviderName = keyof typeof LLM_PROVIDERS;

/** The vendor names, in table order (openai, anthropic, google). */
export const LLM_PROVIDER_NAMES = Object.keys(LLM_PROVIDERS) as LlmProviderName[];

/** Which model to ask and where, as a request names it; everything but `provider` is optional. */
export interface LlmTarget {
  provider: LlmProviderName;
  /** The caller's key for the vendor. Used for this call only: never stored, logged or echoed. */
  apiKey?: string;
  /** Model name; the vendor's default model setting when absent. */
  model?: string;
  /** Base URL of any OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter); the vendor's base URL setting when absent. */
  apiBase?: string;
}

/** A target with every default applied: what a call actually uses. */
export interface ResolvedTarget {
  provider: LlmProviderName;
  /** The key sent as `Authorization: Bearer`; a placeholder for a keyless server. */
  apiKey: string;
  /** True when the caller gave a key (not the placeholder), so error messages can talk about it. */
  hasKey: boolean;
  model: string;
  /** Base URL the SDK appends `/chat/completions` to. */
  baseUrl: string;
  /** True when the base URL came from the request (llmApiBase) rather than configuration. */
  customBase: boolean;
  jsonSchema: boolean;
}

/**
 * Sent when there is no key: the openai SDK refuses to start without one, and keyless local
 * servers (Ollama, llama.cpp, vLLM) ignore whatever comes in the Authorization header.
 */
export const PLACEHOLDER_KEY = "siphon-no-key";

/** The documented public endpoints: a call to one of these without a key cannot succeed. */
const VENDOR_HOSTS = new Set(["api.openai.com", "api.anthropic.com", "generativelanguage.googleapis.com"]);

/** True when `name` is one of the vendors in the table. */
export function isLlmProvider(name: string): name is LlmProviderName {
  return Object.hasOwn(LLM_PROVIDERS, name);
}

/** A base URL as messages may show it: no user info, query or fragment (they can carry secrets). */
export function displayBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "(an invalid URL)";
  }
}

function parseBase(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SiphonError(
      "invalid_request",
      `${source} is not a URL; give the server's base URL, e.g. http://localhost:11434/v1`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SiphonError(
      "invalid_request",
      `${source} must be an http(s) URL, e.g. http://localhost:11434/v1`,
    );
  }
  // The SDK appends "/chat/completions"; a trailing slash would double it.
  return url.href.replace(/\/+$/, "");
}

/**
 * Applies the defaults to a target: the vendor's base URL and model from configuration, the
 * request's llmApiBase and llmModel over them, and a placeholder key for keyless servers.
 *
 * @throws SiphonError invalid_request for an unknown provider, an llmApiBase that is not an
 *   http(s) URL, or no key for a vendor's public endpoint (which would only answer 401)
 */
export function resolveTarget(target: LlmTarget, config: Config): ResolvedTarget {
  const { provider } = target;
  if (!isLlmProvider(provider)) {
    throw new SiphonError(
      "invalid_request",
      `Unknown LLM provider "${String(provider)}"; use one of ${LLM_PROVIDER_NAMES.join(", ")}`,
      { hint: "Any OpenAI-compatible server works with llmProvider openai and llmApiBase set to its URL." },
    );
  }
  const info: LlmProviderInfo = LLM_PROVIDERS[provider];
  const customBase = Boolean(target.apiBase?.trim());
  const baseUrl = customBase
    ? parseBase(target.apiBase!, "llmApiBase")
    : parseBase(String(config[info.baseUrlSetting]), `The ${provider} base URL setting`);
  const model = target.model?.trim() || String(config[info.modelSetting]);
  const apiKey = target.apiKey?.trim() ?? "";
  if (!apiKey && VENDOR_HOSTS.has(new URL(baseUrl).hostname)) {
    throw new SiphonError(
      "invalid_request",
      `llmApiKey is required for ${provider} (${displayBaseUrl(baseUrl)})`,
      {
        hint: "Pass your own key for the vendor; a keyless OpenAI-compatible server needs llmApiBase instead.",
      },
    );
  }
  return {
    provider,
    apiKey: apiKey || PLACEHOLDER_KEY,
    hasKey: apiKey !== "",
    model,
    baseUrl,
    customBase,
    jsonSchema: info.jsonSchema,
  };
}

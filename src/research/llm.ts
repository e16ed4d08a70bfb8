import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import {
  type ChatMessage,
  type CompletionResult,
  type CompletionStream,
  complete,
  completeStream,
  completeStructured,
  isLlmProvider,
  type JsonSchema,
  LLM_PROVIDER_NAMES,
  type LlmDeps,
  LlmOutputError,
  type LlmTarget,
  type Usage,
} from "../llm/index.ts";
import type { ResearchLlmInput } from "../schemas/research.ts";

/** Whose LLM a research runs on: the caller's `llm`, or the service's SIPHON_LLM_* settings. */
export type LlmOrigin = "caller" | "service";

/** What researching needs of the LLM module, beyond the fetch pipeline. */
export interface ResearchLlmDeps {
  config: Config;
  signal?: AbortSignal;
  /** How the caller's llm.apiBase is treated ("guard" on the server); the service's is always trusted. */
  apiBasePolicy?: LlmDeps["apiBasePolicy"];
  /** One line per failed call; never keys or bodies. */
  llmLog?: LlmDeps["log"];
}

export const NO_LLM_HINT =
  "Pass llm {provider, apiKey} with your own key for openai, anthropic or google (apiBase for any OpenAI-compatible server), or have the operator set SIPHON_LLM_PROVIDER and SIPHON_LLM_API_KEY.";

/** The request's names of the LLM fields, and the settings that stand for them when the service's LLM runs. */
const FIELD_NAMES: Record<LlmOrigin, [RegExp, string][]> = {
  caller: [
    [/\bllmApiKey\b/g, "llm.apiKey"],
    [/\bllmModel\b/g, "llm.model"],
    [/\bllmApiBase\b/g, "llm.apiBase"],
    [/\bllmProvider\b/g, "llm.provider"],
  ],
  service: [
    [/\bllmApiKey\b/g, "SIPHON_LLM_API_KEY"],
    [/\bllmModel\b/g, "SIPHON_LLM_MODEL"],
    [/\bllmApiBase\b/g, "SIPHON_LLM_BASE_URL"],
    [/\bllmProvider\b/g, "SIPHON_LLM_PROVIDER"],
  ],
};

function rename(text: string, origin: LlmOrigin): string {
  return FIELD_NAMES[origin].reduce((out, [pattern, name]) => out.replace(pattern, name), text);
}

/**
 * The LLM a research request uses: the caller's `llm` when given, else the service's
 * (SIPHON_LLM_PROVIDER, SIPHON_LLM_API_KEY, SIPHON_LLM_MODEL, SIPHON_LLM_BASE_URL). The two are
 * never mixed: a caller's llm never gets the service's key or base URL.
 *
 * @throws SiphonError invalid_request (with a hint saying how to give one) when there is neither;
 *   answer_failed when SIPHON_LLM_PROVIDER names no known vendor
 */
export function chooseLlm(
  llm: ResearchLlmInput | undefined,
  config: Config,
): { target: LlmTarget; origin: LlmOrigin } {
  if (llm) {
    return {
      origin: "caller",
      target: { provider: llm.provider, apiKey: llm.apiKey, model: llm.model, apiBase: llm.apiBase },
    };
  }
  const provider = config.llmProvider.trim();
  if (!provider) {
    throw new SiphonError("invalid_request", "llm is required: this server has no LLM of its own", {
      hint: NO_LLM_HINT,
    });
  }
  if (!isLlmProvider(provider)) {
    throw new SiphonError(
      "answer_failed",
      `This server's SIPHON_LLM_PROVIDER is "${provider}"; it must be one of ${LLM_PROVIDER_NAMES.join(", ")}`,
      { hint: "Pass llm {provider, apiKey} to use your own LLM, or ask the operator to fix the setting." },
    );
  }
  return {
    origin: "service",
    target: {
      provider,
      apiKey: config.llmApiKey || undefined,
      model: config.llmModel || undefined,
      apiBase: config.llmBaseUrl || undefined,
    },
  };
}

/**
 * One research's LLM: every call goes to the same target, its tokens are added up, and its
 * errors name the fields the caller knows (llm.apiKey) or, for the service's LLM, the settings
 * the operator must fix: a refused service key is the server's fault (answer_failed), not the
 * caller's (invalid_request).
 */
export class ResearchModel {
  readonly target: LlmTarget;
  readonly origin: LlmOrigin;
  /** LLM calls made, failed ones included. */
  calls = 0;
  #input = 0;
  #output = 0;
  readonly #deps: LlmDeps;

  constructor(choice: { target: LlmTarget; origin: LlmOrigin }, deps: ResearchLlmDeps) {
    this.target = choice.target;
    this.origin = choice.origin;
    this.#deps = {
      config: deps.config,
      signal: deps.signal,
      // The service's base URL is the operator's setting, trusted like SIPHON_<VENDOR>_BASE_URL.
      apiBasePolicy: choice.origin === "service" ? "trust" : deps.apiBasePolicy,
      log: deps.llmLog,
    };
  }

  /** Tokens of every call so far. */
  get tokensUsed(): { input: number; output: number } {
    return { input: this.#input, output: this.#output };
  }

  count(usage: Usage): void {
    this.#input += usage.input;
    this.#output += usage.output;
  }

  /** A whole completion, its usage counted. */
  async complete(messages: ChatMessage[]): Promise<CompletionResult> {
    this.calls++;
    try {
      const result = await complete({ llm: this.target, messages }, this.#deps);
      this.count(result.usage);
      return result;
    } catch (error) {
      throw this.translate(error);
    }
  }

  /**
   * A JSON answer matching `schema`. An answer that is not such JSON throws LlmOutputError
   * untranslated (its usage counted), so callers can fall back instead of failing.
   */
  async structured<T>(messages: ChatMessage[], schema: JsonSchema, name: string): Promise<T> {
    this.calls++;
    try {
      const result = await completeStructured<T>(
        { llm: this.target, messages, schema, schemaName: name },
        this.#deps,
      );
      this.count(result.usage);
      return result.data;
    } catch (error) {
      if (error instanceof LlmOutputError) {
        this.count(error.usage);
        throw error;
      }
      throw this.translate(error);
    }
  }

  /** A streamed completion, started (failures before its first byte are thrown, translated). */
  async stream(messages: ChatMessage[]): Promise<CompletionStream> {
    this.calls++;
    try {
      return await completeStream({ llm: this.target, messages }, this.#deps);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** An error of a call as the caller should read it (anything but a SiphonError passes as it is). */
  translate(error: unknown): unknown {
    if (!(error instanceof SiphonError)) return error;
    const hint = error.hint ? rename(error.hint, this.origin) : undefined;
    const message = rename(error.message, this.origin);
    if (this.origin === "caller") {
      return new SiphonError(error.type, message, { hint, headers: error.headers });
    }
    // The caller gave nothing wrong: the service's own settings or vendor account are at fault.
    const type =
      error.type === "invalid_request" || error.type === "forbidden_url" ? "answer_failed" : error.type;
    return new SiphonError(type, `This server's LLM failed: ${message}`, {
      hint: `${hint ? `${hint} ` : ""}Pass llm {provider, apiKey} to use your own LLM instead.`,
      headers: error.headers,
    });
  }
}

import type { Config } from "../config.ts";
import type { LlmProviderName, LlmTarget } from "./providers.ts";

/** One chat message. System messages may appear anywhere; vendors that take one hoist them. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * Tokens a call used, from the API's `usage` (prompt_tokens, completion_tokens). When the
 * server reports none (some OpenAI-compatible servers, or a stream without the final usage
 * chunk), both are estimated as ceil(characters / 4), siphon's token rule, and `estimated`
 * is true.
 */
export interface Usage {
  input: number;
  output: number;
  estimated: boolean;
}

/** What every call takes: where to ask, the conversation, and optional sampling limits. */
export interface CompletionInput {
  llm: LlmTarget;
  messages: ChatMessage[];
  /** Upper bound on the answer's tokens (sent as max_completion_tokens). */
  maxTokens?: number;
  /** Sent only when set: recent reasoning models refuse anything but their default. */
  temperature?: number;
}

/** A finished completion. */
export interface CompletionResult {
  text: string;
  usage: Usage;
  provider: LlmProviderName;
  /** The model asked for (the request's llmModel or the vendor's default). */
  model: string;
  /** The API's finish_reason ("stop", "length", …); null when the server sent none. */
  finishReason: string | null;
}

/** What LLM calls need from their caller. */
export interface LlmDeps {
  config: Config;
  /** Aborts the call, and the upstream HTTP request with it (a client that went away). */
  signal?: AbortSignal;
  /**
   * How a per-request llmApiBase is treated. "guard" (the default) applies the SSRF rules of
   * every outgoing fetch (DISABLE_SSRF_PROTECTION, SIPHON_SSRF_ALLOW) so a remote caller cannot
   * point the server at an internal address; "trust" exempts the base's own origin, for a
   * person running siphon on their own machine against a local Ollama or llama.cpp. Either
   * way a redirect to another origin is checked.
   */
  apiBasePolicy?: "guard" | "trust";
  /** One line per failed call (provider, model, status, time); never keys or bodies. */
  log?: (line: string) => void;
}

/**
 * The one place siphon calls LLMs. Answer, agent, structured extraction and the MCP tools use
 * these functions; nothing else imports the openai SDK (which this module loads lazily).
 *
 * - `complete`: messages -> text and token usage
 * - `completeStream`: messages -> text chunks as they arrive, usage at the end
 * - `completeStructured`: messages + JSON Schema -> a validated object
 * - `completeWithTools`: one turn of a conversation with tools (text or tool calls)
 *
 * Each takes `{llm: {provider, apiKey?, model?, apiBase?}, messages, …}` and `LlmDeps` (config,
 * AbortSignal, SSRF policy for llmApiBase, log). Errors: see ./errors.ts.
 */
export { type CompletionStream, complete, completeStream, estimateTokens } from "./complete.ts";
export { LlmOutputError, scrubSecret } from "./errors.ts";
export {
  isLlmProvider,
  LLM_PROVIDER_NAMES,
  LLM_PROVIDERS,
  type LlmProviderName,
  type LlmTarget,
  type ResolvedTarget,
  resolveTarget,
} from "./providers.ts";
export { completeStructuredRepaired, type RepairOptions, SCHEMA_REPAIRS } from "./repair.ts";
export {
  checkJsonSchema,
  completeStructured,
  fitsStrictMode,
  type JsonSchema,
  type StructuredInput,
  type StructuredMode,
  type StructuredResult,
  schemaIssues,
} from "./structured.ts";
export {
  completeWithTools,
  isNoToolSupport,
  type ToolCall,
  type ToolMessage,
  type ToolSpec,
  type ToolTurn,
} from "./tools.ts";
export type { ChatMessage, CompletionInput, CompletionResult, LlmDeps, Usage } from "./types.ts";

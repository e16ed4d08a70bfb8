import { SiphonError } from "../errors.ts";
import { checkJsonSchema, isLlmProvider, type LlmTarget } from "../llm/index.ts";
import type { InlineExtract } from "../schemas/extract.ts";
import { parseSelectors, type SelectorSpec } from "./selectors.ts";

/** What to extract and how, checked: the one shape every route, the CLI and jobs hand the core. */
export interface ExtractRequest {
  schema?: Record<string, unknown>;
  prompt?: string;
  selectors?: Record<string, SelectorSpec>;
  /** Set when an LLM is to be used: the caller named a provider or gave a key. */
  llm?: LlmTarget;
}

/** The LLM fields as every request spells them. */
export interface LlmFields {
  llmProvider?: string;
  llmApiKey?: string;
  llmModel?: string;
  llmApiBase?: string;
}

/**
 * Checks what an extraction asks for before any page is fetched: at least one of schema, prompt
 * and selectors; selectors alone; a schema ajv can compile, with an object root; a prompt only
 * with an LLM; a provider siphon knows, with a key unless llmApiBase names a keyless server.
 * Throws invalid_request with the reason.
 */
export async function extractRequest(spec: InlineExtract, fields: LlmFields): Promise<ExtractRequest> {
  const schema = spec.schema as Record<string, unknown> | undefined;
  const selectors = spec.selectors as Record<string, SelectorSpec> | undefined;
  const { prompt } = spec;
  if (!schema && !prompt && !selectors) {
    throw new SiphonError("invalid_request", "Nothing to extract: give a schema, a prompt or selectors", {
      hint: 'e.g. {"schema": {"type": "object", "properties": {"price": {"type": "number"}}}}',
    });
  }
  if (selectors && (schema || prompt)) {
    throw new SiphonError("invalid_request", "selectors cannot be combined with schema or prompt", {
      hint: "Selectors need no LLM and answer by themselves; send them alone.",
    });
  }
  if (selectors) parseSelectors(selectors);
  if (schema) {
    if (schema.type !== "object" && !schema.properties) {
      throw new SiphonError("invalid_request", 'schema must describe an object ("type": "object")');
    }
    await checkJsonSchema(schema);
  }
  const wantsLlm = fields.llmProvider !== undefined || fields.llmApiKey !== undefined;
  if (fields.llmProvider !== undefined && !isLlmProvider(fields.llmProvider)) {
    throw new SiphonError(
      "invalid_request",
      `llmProvider must be openai, anthropic or google, got "${fields.llmProvider}"`,
      { hint: "Any other OpenAI-compatible server: llmProvider openai with llmApiBase." },
    );
  }
  if (fields.llmProvider !== undefined && !fields.llmApiKey && !fields.llmApiBase) {
    throw new SiphonError("invalid_request", `llmProvider ${fields.llmProvider} needs llmApiKey`, {
      hint: "Give your key for the vendor in llmApiKey, or leave llmProvider out for the heuristic path.",
    });
  }
  if (prompt && !wantsLlm) {
    throw new SiphonError("invalid_request", "A prompt needs an LLM: give llmProvider and llmApiKey", {
      hint: "Without an LLM, send a schema (filled from the page's structured data) or selectors.",
    });
  }
  const request: ExtractRequest = { schema, prompt, selectors };
  if (wantsLlm && !selectors) {
    request.llm = {
      provider:
        fields.llmProvider !== undefined && isLlmProvider(fields.llmProvider) ? fields.llmProvider : "openai",
      apiKey: fields.llmApiKey,
      model: fields.llmModel,
      apiBase: fields.llmApiBase,
    };
  }
  return request;
}

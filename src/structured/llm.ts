import { completeStructuredRepaired, type LlmDeps, type Usage } from "../llm/index.ts";
import type { LlmTarget } from "../llm/providers.ts";
import { trimForExtraction } from "./trim.ts";

/** A prompt without a schema still answers JSON: an object, whatever its fields. */
const ANY_OBJECT = { type: "object" };

const SYSTEM = [
  "You extract structured data from a web page's content.",
  "Use only what the page says; where a value is not on the page, use null (or an empty list).",
  "Copy names, numbers and dates exactly as the page gives them, converted to the type asked for.",
].join(" ");

export interface LlmExtraction {
  data: Record<string, unknown>;
  usage: Usage;
  /** Whether the page was cut to the budget (the most relevant passages kept). */
  trimmed: boolean;
}

/**
 * Extracts with an LLM: the page's main content (cut to EXTRACT_TOKEN_BUDGET, keeping the
 * passages most relevant to the schema and prompt) and the request go to the vendor's structured
 * output (json_schema where it has it, else the schema in the prompt); the answer is validated
 * with ajv and the model asked to repair it up to twice.
 */
export async function extractWithLlm(
  page: { url: string; title: string; markdown: string },
  want: { schema?: Record<string, unknown>; prompt?: string },
  llm: LlmTarget,
  deps: LlmDeps,
): Promise<LlmExtraction> {
  const { text, trimmed } = trimForExtraction(page.markdown, want);
  const task = want.prompt ? `What to extract: ${want.prompt}\n\n` : "";
  const result = await completeStructuredRepaired<Record<string, unknown>>(
    {
      llm,
      schema: want.schema ?? ANY_OBJECT,
      schemaName: "extraction",
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: `${task}Page: ${page.title} (${page.url})\n\n${text}` },
      ],
    },
    deps,
  );
  return { data: result.data, usage: result.usage, trimmed };
}

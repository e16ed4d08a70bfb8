import { SiphonError } from "../errors.ts";
import type { FetchInput } from "../schemas/fetch.ts";

/**
 * LLM extraction (extract, llm*, json formats) is not built yet: asking for it
 * answers a clear 400 instead of being silently ignored.
 */
export function rejectUnavailable(input: FetchInput): void {
  if (
    input.extract !== undefined ||
    input.llmProvider !== undefined ||
    input.llmApiKey !== undefined ||
    input.llmModel !== undefined
  ) {
    throw new SiphonError(
      "invalid_request",
      "LLM extraction is not available in this version of siphon (extract, llmProvider, llmApiKey, llmModel)",
      { hint: "Remove these fields; fetching and extraction work without them." },
    );
  }
}

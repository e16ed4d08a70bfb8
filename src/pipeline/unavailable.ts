import { SiphonError } from "../errors.ts";
import type { FetchInput } from "../schemas/fetch.ts";

/**
 * Options whose engines are not built yet answer a clear 400 instead of being
 * silently ignored: browser rendering (render, wait, actions) and LLM
 * extraction (extract, llm*, json formats).
 */
export function rejectUnavailable(input: FetchInput): void {
  const notYet = (what: string, fields: string) =>
    new SiphonError("invalid_request", `${what} is not available in this version of siphon (${fields})`, {
      hint: "Remove these fields; simple HTTP fetching and extraction work without them.",
    });
  if (input.render) throw notYet("Browser rendering", "render");
  if (input.wait > 0) throw notYet("Waiting after page load needs browser rendering, which", "wait");
  if (input.actions !== undefined) throw notYet("Page actions need browser rendering, which", "actions");
  if (
    input.extract !== undefined ||
    input.llmProvider !== undefined ||
    input.llmApiKey !== undefined ||
    input.llmModel !== undefined
  ) {
    throw notYet("LLM extraction", "extract, llmProvider, llmApiKey, llmModel");
  }
  if (input.formats !== undefined) throw notYet("The formats array (LLM extraction)", "formats");
}

import { SiphonError } from "../errors.ts";
import type { LlmDeps } from "../llm/index.ts";
import type { FetchDeps } from "../pipeline/fetch-page.ts";
import { InlineExtract } from "../schemas/extract.ts";
import type { FetchInput } from "../schemas/fetch.ts";
import { validate } from "../schemas/validate.ts";
import { type ExtractRequest, extractRequest } from "./request.ts";

/** What a page operation with extraction or a summary needs beyond the pipeline: how to treat llmApiBase, a log. */
export interface ExtractDeps extends FetchDeps {
  apiBasePolicy?: LlmDeps["apiBasePolicy"];
  llmLog?: LlmDeps["log"];
}

/** Whether a formats entry asks for extraction ("json" or {type: "json", …}). */
export const isJsonFormat = (entry: unknown) =>
  entry === "json" ||
  (typeof entry === "object" && entry !== null && (entry as { type?: unknown }).type === "json");

/** Whether a formats entry asks for a summary or an answer (the other uses of the LLM fields). */
const readsWithLlm = (entry: unknown) =>
  entry === "summary" ||
  (typeof entry === "object" &&
    entry !== null &&
    ((entry as { type?: unknown }).type === "summary" || (entry as { type?: unknown }).type === "question"));

/** The inline extraction a fetch asks for: `extract`, or a formats entry of type json ({type, schema, prompt}). */
function inlineSpec(input: FetchInput): InlineExtract | undefined {
  const entries = (input.formats ?? []).filter(isJsonFormat);
  if (entries.length > 1) throw new SiphonError("invalid_request", "formats holds more than one json entry");
  if (input.extract !== undefined && entries.length) {
    throw new SiphonError("invalid_request", "Give extract or a json format, not both");
  }
  if (input.extract !== undefined) return validate(InlineExtract, input.extract);
  const entry = entries[0];
  if (entry === undefined) return undefined;
  if (entry === "json") {
    throw new SiphonError(
      "invalid_request",
      'The json format needs a schema or a prompt: {"type":"json","schema":{…}}',
    );
  }
  const { type: _type, ...spec } = entry as Record<string, unknown>;
  return validate(InlineExtract, spec);
}

/** Whether a fetch asks for extraction at all (`extract`, or a json formats entry). */
export const asksExtraction = (input: FetchInput) =>
  input.extract !== undefined || (input.formats ?? []).some(isJsonFormat);

/**
 * The extraction a fetch asks for (`extract`, or a formats entry of type json), checked; undefined
 * when it asks for none. Refuses (400) llm fields with neither an extraction nor a summary, and
 * every extraction extractRequest refuses. Batch and crawl call it when a job is submitted, so a
 * bad extraction is a 400 before the job exists.
 */
export async function inlineRequest(input: FetchInput): Promise<ExtractRequest | undefined> {
  const spec = inlineSpec(input);
  if (spec) return extractRequest(spec, input);
  const llmFields = input.llmProvider || input.llmApiKey || input.llmModel;
  if (llmFields && !(input.formats ?? []).some(readsWithLlm)) {
    throw new SiphonError(
      "invalid_request",
      "llmProvider, llmApiKey and llmModel only apply with extract, a summary or a question format",
      {
        hint: 'Add "extract": {"schema": {…}}, a {"type":"json"} format, "summary" or {"type":"question","question":"…"} to formats, or remove the llm fields.',
      },
    );
  }
  return undefined;
}

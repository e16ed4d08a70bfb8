import { SiphonError } from "../errors.ts";
import type { LlmDeps } from "../llm/index.ts";
import { type FetchDeps, type FetchOutcome, fetchPage } from "../pipeline/fetch-page.ts";
import { InlineExtract } from "../schemas/extract.ts";
import { FetchBody, type FetchInput } from "../schemas/fetch.ts";
import { validate } from "../schemas/validate.ts";
import { extractPage } from "./index.ts";
import { type ExtractRequest, extractRequest } from "./request.ts";

/** What fetching with extraction needs beyond the pipeline: how to treat llmApiBase, a log. */
export interface ExtractDeps extends FetchDeps {
  apiBasePolicy?: LlmDeps["apiBasePolicy"];
  llmLog?: LlmDeps["log"];
}

/** Whether a formats entry asks for extraction ("json" or {type: "json", …}). */
export const isJsonFormat = (entry: unknown) =>
  entry === "json" ||
  (typeof entry === "object" && entry !== null && (entry as { type?: unknown }).type === "json");

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

/** The fetch to make for an extraction: its own formats, plus markdown and the raw HTML it reads. */
function fetchInputFor(input: FetchInput): { fetch: FetchInput; added: string[] } {
  const asked = (input.formats ?? []).filter((entry) => !isJsonFormat(entry));
  const named = new Set(asked.map((e) => (typeof e === "string" ? e : (e as { type: string }).type)));
  const formats = asked.length ? [...asked] : [input.format];
  const added: string[] = asked.length ? [] : [input.format];
  for (const format of ["markdown", "rawHtml"]) {
    if (!named.has(format) && !formats.includes(format)) {
      formats.push(format);
      added.push(format);
    }
  }
  const {
    extract: _e,
    llmProvider: _p,
    llmApiKey: _k,
    llmModel: _m,
    llmApiBase: _b,
    ...rest
  } = input as FetchInput & {
    llmApiBase?: string;
  };
  return { fetch: { ...rest, formats }, added };
}

/**
 * The extraction a fetch asks for (`extract`, or a formats entry of type json), checked; undefined
 * when it asks for none. Refuses (400) llm fields without an extraction, and every extraction
 * extractRequest refuses. Batch and crawl call it when a job is submitted, so a bad extraction
 * is a 400 before the job exists.
 */
export async function inlineRequest(input: FetchInput): Promise<ExtractRequest | undefined> {
  const spec = inlineSpec(input);
  if (spec) return extractRequest(spec, input);
  if (input.llmProvider || input.llmApiKey || input.llmModel) {
    throw new SiphonError("invalid_request", "llmProvider, llmApiKey and llmModel only apply with extract", {
      hint: 'Add "extract": {"schema": {…}} or a {"type":"json"} format, or remove the llm fields.',
    });
  }
  return undefined;
}

/**
 * Fetches a page and, when the request asks (`extract`, or a formats entry of type json),
 * extracts from it: the result gains `json` (and `extractTokensUsed` on the LLM path). Without
 * extraction this is fetchPage. The page is fetched once, with markdown and raw HTML added for
 * the extraction and taken out of the result again unless the request named them.
 */
export async function fetchAndExtract(input: FetchInput, deps: ExtractDeps): Promise<FetchOutcome> {
  const request = await inlineRequest(input);
  if (!request) return fetchPage(input, deps);
  const { fetch, added } = fetchInputFor(input);
  const outcome = await fetchPage(validate(FetchBody, fetch), deps);
  const result = { ...outcome.result };
  const extracted = await extractPage(
    {
      url: result.url,
      title: result.title,
      html: result.rawHtml ?? "",
      markdown: result.markdown ?? result.content,
    },
    request,
    { config: deps.config, signal: deps.signal, apiBasePolicy: deps.apiBasePolicy, log: deps.llmLog },
  );
  for (const field of added) delete (result as Record<string, unknown>)[field];
  result.json = extracted.data;
  if (extracted.tokensUsed) result.extractTokensUsed = extracted.tokensUsed;
  return { ...outcome, result };
}

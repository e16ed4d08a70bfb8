import { type Static, Type as T } from "@sinclair/typebox";
import { StringEnum } from "./common.ts";
import { extractFields } from "./extract-spec.ts";
import { Webhook } from "./jobs.ts";
import { LlmFieldsOptional } from "./llm.ts";

export { InlineExtract, MAX_EXTRACT_PROMPT_CHARS, SelectorsField } from "./extract-spec.ts";

/** Most pages one extraction job reads. */
export const MAX_EXTRACT_URLS = 100;

/** POST /v1/extract: `url` (answered at once) or `urls` (a job), never both. */
export const ExtractBody = T.Object(
  {
    url: T.Optional(
      T.String({ minLength: 1, maxLength: 2048, description: "The page; the extraction answers at once" }),
    ),
    urls: T.Optional(
      T.Array(T.String({ minLength: 1, maxLength: 2048 }), {
        minItems: 1,
        maxItems: MAX_EXTRACT_URLS,
        description:
          "Up to 100 pages, extracted as an async job (202 with its poll URL) whose result merges them; give url or urls",
      }),
    ),
    ...extractFields,
    ...LlmFieldsOptional,
    webhook: T.Optional(Webhook),
  },
  { additionalProperties: false },
);
export type ExtractInput = Static<typeof ExtractBody>;

export const ExtractMethod = T.Union([T.Literal("llm"), T.Literal("heuristic"), T.Literal("selectors")], {
  description:
    "llm (schema and/or prompt with an LLM), heuristic (no key: structured data on the page) or selectors",
});

/** One page's extraction. */
export const ExtractResult = T.Object({
  url: T.String({ description: "The page's final URL" }),
  data: T.Unsafe<Record<string, unknown>>({
    type: "object",
    description:
      "The extracted data; with a schema it matches it (null for what was not found, heuristic path)",
  }),
  method: ExtractMethod,
  sources: T.Optional(
    T.Record(T.String(), T.String(), {
      description: "Heuristic path: which signal filled each field (json-ld, microdata, rdfa, opengraph, …)",
    }),
  ),
  tokensUsed: T.Optional(T.Object({ input: T.Integer(), output: T.Integer() })),
});
export type ExtractResult = Static<typeof ExtractResult>;

export const ExtractResponse = T.Composite([T.Object({ success: T.Literal(true) }), ExtractResult]);
export type ExtractResponse = Static<typeof ExtractResponse>;

/** GET /v1/extract/auto's query. */
export const ExtractAutoQuery = T.Object({
  url: T.String({ minLength: 1, maxLength: 2048, description: "The page" }),
});

/** 202 answer of POST /v1/extract with urls. */
export const ExtractStarted = T.Object({
  success: T.Literal(true),
  id: T.String({ description: "extract_<uuid>" }),
  url: T.String({ description: "The poll URL" }),
});

/** One page of an extraction job: its extraction, or why it failed. */
export const ExtractJobItem = T.Union([
  ExtractResult,
  T.Object({
    url: T.String({ description: "The URL as given" }),
    error: T.Object({ type: T.String(), message: T.String() }),
  }),
]);

/** GET /v1/extract/:id. */
export const ExtractJobPoll = T.Object({
  success: T.Literal(true),
  status: StringEnum(["queued", "processing", "completed", "failed", "cancelled"]),
  progress: T.Integer({ description: "0-100" }),
  total: T.Integer({ description: "Pages in the job (duplicate URLs once)" }),
  completed: T.Integer({ description: "Pages finished, failed ones included" }),
  failed: T.Integer(),
  creditsUsed: T.Integer({ description: "1 per page fetched from its site; cache hits are free" }),
  expiresAt: T.Union([T.String(), T.Null()], { description: "24 h after the job ended; null before" }),
  data: T.Optional(
    T.Unsafe<Record<string, unknown>>({
      type: "object",
      description:
        "Once completed: the pages merged in the order of urls: arrays concatenated, any other field " +
        "from the first page with a non-null value",
    }),
  ),
  results: T.Array(ExtractJobItem, {
    description: "Per page, in the order of urls; paged with skip and limit",
  }),
  next: T.Optional(T.String({ description: "The next page of results; absent on the last" })),
  tokensUsed: T.Optional(
    T.Object({ input: T.Integer(), output: T.Integer() }, { description: "LLM tokens of every page" }),
  ),
  error: T.Optional(T.String({ description: "Why the job failed" })),
  lastProgressAt: T.String({
    description: "ISO 8601: when the job last moved (a page finished, a status changed)",
  }),
  warning: T.Optional(
    T.String({
      description:
        "While queued or processing: the job has not moved for SIPHON_JOB_STALL_MS and looks stalled",
    }),
  ),
});
export type ExtractJobPoll = Static<typeof ExtractJobPoll>;

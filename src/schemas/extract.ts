import { type Static, Type as T } from "@sinclair/typebox";
import { extractFields } from "./extract-spec.ts";
import { LlmFieldsOptional } from "./llm.ts";

export { InlineExtract, MAX_EXTRACT_PROMPT_CHARS, SelectorsField } from "./extract-spec.ts";

/** POST /v1/extract. */
export const ExtractBody = T.Object(
  {
    url: T.String({ minLength: 1, maxLength: 2048, description: "The page" }),
    ...extractFields,
    ...LlmFieldsOptional,
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

/** What to extract, shared by POST /v1/fetch (`extract`, json formats) and POST /v1/extract. */
import { type Static, Type as T } from "@sinclair/typebox";

export const MAX_EXTRACT_PROMPT_CHARS = 4000;

const JsonSchemaObject = T.Object(
  {},
  {
    additionalProperties: true,
    description: "A JSON Schema (object root) the result must match; checked with ajv",
  },
);

export const SelectorsField = T.Record(
  T.String({ minLength: 1, maxLength: 200 }),
  T.Union([
    T.String({ minLength: 1, maxLength: 1000 }),
    T.Array(T.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 1 }),
  ]),
  {
    maxProperties: 100,
    description:
      'Fields by CSS selector, no LLM: "h1" (the first match\'s text), "img.main@src" (an attribute), ["li.tag"] (every match)',
  },
);

/** What to extract: a schema, a prompt, CSS selectors, or schema with prompt. */
export const extractFields = {
  schema: T.Optional(JsonSchemaObject),
  prompt: T.Optional(
    T.String({
      minLength: 1,
      maxLength: MAX_EXTRACT_PROMPT_CHARS,
      description: "What to extract, in words (needs an LLM)",
    }),
  ),
  selectors: T.Optional(SelectorsField),
};

/** The `extract` object of POST /v1/fetch, and a `formats` entry of type json. */
export const InlineExtract = T.Object(extractFields, { additionalProperties: false });
export type InlineExtract = Static<typeof InlineExtract>;

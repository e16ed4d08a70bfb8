import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { TOKENIZERS } from "../chunks/names.ts";
import { SiphonError } from "../errors.ts";
import { describeValueError } from "./validate.ts";

/**
 * The formats entries that read the page rather than render it, as objects: every surface's
 * schema (POST /v1/fetch's formats, MCP's siphon_fetch, Firecrawl's scrape) checks them here.
 */

/** Most selectors one attributes entry may hold. */
export const MAX_ATTRIBUTE_SELECTORS = 50;

export const AttributesFormat = T.Object(
  {
    type: T.Literal("attributes"),
    selectors: T.Array(
      T.Object(
        {
          selector: T.String({ minLength: 1, maxLength: 1000, description: "A CSS selector" }),
          attribute: T.String({
            minLength: 1,
            maxLength: 200,
            pattern: "^[^\\s\"'>/=]+$",
            description: "an attribute name (no spaces, quotes, >, / or =)",
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_ATTRIBUTE_SELECTORS },
    ),
  },
  {
    additionalProperties: false,
    description:
      "Every value of an attribute on the elements a CSS selector matches, in page order: attributes: [{selector, attribute, values}]",
  },
);
export type AttributesFormat = Static<typeof AttributesFormat>;

export const HighlightsFormat = T.Object(
  {
    type: T.Literal("highlights"),
    query: T.String({ minLength: 1, maxLength: 1000, description: "What the passages should be about" }),
  },
  {
    additionalProperties: false,
    description:
      "The page's passages most relevant to query (BM25, no LLM), best first, in highlights (markdown-free text, passages separated by blank lines)",
  },
);
export type HighlightsFormat = Static<typeof HighlightsFormat>;

/** The tokenizers a chunks format may count in (the gpt-tokenizer package's encodings). */
export const CHUNK_TOKENIZERS = TOKENIZERS;

export const ChunksFormat = T.Object(
  {
    type: T.Literal("chunks"),
    maxTokens: T.Optional(
      T.Integer({ minimum: 32, maximum: 8192, description: "Most tokens a chunk holds (default 512)" }),
    ),
    overlap: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: 4095,
        description:
          "Tokens repeated from the end of the previous chunk of the same section, below maxTokens / 2 (default 0)",
      }),
    ),
    tokenizer: T.Optional(
      T.Union(
        CHUNK_TOKENIZERS.map((name) => T.Literal(name)),
        { description: "The encoding tokens are counted in (default o200k_base, the GPT-4o family's)" },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The page\'s markdown in chunks for retrieval, in chunks: [{id, text, headings, index, tokens, url, title, tokenizer}]; "chunks" alone takes the defaults',
  },
);
export type ChunksFormat = Static<typeof ChunksFormat>;

export const QuestionFormat = T.Object(
  {
    type: T.Literal("question"),
    question: T.String({ minLength: 1, maxLength: 2000 }),
    quote: T.Optional(
      T.Boolean({
        description: "true: answer with the page's most relevant passage, word for word, even with an LLM",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "An answer to question from the page alone, in answer: by the request's LLM (or, on Firecrawl's routes, the operator's), else the page's most relevant passage; answerMethod says which",
  },
);
export type QuestionFormat = Static<typeof QuestionFormat>;

/**
 * Checks a formats entry against its schema; a 400 naming `formats[index]` and the field.
 * Throws SiphonError invalid_request.
 */
export function checkFormatEntry<S extends TSchema>(schema: S, entry: unknown, index: number): Static<S> {
  const error = Value.Errors(schema, entry).First();
  if (!error) return entry as Static<S>;
  const type = (entry as { type?: unknown }).type;
  throw new SiphonError(
    "invalid_request",
    `formats[${index}] (${String(type)}): ${describeValueError(error)}`,
  );
}

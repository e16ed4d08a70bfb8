import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../errors.ts";
import { MAX_QUESTION_CHARS } from "./answer.ts";
import { inputFromQuery, StringEnum } from "./common.ts";
import { SearchBody } from "./search.ts";
import { validate } from "./validate.ts";

/** How much a source's site is trusted, from its host name (see src/ask/authority.ts). */
export const AUTHORITY_LEVELS = ["official", "institutional", "major", "general"] as const;
export type Authority = (typeof AUTHORITY_LEVELS)[number];

/** How old a source's page is, from its published date (see src/ask/freshness.ts). */
export const FRESHNESS_LEVELS = ["recent", "this-month", "this-year", "older"] as const;
export type Freshness = (typeof FRESHNESS_LEVELS)[number];

export const MAX_ASK_SOURCES = 5;
export const DEFAULT_ASK_SOURCES = 3;

/** The search fields ask shares with GET /v1/search, defined there once. */
const { provider: ProviderField, searchApiKey: SearchApiKeyField } = SearchBody.properties;

const SOURCES_DESCRIPTION = `Search results to fetch and rank, 1 to ${MAX_ASK_SOURCES} (default ${DEFAULT_ASK_SOURCES})`;

/** POST /v1/ask's body, GET /v1/ask's query after askInputFromQuery, and `siphon ask`'s flags. */
export const AskBody = T.Object(
  {
    question: T.String({
      minLength: 1,
      maxLength: MAX_QUESTION_CHARS,
      description: `The question, at most ${MAX_QUESTION_CHARS} characters`,
    }),
    sources: T.Integer({
      minimum: 1,
      maximum: MAX_ASK_SOURCES,
      default: DEFAULT_ASK_SOURCES,
      description: SOURCES_DESCRIPTION,
    }),
    provider: ProviderField,
    searchApiKey: SearchApiKeyField,
  },
  { additionalProperties: false },
);
export type AskInput = Static<typeof AskBody>;

/** GET /v1/ask query parameters, as strings on the wire (documented for OpenAPI). */
export const AskQuery = T.Object({
  q: T.String({
    minLength: 1,
    maxLength: MAX_QUESTION_CHARS,
    description: `The question, at most ${MAX_QUESTION_CHARS} characters`,
  }),
  sources: T.Optional(T.String({ description: SOURCES_DESCRIPTION })),
  provider: T.Optional(T.String({ description: "duckduckgo (default), brave or searxng" })),
  searchApiKey: T.Optional(
    T.String({
      maxLength: 512,
      pattern: "^[\\x21-\\x7E]+$",
      description: "Key for brave; the header x-search-api-key is the better place (URLs get logged)",
    }),
  ),
});

/**
 * Converts GET /v1/ask's query strings to the AskBody shape: `q` is the question, `sources` a
 * number. Throws invalid_request naming the parameter (q, not question) when one is missing or
 * out of bounds, and for a `question` parameter, so that two spellings of the question never
 * compete.
 */
export function askInputFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  if (query.question !== undefined) {
    throw new SiphonError("invalid_request", 'unknown field "question"; GET /v1/ask takes the question as q');
  }
  validate(AskQuery, query);
  const { q, ...rest } = inputFromQuery(query, { numbers: ["sources"] });
  return { question: q, ...rest };
}

export const AskSource = T.Object({
  url: T.String(),
  title: T.String(),
  snippet: T.String({
    description:
      "The page's passage that scored best for the question (about 300 characters), else the search snippet",
  }),
  confidence: T.Number({
    minimum: 0,
    maximum: 1,
    description:
      "Confidence of the page's best passage (see docs/search-and-answers.md, Ask); 0 when none matches",
  }),
  authority: StringEnum([...AUTHORITY_LEVELS], {
    description:
      "From the host name: official (government, standards bodies), institutional (universities, research), major (large references and news), general",
  }),
  freshness: StringEnum([...FRESHNESS_LEVELS], {
    description:
      "From the page's published date: recent (7 days), this-month (31 days), this-year (365 days), older (or no date)",
  }),
});
export type AskSource = Static<typeof AskSource>;

/** GET and POST /v1/ask's answer, and `siphon ask --json`. */
export const AskResponse = T.Object({
  success: T.Literal(true),
  question: T.String(),
  answer: T.Union([T.String(), T.Null()], {
    description: "The passage that answers the question best, as written on its page; null when none matches",
  }),
  confidence: T.Number({
    minimum: 0,
    maximum: 1,
    description:
      "Share of the question's terms the answer contains, times how clearly it beats the next different passage (see docs/search-and-answers.md, Ask); 0 without an answer",
  }),
  sources: T.Array(AskSource, {
    description: "The pages searched and fetched, best first: the answer comes from the first",
  }),
  method: T.Literal("bm25", { description: "How passages were ranked: BM25, no language model" }),
  elapsed: T.Integer({ description: "Milliseconds the ask took" }),
});
export type AskResponse = Static<typeof AskResponse>;

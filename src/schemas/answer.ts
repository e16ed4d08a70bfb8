import { type Static, Type as T } from "@sinclair/typebox";
import { LlmFieldsRequired } from "./llm.ts";
import { SearchBody } from "./search.ts";

export const MAX_QUESTION_CHARS = 2000;

/** The search fields answer, ask and the agent share with GET /v1/search, defined there once. */
const { provider: SearchProviderField, searchApiKey: SearchApiKeyField } = SearchBody.properties;

/** POST /v1/answer's body, and `siphon answer`'s flags. */
export const AnswerBody = T.Object(
  {
    question: T.String({
      minLength: 1,
      maxLength: MAX_QUESTION_CHARS,
      description: `The question, at most ${MAX_QUESTION_CHARS} characters`,
    }),
    ...LlmFieldsRequired,
    searchProvider: SearchProviderField,
    searchApiKey: SearchApiKeyField,
    maxSources: T.Integer({
      minimum: 1,
      maximum: 10,
      default: 5,
      description: "Search results to fetch and cite, 1 to 10",
    }),
    stream: T.Boolean({
      default: false,
      description: "Answer as server-sent events: chunk events with the text, then one done event",
    }),
  },
  { additionalProperties: false },
);
export type AnswerInput = Static<typeof AnswerBody>;

export const Citation = T.Object({
  title: T.String(),
  url: T.String(),
  snippet: T.String({ description: "The passage of the page that ranked best for the question" }),
});
export type Citation = Static<typeof Citation>;

export const TokensUsed = T.Object({
  input: T.Integer({
    description:
      "Prompt tokens (from the vendor's usage; estimated at 4 characters a token when it reports none)",
  }),
  output: T.Integer({ description: "Answer tokens" }),
});
export type TokensUsed = Static<typeof TokensUsed>;

/** SPEC's Answer response (non-streaming), plus success. */
export const AnswerResponse = T.Object({
  success: T.Literal(true),
  answer: T.String({
    description: "The answer with citation markers [1], [2]; every marker names an entry of citations",
  }),
  citations: T.Array(Citation, {
    description: "The sources the model was given, in number order: [n] is citations[n-1]",
  }),
  searchProvider: T.String(),
  llmProvider: T.String(),
  llmModel: T.String(),
  tokensUsed: TokensUsed,
});
export type AnswerResponse = Static<typeof AnswerResponse>;

/** Server-sent events of POST /v1/answer with stream=true (each one `data: <json>`). */
export const AnswerChunkEvent = T.Object({ type: T.Literal("chunk"), text: T.String() });
export const AnswerDoneEvent = T.Object({
  type: T.Literal("done"),
  citations: T.Array(Citation),
  searchProvider: T.String(),
  llmProvider: T.String(),
  llmModel: T.String(),
  tokensUsed: TokensUsed,
});
export const AnswerErrorEvent = T.Object({
  type: T.Literal("error"),
  error: T.Object({ type: T.String(), message: T.String() }),
});
export type AnswerEvent =
  | Static<typeof AnswerChunkEvent>
  | Static<typeof AnswerDoneEvent>
  | Static<typeof AnswerErrorEvent>;

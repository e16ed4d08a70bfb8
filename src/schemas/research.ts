import { type Static, Type as T } from "@sinclair/typebox";
import { AnswerChunkEvent, AnswerErrorEvent, MAX_QUESTION_CHARS, TokensUsed } from "./answer.ts";
import { StringEnum } from "./common.ts";
import { LlmApiBaseField, LlmApiKeyField, LlmModelField, LlmProviderField } from "./llm.ts";
import { SearchBody } from "./search.ts";

export const RESEARCH_DEPTHS = ["quick", "deep"] as const;
export type ResearchDepth = (typeof RESEARCH_DEPTHS)[number];

/** One search gives at most 10 results, so quick research reads at most 10 pages. */
export const MAX_QUICK_SOURCES = 10;
export const MAX_RESEARCH_SOURCES = 30;
export const MAX_ROUNDS = 5;
export const DEFAULT_ROUNDS = 3;
export const MIN_DEEP_SOURCES = 5;
export const DEFAULT_DEEP_SOURCES = 20;

/** The search fields research shares with GET /v1/search, defined there once. */
const { provider: SearchProviderField, searchApiKey: SearchApiKeyField } = SearchBody.properties;

/**
 * The caller's own LLM (SPEC: keys provider, apiKey, model; apiBase as answer's llmApiBase).
 * Absent, the service's LLM answers (SIPHON_LLM_PROVIDER and friends); with neither, a 400.
 */
export const ResearchLlm = T.Object(
  {
    provider: LlmProviderField,
    apiKey: T.Optional(LlmApiKeyField),
    model: T.Optional(LlmModelField),
    apiBase: T.Optional(LlmApiBaseField),
  },
  {
    additionalProperties: false,
    description:
      "Your own LLM: provider (openai, anthropic, google), apiKey (used for this request only, never stored, logged or echoed), model, apiBase (any OpenAI-compatible server). Default: the service's LLM, when the operator configured one",
  },
);
export type ResearchLlmInput = Static<typeof ResearchLlm>;

const searchFields = {
  searchProvider: SearchProviderField,
  searchApiKey: SearchApiKeyField,
};

/** POST /v1/research's body, and `siphon research`'s flags. */
export const ResearchBody = T.Object(
  {
    query: T.String({
      minLength: 1,
      maxLength: MAX_QUESTION_CHARS,
      description: `The research question, at most ${MAX_QUESTION_CHARS} characters`,
    }),
    depth: StringEnum([...RESEARCH_DEPTHS], {
      default: "quick",
      description: `quick: one search, its top maxSources pages (at most ${MAX_QUICK_SOURCES}), one report; deep: the deep-research loop (sub-questions, ${DEFAULT_ROUNDS} rounds at most, gap checks)`,
    }),
    maxSources: T.Integer({
      minimum: 1,
      maximum: MAX_RESEARCH_SOURCES,
      default: 5,
      description: `Most pages fetched: 1 to ${MAX_QUICK_SOURCES} for quick, to ${MAX_RESEARCH_SOURCES} for deep`,
    }),
    llm: T.Optional(ResearchLlm),
    ...searchFields,
  },
  { additionalProperties: false },
);
export type ResearchInput = Static<typeof ResearchBody>;

/** POST /v1/deep-research's body, and `siphon research --deep`'s flags. */
export const DeepResearchBody = T.Object(
  {
    question: T.String({
      minLength: 1,
      maxLength: MAX_QUESTION_CHARS,
      description: `The research question, at most ${MAX_QUESTION_CHARS} characters`,
    }),
    llm: T.Optional(ResearchLlm),
    maxRounds: T.Integer({
      minimum: 1,
      maximum: MAX_ROUNDS,
      default: DEFAULT_ROUNDS,
      description: `Search rounds at most, 1 to ${MAX_ROUNDS}: the first searches the sub-questions, each further one what the gap check found missing`,
    }),
    maxSources: T.Integer({
      minimum: MIN_DEEP_SOURCES,
      maximum: MAX_RESEARCH_SOURCES,
      default: DEFAULT_DEEP_SOURCES,
      description: `Most pages fetched over all rounds, ${MIN_DEEP_SOURCES} to ${MAX_RESEARCH_SOURCES}`,
    }),
    stream: T.Boolean({
      default: false,
      description: "Answer as server-sent events: progress events, chunk events with the report, then done",
    }),
    ...searchFields,
  },
  { additionalProperties: false },
);
export type DeepResearchInput = Static<typeof DeepResearchBody>;

export const ResearchCitation = T.Object({
  index: T.Integer({ minimum: 1, description: "The n of the [n] markers that cite this page" }),
  title: T.String(),
  url: T.String({ description: "The page as fetched (after redirects)" }),
  snippet: T.String({ description: "The page's passage that ranked best for the question" }),
});
export type ResearchCitation = Static<typeof ResearchCitation>;

const citations = T.Array(ResearchCitation, {
  description:
    "The pages the report cites, by index; every [n] in the report names one, and each was fetched",
});
const sourcesUsed = T.Integer({
  description: "Pages the report was written from (numbered 1 to sourcesUsed)",
});
const roundsCompleted = T.Integer({ description: "Search rounds run (at most maxRounds)" });
const report = T.String({ description: "The report in Markdown, with [n] citation markers" });

/** POST /v1/research's answer. */
export const ResearchResponse = T.Object({
  success: T.Literal(true),
  query: T.String(),
  report,
  citations,
  sourcesUsed,
  tokensUsed: TokensUsed,
  elapsed: T.Integer({ description: "Milliseconds the research took" }),
});
export type ResearchResponse = Static<typeof ResearchResponse>;

/** POST /v1/deep-research's answer without stream. */
export const DeepResearchResponse = T.Object({
  success: T.Literal(true),
  report,
  citations,
  sourcesUsed,
  roundsCompleted,
  tokensUsed: TokensUsed,
});
export type DeepResearchResponse = Static<typeof DeepResearchResponse>;

export const RESEARCH_STAGES = [
  "decomposing",
  "searching",
  "fetching",
  "scoring",
  "gap_check",
  "synthesizing",
] as const;
export type ResearchStage = (typeof RESEARCH_STAGES)[number];

/** A step of the research as it happens; `type` is the stage. */
export const ResearchProgressEvent = T.Object({
  type: StringEnum([...RESEARCH_STAGES]),
  message: T.String({ description: "What the step does or found, for a person to read" }),
  round: T.Integer({ minimum: 1, description: "The search round it belongs to" }),
});
export type ResearchProgress = Static<typeof ResearchProgressEvent>;

export const DeepResearchDoneEvent = T.Object({
  type: T.Literal("done"),
  citations,
  sourcesUsed,
  roundsCompleted,
  tokensUsed: TokensUsed,
});

/** Server-sent events of POST /v1/deep-research with stream=true (each one `data: <json>`). */
export type DeepResearchEvent =
  | ResearchProgress
  | Static<typeof AnswerChunkEvent>
  | Static<typeof DeepResearchDoneEvent>
  | Static<typeof AnswerErrorEvent>;
export { AnswerChunkEvent as ResearchChunkEvent, AnswerErrorEvent as ResearchErrorEvent };

import { type Static, Type as T } from "@sinclair/typebox";
import { TokensUsed } from "./answer.ts";
import { StringEnum } from "./common.ts";
import { Webhook } from "./jobs.ts";
import { LlmApiBaseField, LlmApiKeyField, LlmModelField, LlmProviderField } from "./llm.ts";

export const AGENT_DEPTHS = ["basic", "thorough"] as const;
export const AGENT_TOPICS = ["general", "news", "technical", "academic"] as const;
export const MAX_PROMPT_CHARS = 4000;

const JsonSchemaObject = T.Object(
  {},
  {
    additionalProperties: true,
    description: "A JSON Schema (draft 2020-12 or 07) the final answer must match; checked with ajv",
  },
);

/** The fields of POST /v1/agent, its async start (plus webhook) and `siphon agent`'s flags. */
const agentFields = {
  prompt: T.String({
    minLength: 1,
    maxLength: MAX_PROMPT_CHARS,
    description: `The research task, at most ${MAX_PROMPT_CHARS} characters`,
  }),
  llmApiKey: LlmApiKeyField,
  llmModel: T.Optional(LlmModelField),
  llmApiBase: T.Optional(LlmApiBaseField),
  llmProvider: T.Optional(LlmProviderField),
  urls: T.Optional(
    T.Array(T.String({ minLength: 1, maxLength: 2048 }), {
      minItems: 1,
      maxItems: 20,
      description: "Pages to start from instead of searching the web",
    }),
  ),
  depth: StringEnum([...AGENT_DEPTHS], {
    default: "basic",
    description:
      "basic: 1 query, about 3 sources; thorough: several queries, about 10 sources, a gap-analysis round",
  }),
  topic: StringEnum([...AGENT_TOPICS], {
    default: "general",
    description: "Steers the queries and the sources preferred",
  }),
  maxSources: T.Optional(
    T.Integer({
      minimum: 1,
      maximum: 20,
      description: "Most pages read, 1 to 20; default: the depth's own (basic 3, thorough 10)",
    }),
  ),
  maxCredits: T.Optional(
    T.Integer({ minimum: 1, description: "Spending cap: fetching stops when this many credits are used" }),
  ),
  outputSchema: T.Optional(JsonSchemaObject),
  schema: T.Optional(
    T.Object({}, { additionalProperties: true, description: "Legacy alias of outputSchema" }),
  ),
  searchProvider: T.Optional(StringEnum(["duckduckgo", "brave", "searxng"])),
  searchApiKey: T.Optional(T.String({ maxLength: 512, pattern: "^[\\x21-\\x7E]+$" })),
  stream: T.Boolean({ default: false, description: "Stream step, chunk and done events (SSE)" }),
};

export const AgentBody = T.Object(agentFields, { additionalProperties: false });
export type AgentInput = Static<typeof AgentBody>;

/** POST /v1/agent/async: the same body plus an optional webhook; stream does not apply. */
export const AgentAsyncBody = T.Object(
  { ...agentFields, webhook: T.Optional(Webhook) },
  { additionalProperties: false },
);
export type AgentAsyncInput = Static<typeof AgentAsyncBody>;

export const SourceDetail = T.Object({ url: T.String(), title: T.String() });

/** SPEC's Agent response (synchronous). */
export const AgentResponse = T.Object({
  success: T.Literal(true),
  data: T.Unsafe<Record<string, unknown>>({
    type: "object",
    description: "{answer, keyFindings} or, with outputSchema, an object that matches it",
  }),
  answer: T.String({ description: "The answer, with [n] citation markers into sources" }),
  sources: T.Array(T.String(), { description: "URLs of the pages read, in citation order" }),
  sourcesDetailed: T.Array(SourceDetail),
  pagesVisited: T.Integer({ description: "Pages fetched (cache hits included)" }),
  creditsUsed: T.Integer({ description: "Credits charged: 1 per page fetched from its site" }),
  tokensUsed: TokensUsed,
  warning: T.Optional(T.String({ description: "Set when the answer was cut short (maxCredits reached)" })),
});
export type AgentResponse = Static<typeof AgentResponse>;

/** The agent's SSE events (SPEC Events). */
export const AgentStepEvent = T.Object({
  type: T.Literal("step"),
  action: StringEnum(["searching", "fetching", "analyzing"]),
  query: T.Optional(T.String()),
  url: T.Optional(T.String()),
  summary: T.Optional(T.String()),
});
export const AgentChunkEvent = T.Object({ type: T.Literal("chunk"), text: T.String() });
export const AgentDoneEvent = T.Object({
  type: T.Literal("done"),
  answer: T.String(),
  sources: T.Array(T.String()),
  tokensUsed: TokensUsed,
  data: T.Optional(T.Unsafe<Record<string, unknown>>({ type: "object" })),
  sourcesDetailed: T.Optional(T.Array(SourceDetail)),
  pagesVisited: T.Optional(T.Integer()),
  creditsUsed: T.Optional(T.Integer()),
});
export const AgentErrorEvent = T.Object({
  type: T.Literal("error"),
  error: T.Object({ type: T.String(), message: T.String() }),
});
export type AgentEvent =
  | Static<typeof AgentStepEvent>
  | Static<typeof AgentChunkEvent>
  | Static<typeof AgentDoneEvent>
  | Static<typeof AgentErrorEvent>;

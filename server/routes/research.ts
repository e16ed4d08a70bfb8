import { Elysia } from "elysia";
import type { Admission } from "../../src/auth/meter.ts";
import { operationCredits, usedTokens } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { deepResearch, deepResearchStream, type ResearchDeps, research } from "../../src/research/index.ts";
import {
  DeepResearchBody,
  DeepResearchDoneEvent,
  DeepResearchResponse,
  ResearchBody,
  ResearchChunkEvent,
  ResearchErrorEvent,
  ResearchProgressEvent,
  ResearchResponse,
} from "../../src/schemas/research.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered, meteredStream } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import { SEARCH_KEY_HEADER, withSearchKeyHeader } from "../search-key.ts";

const LLM_TEXT =
  "The LLM is the caller's `llm` {provider (openai, anthropic, google), apiKey, model, apiBase} when given " +
  "(apiBase obeys the SSRF rules), else the service's own (SIPHON_LLM_PROVIDER, SIPHON_LLM_API_KEY, " +
  "SIPHON_LLM_MODEL, SIPHON_LLM_BASE_URL); with neither, 400 invalid_request with a hint saying how to give one. " +
  "No key is ever returned or logged. A key or model the vendor refuses is a 400 naming the field " +
  "(llm.apiKey, llm.model); when the service's own LLM fails, the error says so. ";

const researchDescription =
  "Researches a question from the web into a cited Markdown report. depth quick: one search (searchProvider, " +
  "default duckduckgo), the top maxSources results (1-10) fetched in parallel through the fetch pipeline (cache, " +
  "escalation, SSRF), passages ranked by BM25, one report written from the fetched pages, numbered. depth deep: " +
  "the loop of POST /v1/deep-research (3 rounds at most, maxSources up to 30). citations are the pages the " +
  "report cites, each with its [n] as index; sourcesUsed counts the pages it was written from; elapsed is in ms. " +
  LLM_TEXT +
  "Credits: 1 per page fetched from its site (cache hits are free).";

const deepDescription =
  "Multi-step research with a cited report. The question is split into 2-4 sub-questions (the LLM, JSON); " +
  "each is searched, unread results fetched in parallel through the fetch pipeline (never a URL twice, never " +
  "more than maxSources pages in all, each round taking its share), passages ranked by BM25 per query and " +
  "sources scored; a gap check (the LLM, JSON) names what is missing, searched in the next round, up to " +
  "maxRounds; then the report is written from the best sources, numbered, with [n] markers (out-of-range " +
  "markers removed). stream=true answers text/event-stream: `data: {type, message, round}` progress events " +
  'with type decomposing, searching, fetching, scoring, gap_check or synthesizing; `data: {type:"chunk",text}` ' +
  'with the report; then `data: {type:"done",citations,sourcesUsed,roundsCompleted,tokensUsed}`. Failures ' +
  "before the first event (bad input, no LLM, a refused key, the plan's call) are ordinary errors; later ones " +
  'end the stream with `data: {type:"error",error:{type,message}}`. ' +
  LLM_TEXT +
  "Credits: 1 per page fetched from its site (cache hits are free); a stream is charged when it ends, so its " +
  "X-Credits-Used header is absent.";

/** POST /v1/research and POST /v1/deep-research: validate, meter, research. */
export function researchRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  const depsFor = (request: Request, admission: Admission | null): ResearchDeps => ({
    ...deps,
    signal: request.signal,
    httpOnly: admission?.softLimited,
    apiBasePolicy: "guard",
    llmLog: log,
  });

  return new Elysia({ name: "routes:research" })
    .post(
      "/v1/research",
      ({ body, set, request }) => {
        const input = validate(ResearchBody, withSearchKeyHeader(body, request));
        return metered<ResearchResponse>(guard, request, set, "research", async (admission) => {
          const outcome = await research(input, depsFor(request, admission));
          return {
            body: outcome.response,
            credits: operationCredits.reading(outcome.pagesFetched),
            degraded: outcome.degraded,
            tokens: usedTokens(outcome.response.tokensUsed),
          };
        });
      },
      {
        detail: {
          summary: "Research a question into a cited report (search, fetch, compile)",
          description: researchDescription,
          parameters: [SEARCH_KEY_HEADER],
          requestBody: jsonRequestBody(ResearchBody),
          responses: responses(ResearchResponse, [400, 401, 429, 500, 502, 504]),
        } as never,
      },
    )
    .post(
      "/v1/deep-research",
      ({ body, set, request }) => {
        const input = validate(DeepResearchBody, withSearchKeyHeader(body, request));
        if (!input.stream) {
          return metered<DeepResearchResponse>(guard, request, set, "deep-research", async (admission) => {
            const outcome = await deepResearch(input, depsFor(request, admission));
            return {
              body: outcome.response,
              credits: operationCredits.reading(outcome.pagesFetched),
              degraded: outcome.degraded,
              tokens: usedTokens(outcome.response.tokensUsed),
            };
          });
        }
        return meteredStream(guard, request, set, "deep-research", async (admission) => {
          const outcome = await deepResearchStream(input, depsFor(request, admission));
          return {
            events: outcome.events,
            credits: () => operationCredits.reading(outcome.pagesFetched()),
            tokens: () => outcome.tokensUsed(),
          };
        });
      },
      {
        detail: {
          summary:
            "Deep research: sub-questions, rounds of search and gap checks, a cited report (JSON or SSE)",
          description: deepDescription,
          parameters: [SEARCH_KEY_HEADER],
          requestBody: jsonRequestBody(DeepResearchBody),
          responses: {
            ...responses(DeepResearchResponse, [400, 401, 429, 500, 502, 504]),
            200: {
              description: "The report (JSON), or with stream=true server-sent events",
              content: {
                "application/json": { schema: DeepResearchResponse },
                "text/event-stream": {
                  schema: {
                    oneOf: [
                      ResearchProgressEvent,
                      ResearchChunkEvent,
                      DeepResearchDoneEvent,
                      ResearchErrorEvent,
                    ],
                  },
                },
              },
            },
          },
        } as never,
      },
    );
}

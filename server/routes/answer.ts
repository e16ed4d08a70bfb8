import { Elysia } from "elysia";
import { answer, answerStream } from "../../src/answer/index.ts";
import type { Admission } from "../../src/auth/meter.ts";
import { operationCredits, usedTokens } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import {
  AnswerBody,
  AnswerChunkEvent,
  AnswerDoneEvent,
  AnswerErrorEvent,
  AnswerResponse,
} from "../../src/schemas/answer.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered, meteredStream } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import { SEARCH_KEY_HEADER, withSearchKeyHeader } from "../search-key.ts";

const description =
  "Answers a question from the web with numbered citations. Searches (searchProvider, default duckduckgo), " +
  "fetches the top maxSources results in parallel through the fetch pipeline (cache, escalation, SSRF), " +
  "splits the pages into passages, ranks them for the question with BM25 and asks the LLM " +
  "(llmProvider openai, anthropic or google with the caller's llmApiKey; llmApiBase for any " +
  "OpenAI-compatible server) to answer from them with [n] markers. citations are the sources the model " +
  "was given, in number order; a marker naming no source is removed. stream=true answers " +
  'text/event-stream: `data: {type:"chunk",text}` events, then one `data: {type:"done",citations,' +
  "searchProvider,llmProvider,llmModel,tokensUsed}`; a failure after the stream began ends it with " +
  '`data: {type:"error",error:{type,message}}`. Failures before the first event are ordinary errors: 400 ' +
  "for a refused key or unknown model (the vendor's reason, never the key), 429 when the vendor " +
  "rate-limits, 500 search_failed or answer_failed. Credits: 1 per page fetched (cache hits are free).";

/** POST /v1/answer: validate, meter, and answer as JSON or as server-sent events. */
export function answerRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return new Elysia({ name: "routes:answer" }).post(
    "/v1/answer",
    ({ body, set, request }) => {
      const input = validate(AnswerBody, withSearchKeyHeader(body, request));
      const answerDeps = (admission: Admission | null) => ({
        ...deps,
        signal: request.signal,
        httpOnly: admission?.softLimited,
        llmLog: log,
      });
      if (input.stream) {
        // Settled when the stream ends, so the request log holds the model's tokens.
        return meteredStream(guard, request, set, "answer", async (admission) => {
          const outcome = await answerStream(input, answerDeps(admission));
          const credits = operationCredits.reading(outcome.pagesFetched);
          return {
            events: outcome.events,
            credits: () => credits,
            creditsUpfront: credits,
            tokens: outcome.tokens,
            degraded: outcome.degraded,
          };
        });
      }
      return metered<AnswerResponse>(guard, request, set, "answer", async (admission) => {
        const outcome = await answer(input, answerDeps(admission));
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
        summary: "Answer a question from the web, with citations (JSON or server-sent events)",
        description,
        parameters: [SEARCH_KEY_HEADER],
        requestBody: jsonRequestBody(AnswerBody),
        responses: {
          ...responses(AnswerResponse, [400, 401, 429, 500]),
          200: {
            description: "The answer (JSON), or with stream=true server-sent events",
            content: {
              "application/json": { schema: AnswerResponse },
              "text/event-stream": {
                schema: { oneOf: [AnswerChunkEvent, AnswerDoneEvent, AnswerErrorEvent] },
              },
            },
          },
        },
      } as never,
    },
  );
}

import { Elysia } from "elysia";
import { runAgent } from "../../src/agent/index.ts";
import type { Admission } from "../../src/auth/meter.ts";
import { toSiphonError } from "../../src/errors.ts";
import { checkJsonSchema } from "../../src/llm/index.ts";
import { operationCredits, usedTokens } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import {
  AgentBody,
  AgentChunkEvent,
  AgentDoneEvent,
  AgentErrorEvent,
  type AgentEvent,
  AgentResponse,
  AgentStepEvent,
} from "../../src/schemas/agent.ts";
import { validate } from "../../src/schemas/validate.ts";
import { EventQueue } from "../event-queue.ts";
import { type Guard, metered, meteredStream } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import { SEARCH_KEY_HEADER, withSearchKeyHeader } from "../search-key.ts";

const description =
  "Runs a research agent: the model (any OpenAI-compatible API: llmApiKey, llmModel, llmApiBase; or " +
  "llmProvider anthropic/google) searches the web and reads pages with tool calls (search_web, fetch_page, " +
  "finish) within the depth's limits (basic: 1 search, 3 pages; thorough: 4 searches, 10 pages and a " +
  "gap-analysis round), then writes an answer with [n] citations and key findings, or JSON matching " +
  "outputSchema (validated with ajv, repaired up to twice). A model or server without tool calling gets " +
  "a fixed plan instead (search the task, read the top results, answer). urls start from those pages " +
  "instead of searching. maxCredits stops fetching at the cap and the answer says it was cut short. " +
  'stream=true answers text/event-stream: step events {type:"step",action:searching|fetching|analyzing,' +
  "query|url|summary}, chunk events with the answer's text, then done; a failure after the first event " +
  "ends the stream with an error event. Credits: 1 per page fetched from its site.";

/** POST /v1/agent: validate, meter, and run the agent as JSON or as server-sent events. */
export function agentRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return new Elysia({ name: "routes:agent" }).post(
    "/v1/agent",
    async ({ body, set, request }) => {
      const input = validate(AgentBody, withSearchKeyHeader(body, request));
      const schema = input.outputSchema ?? input.schema;
      if (schema) await checkJsonSchema(schema);
      const depsFor = (admission: Admission | null) => ({
        ...deps,
        signal: request.signal,
        httpOnly: admission?.softLimited,
        llmLog: log,
      });
      if (!input.stream) {
        return metered<AgentResponse>(guard, request, set, "agent", async (admission) => {
          const outcome = await runAgent(input, depsFor(admission));
          return {
            body: outcome.response,
            credits: operationCredits.reading(outcome.pagesFetched),
            degraded: outcome.degraded,
            tokens: usedTokens(outcome.response.tokensUsed),
          };
        });
      }
      // Pages are fetched while the answer streams: the request is settled with them when it ends.
      return meteredStream(guard, request, set, "agent", async (admission) => {
        const queue = new EventQueue<AgentEvent>();
        let failure: unknown;
        const run = runAgent(input, { ...depsFor(admission), onEvent: (event) => queue.push(event) });
        run.then(
          () => queue.end(),
          (raw) => {
            failure = toSiphonError(raw);
            queue.fail(failure);
          },
        );
        // A failure before the first event (a refused key, a failed first search) is a plain HTTP error.
        const started = await queue.first.then(
          () => true,
          () => false,
        );
        if (!started) throw failure;
        // A run that failed charges nothing; one whose client left ends soon (its signal) and charges what it fetched.
        const credits = () =>
          run.then(
            (outcome) => operationCredits.reading(outcome.pagesFetched),
            () => 0,
          );
        const tokens = () =>
          run.then(
            (outcome) => usedTokens(outcome.response.tokensUsed),
            () => 0,
          );
        return { events: withErrorEvent(queue), credits, tokens };
      });
    },
    {
      detail: {
        summary: "Run the research agent (JSON or server-sent events)",
        description,
        parameters: [SEARCH_KEY_HEADER],
        requestBody: jsonRequestBody(AgentBody),
        responses: {
          ...responses(AgentResponse, [400, 401, 429, 500]),
          200: {
            description: "The agent's answer (JSON), or with stream=true server-sent events",
            content: {
              "application/json": { schema: AgentResponse },
              "text/event-stream": {
                schema: { oneOf: [AgentStepEvent, AgentChunkEvent, AgentDoneEvent, AgentErrorEvent] },
              },
            },
          },
        },
      } as never,
    },
  );
}

/** The queue's events, and its failure as a last error event. */
async function* withErrorEvent(queue: EventQueue<AgentEvent>): AsyncGenerator<AgentEvent> {
  try {
    for await (const event of queue) yield event;
  } catch (raw) {
    const error = toSiphonError(raw);
    yield { type: "error", error: { type: error.type, message: error.message } };
  }
}

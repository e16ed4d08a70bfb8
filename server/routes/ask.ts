import { Elysia } from "elysia";
import { ask } from "../../src/ask/index.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { AskBody, AskQuery, AskResponse, askInputFromQuery } from "../../src/schemas/ask.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";
import { SEARCH_KEY_HEADER, withSearchKeyHeader } from "../search-key.ts";

type SetHeaders = Record<string, string | number>;

const description =
  "Answers a question from the web without a language model. Searches (provider, default duckduckgo), " +
  "fetches the top `sources` results (1 to 5, default 3) in parallel through the fetch pipeline (cache, " +
  "escalation, SSRF), splits the pages into passages and ranks them by BM25, weighted by the site's " +
  "authority (official, institutional, major, general: a documented table of hosts plus .gov, .edu and " +
  "their country forms) and the page's freshness (its published date: recent, this-month, this-year, " +
  "older). answer is the best passage as written, or null with confidence 0 when no passage has the " +
  "question's words; confidence is the share of the question's terms the answer has, times how clearly it " +
  "beats the next different passage (docs/search-and-answers.md, Ask). sources are the fetched pages, best first, each with " +
  "its best passage as snippet. Credits: 1 per search plus 1 per page fetched from its site (cache hits " +
  "are free). A provider that fails is a 500 search_failed saying so.";

/** Validates, meters (1 credit for the search, 1 per page fetched) and asks. */
function run(raw: unknown, deps: FetchDeps, guard: Guard, request: Request, set: { headers: SetHeaders }) {
  const input = validate(AskBody, withSearchKeyHeader(raw, request));
  return metered(guard, request, set, "ask", async (admission) => {
    const outcome = await ask(input, { ...deps, signal: request.signal, httpOnly: admission?.softLimited });
    set.headers["x-search-provider"] = outcome.provider;
    return {
      body: outcome.response,
      credits: operationCredits.search(outcome.pagesFetched),
      degraded: outcome.degraded,
    };
  });
}

/** GET and POST /v1/ask: translate the query or body (and the key header), meter, call the core. */
export function askRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:ask" })
    .get(
      "/v1/ask",
      ({ query, set, request }) =>
        run(askInputFromQuery(query as Record<string, unknown>), deps, guard, request, set),
      {
        detail: {
          summary: "Answer a question with the best passage from the web, no LLM (query parameters)",
          description,
          parameters: [...queryParameters(AskQuery), SEARCH_KEY_HEADER],
          responses: responses(AskResponse, [400, 401, 429, 500]),
        } as never,
      },
    )
    .post("/v1/ask", ({ body, set, request }) => run(body, deps, guard, request, set), {
      detail: {
        summary: "Answer a question with the best passage from the web, no LLM (JSON body)",
        description,
        parameters: [SEARCH_KEY_HEADER],
        requestBody: jsonRequestBody(AskBody),
        responses: responses(AskResponse, [400, 401, 429, 500]),
      } as never,
    });
}

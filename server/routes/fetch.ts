import { Elysia } from "elysia";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { FetchBody, FetchQuery, FetchResult, fetchInputFromQuery } from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import { fetchAndExtract } from "../../src/structured/inline.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";

type SetHeaders = Record<string, string | number>;

function run(
  input: unknown,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: { headers: SetHeaders },
  log?: (line: string) => void,
) {
  const body = validate(FetchBody, input);
  return metered(guard, request, set, "fetch", async (admission) => {
    const outcome = await fetchAndExtract(body, {
      ...deps,
      signal: request.signal,
      httpOnly: admission?.softLimited,
      llmLog: log,
    });
    set.headers["x-cache"] = outcome.cache.hit ? "HIT" : "MISS";
    if (outcome.cache.hit) set.headers["x-cache-age"] = String(outcome.cache.ageSeconds ?? 0);
    set.headers["x-fetch-type"] = outcome.result.method === "stealth" ? "stealth" : "basic";
    // A cached answer fetched no page, so it costs no credit.
    return { body: outcome.result, credits: outcome.cache.hit ? 0 : 1, degraded: outcome.degraded };
  });
}

const description =
  "Fetches a URL and returns its content as markdown, text or cleaned HTML with metadata, links, " +
  "a token estimate and a fingerprint. Answers are cached (X-Cache: HIT|MISS) for maxAge ms; a cache hit " +
  "costs no credit. Over the weekly quota the fetch runs HTTP-only (X-Soft-Limited, X-Degraded). " +
  "POST with `extract` (schema and/or prompt with llmProvider and llmApiKey; a schema alone uses the " +
  'page\'s structured data, no LLM; or selectors) or a formats entry {type:"json",schema,prompt} adds ' +
  "json (and extractTokensUsed on the LLM path); see POST /v1/extract for the rules.";

/** GET and POST /v1/fetch: translate the request, meter it, call the core, set cache headers. */
export function fetchRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return new Elysia({ name: "routes:fetch" })
    .get(
      "/v1/fetch",
      ({ query, set, request }) =>
        run(fetchInputFromQuery(query as Record<string, unknown>), deps, guard, request, set, log),
      {
        detail: {
          summary: "Fetch a URL (query parameters)",
          description,
          parameters: queryParameters(FetchQuery),
          responses: responses(FetchResult),
        } as never,
      },
    )
    .post("/v1/fetch", ({ body, set, request }) => run(body, deps, guard, request, set, log), {
      detail: {
        summary: "Fetch a URL (JSON body)",
        description,
        requestBody: jsonRequestBody(FetchBody),
        responses: responses(FetchResult),
      } as never,
    });
}

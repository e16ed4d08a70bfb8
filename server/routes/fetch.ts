import { Elysia } from "elysia";
import { type FetchDeps, fetchPage } from "../../src/pipeline/fetch-page.ts";
import { FetchBody, FetchQuery, FetchResult, fetchInputFromQuery } from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";

type Headers = Record<string, string | number>;

async function run(input: unknown, deps: FetchDeps, headers: Headers, signal: AbortSignal) {
  const { result, cache, degraded } = await fetchPage(validate(FetchBody, input), { ...deps, signal });
  headers["x-cache"] = cache.hit ? "HIT" : "MISS";
  if (degraded) headers["x-degraded"] = degraded;
  if (cache.hit) headers["x-cache-age"] = String(cache.ageSeconds ?? 0);
  headers["x-fetch-type"] = result.method === "stealth" ? "stealth" : "basic";
  return result;
}

const description =
  "Fetches a URL and returns its content as markdown, text or cleaned HTML with metadata, links, " +
  "a token estimate and a fingerprint. Answers are cached (X-Cache: HIT|MISS) for maxAge ms.";

/** GET and POST /v1/fetch: translate the request, call the core, set cache headers. */
export function fetchRoutes(deps: FetchDeps) {
  return new Elysia({ name: "routes:fetch" })
    .get(
      "/v1/fetch",
      ({ query, set, request }) =>
        run(
          fetchInputFromQuery(query as Record<string, unknown>),
          deps,
          set.headers as Headers,
          request.signal,
        ),
      {
        detail: {
          summary: "Fetch a URL (query parameters)",
          description,
          parameters: queryParameters(FetchQuery),
          responses: responses(FetchResult),
        } as never,
      },
    )
    .post("/v1/fetch", ({ body, set, request }) => run(body, deps, set.headers as Headers, request.signal), {
      detail: {
        summary: "Fetch a URL (JSON body)",
        description,
        requestBody: jsonRequestBody(FetchBody),
        responses: responses(FetchResult),
      } as never,
    });
}

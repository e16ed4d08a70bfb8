import { Elysia } from "elysia";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { scrape } from "../../src/pipeline/scrape.ts";
import {
  FetchBody,
  type FetchInput,
  FetchQuery,
  FetchResult,
  fetchInputFromQuery,
} from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered } from "../guard.ts";
import { templatedJson } from "../json-text.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";
import { queryInput } from "../query-input.ts";

type SetHeaders = Record<string, string | number>;

function run(
  body: FetchInput,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: { headers: SetHeaders },
  log?: (line: string) => void,
) {
  return metered(guard, request, set, "fetch", async (admission) => {
    const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
    const outcome = await scrape(
      { fetch: body, accountId },
      { ...deps, signal: request.signal, httpOnly: admission?.softLimited, llmLog: log },
    );
    set.headers["x-cache"] = outcome.cache.hit ? "HIT" : "MISS";
    if (outcome.cache.hit) set.headers["x-cache-age"] = String(outcome.cache.ageSeconds ?? 0);
    set.headers["x-fetch-type"] = outcome.result.method === "stealth" ? "stealth" : "basic";
    const result = outcome.result as unknown as Record<string, unknown>;
    // A cached page answers the same fields each time but `elapsed`: its JSON is kept.
    const answer = templatedJson(result, "elapsed", outcome.result.links);
    return { body: answer, credits: outcome.credits, degraded: outcome.degraded, tokens: outcome.tokens };
  });
}

const description =
  "Fetches a URL and returns its content as markdown, text or cleaned HTML with metadata, links, " +
  "a token estimate and a fingerprint; `formats` adds rawHtml, images, a screenshot, a summary, the " +
  "page's branding and change tracking against your previous scrape, all from one fetch. Answers are " +
  "cached (X-Cache: HIT|MISS) for maxAge ms. Credits (X-Credits-Used): 1 when the page is fetched, none " +
  "for a cache hit (docs/accounts.md: Weekly quota). Over the weekly quota the fetch runs HTTP-only " +
  "(X-Soft-Limited, X-Degraded). POST with `extract` (schema and/or prompt with llmProvider and " +
  "llmApiKey; a schema alone uses the page's structured data, no LLM; or selectors) or a formats entry " +
  '{type:"json",schema,prompt} adds json (and extractTokensUsed on the LLM path); see POST /v1/extract ' +
  "for the rules. `timeout` bounds the whole request (504 past it).";

/** GET and POST /v1/fetch: translate the request, meter it, call the core, set cache headers. */
export function fetchRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  const fromQuery = queryInput((query) => validate(FetchBody, fetchInputFromQuery(query)));
  return new Elysia({ name: "routes:fetch" })
    .get(
      "/v1/fetch",
      // The query is read from the URL here (not Elysia's `query`): a repeated one is not parsed again.
      ({ set, request }) => run(fromQuery(request.url), deps, guard, request, set, log),
      {
        detail: {
          summary: "Fetch a URL (query parameters)",
          description,
          parameters: queryParameters(FetchQuery),
          responses: responses(FetchResult),
        } as never,
      },
    )
    .post(
      "/v1/fetch",
      ({ body, set, request }) => run(validate(FetchBody, body), deps, guard, request, set, log),
      {
        detail: {
          summary: "Fetch a URL (JSON body)",
          description,
          requestBody: jsonRequestBody(FetchBody),
          responses: responses(FetchResult),
        } as never,
      },
    );
}

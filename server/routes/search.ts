import { Elysia } from "elysia";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { SearchBody, SearchQuery, SearchResponse, searchInputFromQuery } from "../../src/schemas/search.ts";
import { validate } from "../../src/schemas/validate.ts";
import { search } from "../../src/search/index.ts";
import { type Guard, metered } from "../guard.ts";
import { queryParameters, responses } from "../openapi.ts";
import { SEARCH_KEY_HEADER } from "../search-key.ts";

const description =
  "Searches the web with duckduckgo (default, no key), brave (the caller's key in the x-search-api-key " +
  "header or searchApiKey, else the operator's) or searxng (a self-hosted instance). sources adds news " +
  "and images from the provider's own news and image search (duckduckgo has none: 400). categories, tbs, " +
  "country and location become the provider's own operators and parameters (see docs/search-and-answers.md, Search). " +
  "scrapeResults fetches every web result in parallel through the fetch pipeline (cache, escalation, " +
  "SSRF) and adds its markdown as content; a page that fails gets content: null and an error, and the " +
  "search still succeeds. Credits: 1 per search plus 1 per result page fetched (cache hits are free). " +
  "A provider that fails, rate-limits or answers with a captcha is a 500 search_failed saying so.";

/** GET /v1/search: translate the query (and the key header), meter it, call the core. */
export function searchRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:search" }).get(
    "/v1/search",
    ({ query, set, request }) => {
      const raw = searchInputFromQuery(query as Record<string, unknown>);
      // The header keeps the key out of URLs (and so out of access logs); the parameter wins when both are given.
      const header = request.headers.get("x-search-api-key");
      if (raw.searchApiKey === undefined && header) raw.searchApiKey = header;
      const input = validate(SearchBody, raw);
      return metered(guard, request, set, "search", async (admission) => {
        const outcome = await search(input, {
          ...deps,
          signal: request.signal,
          httpOnly: admission?.softLimited,
        });
        set.headers["x-fetch-type"] = "search";
        set.headers["x-search-provider"] = outcome.provider;
        return {
          body: outcome.response,
          credits: operationCredits.search(outcome.pagesFetched),
          degraded: outcome.degraded,
        };
      });
    },
    {
      detail: {
        summary: "Search the web",
        description,
        parameters: [...queryParameters(SearchQuery), SEARCH_KEY_HEADER],
        responses: responses(SearchResponse, [400, 401, 429, 500]),
      } as never,
    },
  );
}

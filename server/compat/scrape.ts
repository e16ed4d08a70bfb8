import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { scrape as scrapeOne } from "../../src/pipeline/scrape.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { compatMetered, compatPlugin, readFirecrawlBody } from "./http.ts";
import { ScrapeBody, scrapeFields } from "./scrape-body.ts";
import { toDocument, toScrapeRequest } from "./scrape-map.ts";

type SetHeaders = Record<string, string | number>;

async function scrape(
  version: 1 | 2,
  raw: unknown,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: { headers: SetHeaders },
  log?: (line: string) => void,
) {
  const body = validate(ScrapeBody, readFirecrawlBody(raw, scrapeFields(version)));
  return compatMetered(guard, request, set, "scrape", async (admission) => {
    const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
    const { request: scrapeRequest, asked } = toScrapeRequest(body, version, accountId);
    const outcome = await scrapeOne(scrapeRequest, {
      ...deps,
      signal: request.signal,
      httpOnly: admission?.softLimited,
      apiBasePolicy: "guard",
      llmLog: log,
    });
    set.headers["x-cache"] = outcome.cache.hit ? "HIT" : "MISS";
    if (outcome.cache.hit) set.headers["x-cache-age"] = String(outcome.cache.ageSeconds ?? 0);
    set.headers["x-fetch-type"] = outcome.result.method === "stealth" ? "stealth" : "basic";
    const { credits } = outcome;
    const scrapeId = String(set.headers["x-request-id"] ?? crypto.randomUUID());
    // Firecrawl's scrape interaction continues a scrape by its id: its page and what shaped it.
    deps.engines.sessions?.rememberScrape(scrapeId, {
      accountId,
      url: outcome.result.url,
      stealth: scrapeRequest.fetch.stealth,
      actions: scrapeRequest.fetch.actions,
    });
    const data = toDocument(outcome, asked, {
      sourceURL: body.url,
      scrapeId,
      creditsUsed: credits,
      now: (deps.now ?? Date.now)(),
    });
    return {
      body: { success: true as const, data },
      credits,
      degraded: outcome.degraded,
      tokens: outcome.tokens,
    };
  });
}

const description = (version: 1 | 2) =>
  `Firecrawl's ${version === 1 ? "v1" : "v2"} scrape: ${
    version === 1
      ? "formats as strings (screenshot@fullPage, extract with `extract`, json with `jsonOptions`, changeTracking with `changeTrackingOptions`)"
      : 'formats as strings or objects ({"type":"json","schema","prompt"}, {"type":"screenshot","fullPage","quality","viewport"}, {"type":"changeTracking","modes":["git-diff"],"tag"})'
  }; answers {success: true, data: {markdown?, html?, rawHtml?, links?, images?, screenshot?, json?, summary?, branding?, changeTracking?, metadata}}. onlyMainContent defaults to true; json and summary use the caller's LLM (llmProvider, llmApiKey) or the operator's (SIPHON_LLM_*), summary without either is extractive. Errors are Firecrawl's {success: false, error, code, details?}: 400, 401, 403, 404, 408 past timeout, 429, 500. Credits as for every page (docs/accounts.md: Weekly quota): 1 when the page is fetched, none for a cache hit. See docs/firecrawl.md.`;

/** POST /v1/scrape and POST /v2/scrape: Firecrawl's request and answer shapes over siphon's scrape. */
export function scrapeRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return compatPlugin("compat:scrape")
    .post("/v1/scrape", ({ body, set, request }) => scrape(1, body, deps, guard, request, set, log), {
      detail: {
        summary: "Scrape a URL (Firecrawl v1)",
        description: description(1),
        requestBody: jsonRequestBody(ScrapeBody),
      } as never,
    })
    .post("/v2/scrape", ({ body, set, request }) => scrape(2, body, deps, guard, request, set, log), {
      detail: {
        summary: "Scrape a URL (Firecrawl v2)",
        description: description(2),
        requestBody: jsonRequestBody(ScrapeBody),
      } as never,
    });
}

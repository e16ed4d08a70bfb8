import { type Static, Type as T } from "@sinclair/typebox";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import {
  SEARCH_SOURCES,
  SearchBody,
  type SearchCategory,
  type SearchInput,
  type SearchSource,
} from "../../src/schemas/search.ts";
import { validate } from "../../src/schemas/validate.ts";
import { search } from "../../src/search/index.ts";
import { resolveRegion } from "../../src/search/regions.ts";
import { scrapeHits } from "../../src/search/scrape.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { within } from "./deadline.ts";
import { type BodyFields, compatMetered, compatPlugin, offOnly, readFirecrawlBody } from "./http.ts";
import { pageOptions } from "./page-options.ts";
import { toDocument } from "./scrape-map.ts";

const Entry = T.Union([
  T.String({ maxLength: 50 }),
  T.Object({ type: T.String({ maxLength: 50 }) }, { additionalProperties: true }),
]);

/** POST /v1/search and POST /v2/search. */
export const FirecrawlSearchBody = T.Object(
  {
    query: T.String({ minLength: 1, maxLength: 500 }),
    limit: T.Optional(
      T.Integer({
        minimum: 1,
        maximum: 100,
        description: "Results per source (default 5; siphon returns at most 10)",
      }),
    ),
    sources: T.Optional(
      T.Array(Entry, { maxItems: 10, description: 'web (default), news, images, as strings or {"type"}' }),
    ),
    categories: T.Optional(T.Array(Entry, { maxItems: 10, description: "github, pdf" })),
    tbs: T.Optional(T.String({ maxLength: 200, description: "qdr:d, qdr:w, qdr:m or qdr:y" })),
    location: T.Optional(
      T.String({ maxLength: 200, description: 'A place ending with its country: "Berlin, Germany"' }),
    ),
    country: T.Optional(T.String({ maxLength: 10, description: "ISO country code" })),
    includeDomains: SearchBody.properties.includeDomains,
    excludeDomains: SearchBody.properties.excludeDomains,
    lang: T.Optional(T.String({ maxLength: 10, description: "v1's language, with country" })),
    timeout: T.Optional(T.Integer({ minimum: 1000, maximum: 300_000, description: "ms; past it: 408" })),
    scrapeOptions: T.Optional(
      T.Object(
        {},
        { additionalProperties: true, description: "Scrape every web result: POST /v2/scrape's body" },
      ),
    ),
    domainTools: T.Optional(
      T.Boolean({ description: "Alexandria's tools: refused as Firecrawl refuses a team without them" }),
    ),
  },
  { additionalProperties: false },
);
type FirecrawlSearchBody = Static<typeof FirecrawlSearchBody>;

const emptyOrAbsent = (value: unknown) =>
  value === undefined || value === null || (Array.isArray(value) && value.length === 0);

const SEARCH_FIELDS: BodyFields = {
  accepted: Object.keys(FirecrawlSearchBody.properties),
  // Results are siphon's own; toolDetail is Alexandria's.
  ignored: ["ignoreInvalidURLs", "toolDetail"],
  unsupported: {
    highlights: offOnly,
    filter: (value) => value === undefined || value === null || value === "",
    enterprise: emptyOrAbsent,
    threatProtection: (value) => value === undefined || value === null,
  },
};

/** Firecrawl's answer to a team without Exchange (Alexandria): Firecrawl's MCP server then searches the web only. */
export const NO_EXCHANGE = "Exchange is not enabled for this team.";

const typeOf = (entry: string | { type: string }) => (typeof entry === "string" ? entry : entry.type);

const notSupported = (what: string, hint: string) =>
  new SiphonError("not_implemented", `${what} is not supported by siphon`, { hint });

const CATEGORIES: Record<string, SearchCategory> = { github: "github", pdf: "pdf" };

/** v1's country and lang as a region siphon reads: "us" and "en" are us-en; a country alone is a location. */
function regionOf(body: FirecrawlSearchBody): { country?: string; location?: string } {
  if (body.location) return { location: body.location };
  const country = body.country?.trim().toLowerCase();
  if (!country) return {};
  const lang = body.lang?.trim().toLowerCase();
  if (lang) {
    try {
      if (resolveRegion(`${country}-${lang}`)?.ddg) return { country: `${country}-${lang}` };
    } catch {
      // Not a pair siphon knows: the country alone.
    }
  }
  return { location: country };
}

/** A Firecrawl search body as siphon's search. Throws invalid_request and not_implemented. */
function toSearch(body: FirecrawlSearchBody, searchApiKey: string | undefined): SearchInput {
  const sources = (body.sources ?? ["web"]).map(typeOf);
  for (const source of sources) {
    if (!(SEARCH_SOURCES as readonly string[]).includes(source)) {
      throw new SiphonError("invalid_request", `sources: unknown source "${source}"`, {
        hint: "siphon's sources: web, news, images.",
      });
    }
  }
  const categories = (body.categories ?? []).map((entry) => {
    const name = typeOf(entry);
    const category = CATEGORIES[name];
    if (!category) throw notSupported(`The ${name} category`, "siphon's Firecrawl categories: github, pdf.");
    return category;
  });
  let tbs: string | undefined;
  if (body.tbs !== undefined && body.tbs !== "") {
    if (!/^qdr:[dwmy]$/.test(body.tbs))
      throw notSupported(`tbs "${body.tbs}"`, "siphon's time filters: qdr:d, qdr:w, qdr:m, qdr:y.");
    tbs = body.tbs;
  }
  return validate(
    SearchBody,
    JSON.parse(
      JSON.stringify({
        q: body.query,
        count: Math.min(body.limit ?? 5, 10),
        sources: [...new Set(sources)] as SearchSource[],
        categories: categories.length ? [...new Set(categories)] : undefined,
        tbs,
        includeDomains: body.includeDomains?.length ? body.includeDomains : undefined,
        excludeDomains: body.excludeDomains?.length ? body.excludeDomains : undefined,
        searchApiKey,
        ...regionOf(body),
      }),
    ),
  );
}

/** Whether to scrape the web results: scrapeOptions given with formats (v1 sends `formats: []` for "no"). */
function scrapeOptionsOf(body: FirecrawlSearchBody, version: 1 | 2) {
  const options = body.scrapeOptions as { formats?: unknown } | undefined;
  if (!options) return undefined;
  if (Array.isArray(options.formats) && options.formats.length === 0) return undefined;
  if (version === 1 && options.formats === undefined) return undefined;
  return pageOptions(options, version, "");
}

/**
 * Firecrawl's search over siphon's (the operator's provider: DuckDuckGo, Brave or SearXNG): v2
 * `{success, data: {web?: [{url, title, description, position, …document}], news?, images?},
 * creditsUsed}`, v1 `{success, data: [web results]}`. With scrapeOptions every web result is
 * scraped as POST /v2/scrape would (in parallel, a failed page keeps its result and is named in
 * `warning`). Credits: 1 per search plus 1 per page fetched. Alexandria (sources "alexandria" or
 * domainTools) is answered 403 the way Firecrawl answers a team without it.
 */
export async function firecrawlSearch(
  version: 1 | 2,
  raw: unknown,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: { status?: number | string; headers: Record<string, string | number> },
  log?: (line: string) => void,
) {
  const body = validate(FirecrawlSearchBody, readFirecrawlBody(raw, SEARCH_FIELDS));
  const catalogue = (body.sources ?? []).some((entry) => ["alexandria", "exchange"].includes(typeOf(entry)));
  if (catalogue || body.domainTools === true) {
    set.status = 403;
    return { success: false as const, error: NO_EXCHANGE, code: "not_implemented" };
  }
  // A Brave key the caller brings rides in siphon's header, as on GET /v1/search.
  const input = toSearch(body, request.headers.get("x-search-api-key") ?? undefined);
  const scrape = scrapeOptionsOf(body, version);
  return compatMetered(guard, request, set, "search", async (admission) => {
    const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
    const run = async (signal: AbortSignal) => {
      const run = { ...deps, signal, httpOnly: admission?.softLimited };
      const outcome = await search(input, run);
      const { web = [], news, images } = outcome.response.data;
      // The same scraping of results as siphon's own search (src/search/scrape.ts), with the scrape options asked.
      const pages = scrape
        ? await scrapeHits(
            web,
            { ...run, apiBasePolicy: "guard", llmLog: log },
            { ...scrape.request, accountId },
          )
        : [];
      const failed = pages.flatMap((page) => (page.error ? [`${page.hit.url}: ${page.error.message}`] : []));
      const now = (deps.now ?? Date.now)();
      const scraped = web.map((hit, index) => {
        const result: Record<string, unknown> = {
          url: hit.url,
          title: hit.title,
          description: hit.snippet,
          position: index + 1,
        };
        const page = pages[index]?.outcome;
        if (!scrape || !page) return result;
        const doc = toDocument(page, scrape.asked, {
          sourceURL: hit.url,
          scrapeId: crypto.randomUUID(),
          creditsUsed: page.credits,
          now,
        });
        return { ...result, ...doc };
      });
      const credits = operationCredits.search(pages.reduce((sum, page) => sum + page.credits, 0));
      return { scraped, news, images, credits, failed, degraded: outcome.degraded };
    };
    const done = body.timeout
      ? await within(body.timeout, "search", request.signal, run)
      : await run(request.signal);
    set.headers["x-search-provider"] = input.provider ?? deps.config.searchProvider;
    const answer: Record<string, unknown> = { success: true };
    if (version === 1) answer.data = done.scraped;
    else {
      const data: Record<string, unknown> = {};
      if (input.sources.includes("web")) data.web = done.scraped;
      if (done.news) data.news = done.news.map((item, index) => ({ ...item, position: index + 1 }));
      if (done.images) {
        data.images = done.images.map((item, index) => ({
          title: item.title,
          imageUrl: item.imageUrl,
          imageWidth: item.width,
          imageHeight: item.height,
          url: item.url,
          position: index + 1,
        }));
      }
      answer.data = data;
      answer.creditsUsed = done.credits;
    }
    if (done.failed.length) answer.warning = `Some results could not be scraped: ${done.failed.join("; ")}`;
    return { body: answer, credits: done.credits, degraded: done.degraded };
  });
}

const description = (version: 1 | 2) =>
  `Firecrawl's ${version === 1 ? "v1" : "v2"} search over siphon's (the operator's provider): ${
    version === 1
      ? "{success, data: [{url, title, description, …document}]}"
      : "{success, data: {web: [{url, title, description, position, …document}], news?, images?}, creditsUsed}"
  }. query, limit (siphon returns at most 10 per source), sources web|news|images (DuckDuckGo has web only), categories github|pdf, tbs qdr:d|w|m|y, location, country${
    version === 1 ? " and lang" : ""
  }, timeout (ms, 408 past it), scrapeOptions (POST /v2/scrape's body: every web result is scraped). Alexandria (sources alexandria, domainTools) is answered 403 "${NO_EXCHANGE}" as Firecrawl answers a team without it; includeDomains and excludeDomains keep results to or away from sites; highlights, other categories and tbs values are refused (400 not_implemented). Credits: 1 per search plus 1 per page fetched.`;

/** POST /v1/search and POST /v2/search (siphon's own search is GET /v1/search). */
export function searchRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return compatPlugin("compat:search")
    .post(
      "/v1/search",
      ({ body, set, request }) => firecrawlSearch(1, body, deps, guard, request, set, log),
      {
        detail: {
          summary: "Search the web (Firecrawl v1)",
          description: description(1),
          requestBody: jsonRequestBody(FirecrawlSearchBody),
        } as never,
      },
    )
    .post(
      "/v2/search",
      ({ body, set, request }) => firecrawlSearch(2, body, deps, guard, request, set, log),
      {
        detail: {
          summary: "Search the web (Firecrawl v2)",
          description: description(2),
          requestBody: jsonRequestBody(FirecrawlSearchBody),
        } as never,
      },
    );
}

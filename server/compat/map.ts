import { Type as T } from "@sinclair/typebox";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { mapUrls } from "../../src/pipeline/map.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { MapBody } from "../../src/schemas/map.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { within } from "./deadline.ts";
import { type BodyFields, compatMetered, compatPlugin, readFirecrawlBody } from "./http.ts";

/** POST /v1/map (a Firecrawl client's) and POST /v2/map. */
export const FirecrawlMapBody = T.Object(
  {
    url: T.String({ description: "The site: a URL or a bare domain" }),
    search: T.Optional(T.String({ maxLength: 500, description: "Keep the URLs containing this text" })),
    sitemap: T.Optional(
      StringEnum(["include", "skip", "only"], {
        description: "include (default), skip, or only (the sitemaps' URLs alone)",
      }),
    ),
    ignoreSitemap: T.Optional(T.Boolean({ description: "v1's sitemap: skip" })),
    sitemapOnly: T.Optional(T.Boolean({ description: "v1's sitemap: only" })),
    includeSubdomains: T.Optional(T.Boolean()),
    limit: T.Optional(T.Integer({ minimum: 1, maximum: 100_000, description: "Most URLs (default 5000)" })),
    timeout: T.Optional(T.Integer({ minimum: 1000, maximum: 300_000, description: "ms; past it: 408" })),
  },
  { additionalProperties: false },
);

const MAP_FIELDS: BodyFields = {
  accepted: Object.keys(FirecrawlMapBody.properties),
  // Query strings siphon keeps (it drops only tracking parameters); index, cache and location change nothing here.
  ignored: ["ignoreQueryParameters", "useIndex", "ignoreCache", "location", "auditMetadata"],
  unsupported: {
    threatProtection: (value) => value === undefined || value === null,
  },
};

/**
 * Firecrawl's map over siphon's (sitemaps and a bounded link crawl, no content): v2 answers
 * `{success, links: [{url}]}`, v1 `{success, links: [url]}`. One credit.
 */
export function firecrawlMap(
  version: 1 | 2,
  raw: unknown,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const body = validate(FirecrawlMapBody, readFirecrawlBody(raw, MAP_FIELDS));
  const input = validate(
    MapBody,
    JSON.parse(
      JSON.stringify({
        url: body.url,
        search: body.search,
        limit: body.limit,
        includeSubdomains: body.includeSubdomains,
        sitemap:
          body.sitemap ??
          (body.sitemapOnly === true ? "only" : body.ignoreSitemap === true ? "skip" : undefined),
      }),
    ),
  );
  return compatMetered(guard, request, set, "map", async () => {
    const run = (signal: AbortSignal) => mapUrls(input, { ...deps, signal });
    const links = body.timeout
      ? await within(body.timeout, "map", request.signal, run)
      : await run(request.signal);
    return {
      body: { success: true as const, links: version === 1 ? links : links.map((url) => ({ url })) },
      credits: operationCredits.map(),
    };
  });
}

/** POST /v2/map; POST /v1/map is siphon's own route, which serves Firecrawl clients (server/compat/shared.ts). */
export function mapRoutes(deps: FetchDeps, guard: Guard) {
  return compatPlugin("compat:map").post(
    "/v2/map",
    ({ body, set, request }) => firecrawlMap(2, body, deps, guard, request, set),
    {
      detail: {
        summary: "Map a site's URLs (Firecrawl v2)",
        description:
          "siphon's map (robots.txt, sitemaps, a bounded same-site link crawl; no content) as Firecrawl's: {success, links: [{url}]} (v1: links as strings). search, limit (default 5000), includeSubdomains, sitemap include|skip|only (only: the sitemaps' URLs alone), timeout (ms, 408 past it). ignoreQueryParameters, useIndex, ignoreCache and location are accepted and change nothing. One credit.",
        requestBody: jsonRequestBody(FirecrawlMapBody),
      } as never,
    },
  );
}

import { Elysia } from "elysia";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { mapUrls } from "../../src/pipeline/map.ts";
import { MapBody, MapResponse } from "../../src/schemas/map.ts";
import { validate } from "../../src/schemas/validate.ts";
import { firecrawlErrors, firecrawlPost } from "../compat/shared.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";

/** POST /v1/map: the site's URLs, no content (a Firecrawl client's request is served Firecrawl's way). */
export function mapRoutes(deps: FetchDeps & { runner: JobRunner }, guard: Guard) {
  return new Elysia({ name: "routes:map" }).mapResponse(firecrawlErrors).post(
    "/v1/map",
    ({ body, set, request }) => {
      const firecrawl = firecrawlPost("map", body, deps, guard, request, set);
      if (firecrawl) return firecrawl;
      const input = validate(MapBody, body);
      return metered(guard, request, set, "map", async () => {
        const links = await mapUrls(input, { ...deps, signal: request.signal });
        return { body: { success: true as const, links }, credits: 1 };
      });
    },
    {
      detail: {
        summary: "Map the URLs of a site",
        description:
          "Reads robots.txt, the sitemaps it names and /sitemap.xml (indexes and .gz included), then crawls " +
          "up to 50 same-site pages for links, respecting robots.txt. URLs are normalised (no fragments, " +
          "tracking parameters, default ports or trailing slashes) and deduplicated, the start URL first. " +
          "No content is fetched into the answer and no browser is used. Costs one credit.",
        requestBody: jsonRequestBody(MapBody),
        responses: responses(MapResponse, [400, 403, 502, 504]),
      } as never,
    },
  );
}

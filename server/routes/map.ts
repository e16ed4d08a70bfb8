import type { JobRunner } from "../../src/jobs/runner.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { mapUrls } from "../../src/pipeline/map.ts";
import { MapBody, MapResponse } from "../../src/schemas/map.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import type { SharedRoute, StartContext } from "../shared-paths.ts";

/**
 * siphon's POST /v1/map: the site's URLs, no content. The path is shared with Firecrawl's v1:
 * server/shared-paths.ts registers it and decides, per request, whether this or Firecrawl's answers.
 */
export function mapHandler(
  deps: FetchDeps & { runner: JobRunner },
  guard: Guard,
): SharedRoute<(context: StartContext) => unknown> {
  return {
    handler: ({ body, set, request }) => {
      const input = validate(MapBody, body);
      return metered(guard, request, set, "map", async () => {
        const links = await mapUrls(input, { ...deps, signal: request.signal });
        return { body: { success: true as const, links }, credits: operationCredits.map() };
      });
    },
    detail: {
      summary: "Map the URLs of a site",
      description:
        "Reads robots.txt, the sitemaps it names and /sitemap.xml (indexes and .gz included), then crawls " +
        "up to 50 same-site pages for links, respecting robots.txt. URLs are normalised (no fragments, " +
        "tracking parameters, default ports or trailing slashes) and deduplicated, the start URL first. " +
        "No content is fetched into the answer and no browser is used. Costs one credit.",
      requestBody: jsonRequestBody(MapBody),
      responses: responses(MapResponse, [400, 403, 502, 504]),
    },
  };
}

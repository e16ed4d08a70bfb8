import { Elysia } from "elysia";
import { SiphonError } from "../../src/errors.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import type { Guard } from "../guard.ts";
import { compatPlugin } from "./http.ts";
import { readerRoutes } from "./reader.ts";
import { scrapeRoutes } from "./scrape.ts";
import { teamRoutes } from "./team.ts";

export {
  compatMetered,
  compatPlugin,
  FIRECRAWL_STATUS,
  type FirecrawlErrorBody,
  firecrawlError,
  readFirecrawlBody,
} from "./http.ts";

/** Any other /v2 path: Firecrawl's API has it, siphon does not (yet); answered Firecrawl's way. */
function unknownV2() {
  return compatPlugin("compat:v2-unknown").all("/v2/*", ({ request }) => {
    const { pathname } = new URL(request.url);
    throw new SiphonError("not_found", `siphon does not serve ${request.method} ${pathname}`, {
      hint: "See the README's Firecrawl compatibility section for the endpoints siphon serves.",
    });
  });
}

/**
 * Firecrawl's API over siphon's core (POST /v1/scrape and /v2/scrape, the team endpoints,
 * unknown /v2 paths as Firecrawl-shaped 404s) and Jina Reader's GET /r/<url>.
 */
export function compatRoutes(options: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return new Elysia({ name: "compat" })
    .use(scrapeRoutes(options, guard, log))
    .use(teamRoutes(guard))
    .use(readerRoutes(options, guard))
    .use(unknownV2());
}

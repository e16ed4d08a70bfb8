import { Elysia } from "elysia";
import { SiphonError } from "../../src/errors.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import { registerWebhookShape } from "../../src/jobs/webhooks.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import type { WatchService } from "../../src/watch/index.ts";
import type { Guard } from "../guard.ts";
import { agentRoutes } from "./agent.ts";
import { batchRoutes } from "./batch.ts";
import { browserRoutes } from "./browser.ts";
import { crawlRoutes } from "./crawl.ts";
import { extractRoutes } from "./extract.ts";
import { compatPlugin } from "./http.ts";
import { firecrawlPage } from "./job-view.ts";
import { mapRoutes } from "./map.ts";
import { monitorRoutes } from "./monitor.ts";
import { parseRoutes } from "./parse.ts";
import { readerRoutes } from "./reader.ts";
import { scrapeRoutes } from "./scrape.ts";
import { searchRoutes } from "./search.ts";
import { teamRoutes } from "./team.ts";
import { FIRECRAWL_SURFACE, firecrawlShaper } from "./webhook.ts";
import { watchRoutes } from "./ws.ts";

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
      hint: "See docs/firecrawl.md for the endpoints siphon serves.",
    });
  });
}

/**
 * Firecrawl's API over siphon's core (scrape, crawl, batch, map, search, extract and agent, v1
 * and v2, the crawl watcher's WebSocket, the team endpoints, unknown /v2 paths as
 * Firecrawl-shaped 404s) and Jina Reader's GET /r/<url>. The v1 paths siphon's own API also
 * serves are its routes, which hand Firecrawl clients to this layer (shared.ts). The pages of
 * the crawls and batches Firecrawl's routes start are kept as Firecrawl's documents: the view is
 * registered with the runner here, before any job of theirs runs.
 */
export function compatRoutes(
  options: FetchDeps & { runner: JobRunner; watches: WatchService },
  guard: Guard,
  log?: (line: string) => void,
) {
  options.runner.setPageView("firecrawl", firecrawlPage);
  registerWebhookShape(FIRECRAWL_SURFACE, firecrawlShaper);
  return new Elysia({ name: "compat" })
    .use(scrapeRoutes(options, guard, log))
    .use(parseRoutes(options, guard, log))
    .use(browserRoutes(options, guard))
    .use(crawlRoutes(options, guard))
    .use(batchRoutes(options, guard))
    .use(mapRoutes(options, guard))
    .use(searchRoutes(options, guard, log))
    .use(extractRoutes(options, guard))
    .use(agentRoutes(options, guard))
    .use(monitorRoutes(options, guard))
    .use(watchRoutes(guard, options.runner))
    .use(teamRoutes(guard))
    .use(readerRoutes(options, guard))
    .use(unknownV2());
}

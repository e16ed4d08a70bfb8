import { Type as T } from "@sinclair/typebox";
import { llmstxtJobView } from "../../src/jobs/llmstxt-job.ts";
import { jobOwner, startJob } from "../../src/jobs/read.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { LlmstxtBody, LlmstxtResult } from "../../src/schemas/llmstxt.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, identify, metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import type { SharedJobRoutes } from "../shared-paths.ts";

const PATH = "/v1/llmstxt";

const Started = T.Object({ success: T.Literal(true), id: T.String(), url: T.String() });
const Status = StringEnum(["queued", "processing", "completed", "failed", "cancelled"]);

/** The poll answer: the job's state and counts, plus the result's fields once completed. */
const LlmstxtJob = T.Object({
  success: T.Literal(true),
  id: T.String({ description: "llmstxt_<uuid>" }),
  status: Status,
  total: T.Integer({ description: "Pages in the crawl so far" }),
  completed: T.Integer(),
  failed: T.Integer(),
  creditsUsed: T.Integer(),
  createdAt: T.String(),
  expiresAt: T.Union([T.String(), T.Null()], { description: "24 h after the job ended; null before" }),
  error: T.Optional(T.String({ description: "Why the job failed" })),
  ...T.Partial(LlmstxtResult).properties,
});

const startDescription =
  "Writes llms.txt and llms-full.txt for a site, as a job: 202 {success, id: llmstxt_<uuid>, url} (url is the " +
  "poll URL). The job first reads the site's own /llms.txt: when it has one and regenerate is false, that file " +
  "is the answer as it is (source: site, with the site's /llms-full.txt when it publishes one). Otherwise it " +
  "crawls the site like POST /v1/crawl (limit, maxDepth, includePaths, excludePaths; sitemaps included; each " +
  "page's main content, the site's own markdown twin when it has one) and writes llms.txt (the site's name as " +
  "the one H1, a blockquote summary, an H2 section per top-level path of `- [title](url): description` links) " +
  "and llms-full.txt (every page's markdown under its title and URL). Descriptions are the page's own (meta " +
  "description, else its first sentence); with llmProvider/llmApiKey the LLM writes them (one sentence each). " +
  "Credits: 1 per page fetched from its site; starting is one request in the burst window. A body with " +
  "`origin` is a Firecrawl client's (its v1 generateLLMsText): served Firecrawl's way (200 {success, id}).";

/** siphon's answers on POST /v1/llmstxt, GET and DELETE /v1/llmstxt/:id (a path Firecrawl's v1 shares). */
export function llmstxtHandlers(deps: FetchDeps, guard: Guard, runner: JobRunner): SharedJobRoutes {
  return {
    start: {
      handler: ({ body, set, request }) => {
        const input = validate(LlmstxtBody, body);
        return metered(guard, request, set, "llmstxt", async (admission) => {
          const owner = jobOwner(admission?.principal ?? (await identify(guard, request)));
          const job = await startJob("llmstxt", input, owner, { ...deps, runner, now: guard.now() });
          set.status = 202;
          const self = new URL(request.url);
          return { body: { success: true, id: job.id, url: `${self.origin}${PATH}/${job.id}` }, credits: 0 };
        });
      },
      detail: {
        summary: "Write llms.txt and llms-full.txt for a site (async job)",
        description: startDescription,
        requestBody: jsonRequestBody(LlmstxtBody),
        responses: {
          ...responses(Started, [400, 401, 403, 429]),
          202: { description: "Accepted", content: { "application/json": { schema: Started } } },
        },
      },
    },
    poll: {
      handler: (job) => llmstxtJobView(job),
      detail: {
        summary: "Poll an llms.txt job",
        description:
          "status queued, processing (total, completed and failed count the crawl's pages), completed (with " +
          "llmsTxt, llmsFullTxt, source, pages, descriptions, existing, tokensUsed?), failed (with error) or " +
          "cancelled. 404 for an unknown job, another account's, or one that ended over 24 h ago. Not metered.",
        responses: responses(LlmstxtJob, [401, 404]),
      },
    },
    cancel: {
      handler: async (job) => ({ success: true, status: await runner.cancel(job.id) }),
      detail: {
        summary: "Cancel an llms.txt job; a job already ended keeps its status",
        responses: responses(T.Object({ success: T.Literal(true), status: Status }), [401, 404]),
      },
    },
  };
}

import { Type as T } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jobActivity } from "../../src/jobs/activity.ts";
import { extractJobView, extractTargets, pagesOf } from "../../src/jobs/extract-job.ts";
import { allResults, jobOwner, startJob } from "../../src/jobs/read.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import {
  ExtractAutoQuery,
  ExtractBody,
  ExtractJobPoll,
  ExtractResponse,
  ExtractStarted,
} from "../../src/schemas/extract.ts";
import { validate } from "../../src/schemas/validate.ts";
import { extractUrl, extractUrlAuto } from "../../src/structured/fetch.ts";
import { extractRequest } from "../../src/structured/index.ts";
import { type Guard, identify, metered } from "../guard.ts";
import { nextLink, pollPaging } from "../job-http.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";
import type { SharedJobRoutes } from "../shared-paths.ts";
import { eventStream, progressOf } from "./jobs.ts";

/** The poll's query as documented (strings on the wire). */
const PollQueryDoc = T.Object({
  skip: T.Optional(T.String({ description: "Results to skip (default 0)" })),
  limit: T.Optional(T.String({ description: "Results per page, 1-1000 (default 100)" })),
});

const Cancelled = T.Object({
  success: T.Literal(true),
  status: StringEnum(["queued", "processing", "completed", "failed", "cancelled"]),
});

const description =
  "Extracts structured data from a page. With a schema and/or prompt and an LLM (llmProvider, llmApiKey, " +
  "llmModel, llmApiBase) the page's main content (cut to 12,000 tokens, keeping the passages most relevant " +
  "to the request) goes to the vendor's structured output, is validated against the schema with ajv and " +
  "repaired up to twice (method llm, tokensUsed). With a schema and no LLM the page's own structured data " +
  "(JSON-LD, microdata, RDFa, OpenGraph and Twitter cards, tables, definition lists, price/date/email/phone " +
  "patterns) fills it: every property present, null for what was not found, sources naming each field's " +
  'signal (method heuristic). selectors {field: "css" | "css@attr" | ["css"]} read the page directly ' +
  "(method selectors). 400 when none of schema, prompt and selectors is given, for a prompt without an LLM, " +
  "llmProvider without llmApiKey, an unknown provider, a schema that is not JSON Schema, or a selector that " +
  "does not parse. Credits: 1 per page fetched (cache hits are free).";

const jobDescription =
  "With urls (1-100) instead of url the extraction runs as an async job: 202 {success, id: extract_<uuid>, " +
  "url} (url is the poll URL) once the request is checked (a bad schema, prompt, selectors, LLM fields or " +
  "webhook target is a 400/403 here, before the job exists). Pages are extracted 5 at a time (at most " +
  "SIPHON_CRAWL_HOST_CONCURRENCY from one host); an optional webhook {url, events?, secret?, metadata?} " +
  "receives started, page {jobId, url, …the page's result}, completed {jobId, total, completed, data, " +
  "tokensUsed?} and failed, signed with X-Siphon-Signature. The LLM key is kept with the job while it runs " +
  "and erased from the stored job when it ends, whatever the end; polls, lists, webhooks and logs never show it.";

const PATH = "/v1/extract";

/**
 * siphon's extract on its paths (POST /v1/extract, GET and DELETE /v1/extract/:id), which it
 * shares with Firecrawl's v1: server/shared-paths.ts registers them and decides, per request,
 * whether these handlers or Firecrawl's answer.
 */
export function extractHandlers(
  deps: FetchDeps & { runner: JobRunner },
  guard: Guard,
  log?: (line: string) => void,
): SharedJobRoutes {
  const { runner } = deps;
  return {
    start: {
      handler: async ({ body, set, request }) => {
        const input = validate(ExtractBody, body);
        const targets = extractTargets(input);
        if ("urls" in targets) {
          return metered(guard, request, set, "extract", async (admission) => {
            const owner = jobOwner(admission?.principal ?? (await identify(guard, request)));
            const job = await startJob("extract", input, owner, { ...deps, now: guard.now() });
            set.status = 202;
            const self = new URL(request.url);
            // The start is one request in the burst window; each page is charged as it is fetched.
            return {
              body: { success: true, id: job.id, url: `${self.origin}${PATH}/${job.id}` },
              credits: 0,
            };
          });
        }
        const extraction = await extractRequest(input, input);
        return metered(guard, request, set, "extract", async (admission) => {
          const outcome = await extractUrl(targets.url, extraction, {
            ...deps,
            signal: request.signal,
            httpOnly: admission?.softLimited,
            llmLog: log,
          });
          return {
            body: { success: true as const, ...outcome.result },
            credits: outcome.credits,
            degraded: outcome.degraded,
          };
        });
      },
      detail: {
        summary:
          "Extract structured data from a page, or from several as a job (LLM, the page's structured data, or CSS selectors)",
        description: `${description} ${jobDescription}`,
        requestBody: jsonRequestBody(ExtractBody),
        responses: {
          ...responses(ExtractResponse, [400, 401, 403, 429, 500, 502, 504]),
          202: {
            description: "Job started (urls)",
            content: { "application/json": { schema: ExtractStarted } },
          },
        },
      },
    },
    poll: {
      handler: async (job, request, query) => {
        if (request.headers.get("accept")?.includes("text/event-stream"))
          return eventStream(runner, job, request);
        const { skip, limit } = pollPaging(query);
        // At most 100 pages: the merge reads them all, the answer pages them.
        const items = await allResults(guard.store, job);
        const view = extractJobView(job, pagesOf(job, items), skip, limit);
        const body: ExtractJobPoll = {
          success: true,
          progress: progressOf(job),
          ...view,
          ...jobActivity(job, guard.now(), guard.config.jobStallMs),
        };
        if (skip + view.results.length < items.length)
          body.next = nextLink(request, skip + view.results.length, limit);
        return body;
      },
      detail: {
        summary: "Poll an extraction job (Accept: text/event-stream streams progress)",
        description:
          "status, total, completed, failed, creditsUsed, expiresAt; once completed `data`: the pages merged in " +
          "the order of urls (arrays concatenated; any other field from the first page with a non-null value); " +
          "`results`: each page's {url, data, method, sources?, tokensUsed?} or {url, error}, paged with " +
          "?skip=&limit= (default 100) and `next`; tokensUsed summed over the pages. SSE events as a crawl's. " +
          "404 for an unknown job, another account's, or one that ended over 24 h ago. Not metered.",
        parameters: queryParameters(PollQueryDoc),
        responses: responses(ExtractJobPoll, [400, 401, 404]),
      },
    },
    cancel: {
      handler: async (job) => ({ success: true, status: await runner.cancel(job.id) }),
      detail: {
        summary: "Cancel an extraction job; a job already ended keeps its status",
        responses: responses(Cancelled, [401, 404]),
      },
    },
  };
}

/** GET /v1/extract/auto: everything structured on a page (the extract paths are in server/shared-paths.ts). */
export function extractRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:extract" }).get(
    "/v1/extract/auto",
    ({ query, set, request }) => {
      const { url } = validate(ExtractAutoQuery, query as Record<string, unknown>);
      return metered(guard, request, set, "extract", async (admission) => {
        const outcome = await extractUrlAuto(url, {
          ...deps,
          signal: request.signal,
          httpOnly: admission?.softLimited,
        });
        return {
          body: { success: true as const, ...outcome.result },
          credits: outcome.credits,
          degraded: outcome.degraded,
        };
      });
    },
    {
      detail: {
        summary: "Everything structured on a page, grouped by type (no LLM)",
        description:
          "JSON-LD (Product, Offer, Article, NewsArticle, Recipe, Event, Organization, Person, BreadcrumbList, " +
          "FAQPage, JobPosting), microdata, RDFa lite, OpenGraph and Twitter cards, tables as arrays of records, " +
          "definition lists, and prices, dates, emails and phone numbers, as data: {Type: [records]}. Credits: 1 per page fetched.",
        parameters: queryParameters(ExtractAutoQuery),
        responses: responses(ExtractResponse, [400, 401, 403, 429, 500, 502, 504]),
      } as never,
    },
  );
}

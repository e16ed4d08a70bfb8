import { Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import { jobActivity } from "../../src/jobs/activity.ts";
import { extractSummary, pagesOf } from "../../src/jobs/extract-job.ts";
import { jobOwner, startJob } from "../../src/jobs/read.ts";
import { ExtractBody, MAX_EXTRACT_URLS } from "../../src/schemas/extract.ts";
import { LlmFieldsOptional } from "../../src/schemas/llm.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { JobRecord } from "../../src/store/types.ts";
import { serviceLlm } from "../../src/summary/index.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { checkUrls } from "./batch.ts";
import { type BodyFields, compatMetered, compatPlugin, offOnly, readFirecrawlBody } from "./http.ts";
import { callerJob, expiresAt, finishedItems, type JobDeps, workStatus } from "./job-view.ts";
import { FirecrawlWebhook, toWebhook } from "./webhook.ts";

/** POST /v1/extract (a Firecrawl client's) and POST /v2/extract. */
export const FirecrawlExtractBody = T.Object(
  {
    urls: T.Array(T.String({ minLength: 1, maxLength: 2048 }), {
      minItems: 1,
      maxItems: MAX_EXTRACT_URLS,
      description: "The pages, up to 100 (no /* wildcards)",
    }),
    prompt: T.Optional(T.String({ minLength: 1, maxLength: 4000 })),
    systemPrompt: T.Optional(T.String({ maxLength: 4000, description: "Put before the prompt" })),
    schema: T.Optional(
      T.Object({}, { additionalProperties: true, description: "A JSON Schema (object root)" }),
    ),
    ignoreInvalidURLs: T.Optional(T.Boolean()),
    webhook: T.Optional(FirecrawlWebhook),
    ...LlmFieldsOptional,
  },
  { additionalProperties: false },
);

const absent = (value: unknown) => value === undefined || value === null;

const EXTRACT_FIELDS: BodyFields = {
  accepted: Object.keys(FirecrawlExtractBody.properties),
  // They only shape how a /* wildcard is expanded, and siphon takes no wildcards.
  ignored: ["includeSubdomains", "ignoreSitemap"],
  unsupported: {
    enableWebSearch: offOnly,
    allowExternalLinks: offOnly,
    showSources: offOnly,
    agent: absent,
    threatProtection: absent,
    scrapeOptions: (value) =>
      absent(value) ||
      (typeof value === "object" && !Array.isArray(value) && !Object.keys(value as object).length),
    __experimental_streamSteps: offOnly,
    __experimental_llmUsage: offOnly,
    __experimental_showSources: offOnly,
  },
};

/**
 * A Firecrawl extract request as siphon's extraction job: the pages, the schema and the prompt
 * (systemPrompt first), and the LLM: the request's own (siphon's llmProvider, llmApiKey,
 * llmModel, llmApiBase), else the operator's (SIPHON_LLM_*), else none (a schema is filled from
 * the pages' structured data; a prompt is a 400).
 */
function toExtract(raw: unknown, deps: JobDeps) {
  const body = validate(FirecrawlExtractBody, readFirecrawlBody(raw, EXTRACT_FIELDS));
  const wildcard = body.urls.find((url) => url.endsWith("/*"));
  if (wildcard) {
    throw new SiphonError("not_implemented", `URL wildcards (${wildcard}) are not supported by siphon`, {
      hint: "List the pages (POST /v2/map finds a site's URLs) and send them in urls.",
    });
  }
  const { valid, invalid } = checkUrls(body.urls, body.ignoreInvalidURLs === true);
  const prompt = [body.systemPrompt, body.prompt].filter((part) => part?.trim()).join("\n\n") || undefined;
  const own = body.llmProvider !== undefined || body.llmApiKey !== undefined;
  const input = validate(
    ExtractBody,
    JSON.parse(
      JSON.stringify({
        urls: valid,
        schema: body.schema,
        prompt,
        llmProvider: body.llmProvider,
        llmApiKey: body.llmApiKey,
        llmModel: body.llmModel,
        llmApiBase: body.llmApiBase,
      }),
    ),
  );
  return {
    input,
    surface: { name: "firecrawl" as const, serviceLlm: !own && serviceLlm(deps.config) !== undefined },
    webhook: toWebhook(body.webhook, "extract"),
    invalidURLs: body.ignoreInvalidURLs ? invalid : undefined,
  };
}

/** Starts an extraction from a Firecrawl request: 200 `{success, id, invalidURLs?}`; the pages are charged as fetched. */
export async function startExtract(
  raw: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const extract = toExtract(raw, deps);
  return compatMetered(guard, request, set, "extract", async (admission) => {
    const job = await startJob(
      "extract",
      extract.input,
      jobOwner(admission?.principal),
      { ...deps, now: guard.now() },
      { surface: extract.surface, webhook: extract.webhook },
    );
    const body: Record<string, unknown> = { success: true, id: job.id };
    if (extract.invalidURLs) body.invalidURLs = extract.invalidURLs;
    return { body, credits: 0 };
  });
}

/**
 * Firecrawl's extract poll: `{success, id, status: processing|completed|failed|cancelled,
 * data (the pages merged, once completed), expiresAt, creditsUsed, tokensUsed?, warning?,
 * error?}`.
 */
export async function extractPoll(guard: Guard, job: JobRecord) {
  const pages = pagesOf(job, await finishedItems(guard, job));
  const { data, tokensUsed } = extractSummary(pages);
  const body: Record<string, unknown> = {
    success: true,
    id: job.id,
    status: workStatus(job.status),
    expiresAt: expiresAt(guard, job),
    creditsUsed: job.creditsUsed,
  };
  if (job.status === "completed") body.data = data;
  if (tokensUsed) body.tokensUsed = tokensUsed.input + tokensUsed.output;
  // Each failed page with its reason, as the native poll's results give it: a caller must be able
  // to tell a refused llmApiBase from a page that did not load.
  const failed = pages.flatMap((page) => ("error" in page ? [`${page.url} (${page.error.message})`] : []));
  const { lastProgressAt, warning: stalled } = jobActivity(job, guard.now(), guard.config.jobStallMs);
  body.lastProgressAt = lastProgressAt;
  const warnings = [stalled, failed.length ? `These pages could not be extracted: ${failed.join("; ")}` : ""];
  if (warnings.some(Boolean)) body.warning = warnings.filter(Boolean).join(" ");
  if (job.error) body.error = job.error;
  return body;
}

/** POST /v2/extract and GET /v2/extract/:id; the /v1 ones are siphon's own routes (server/compat/shared.ts). */
export function extractRoutes(deps: JobDeps, guard: Guard) {
  return compatPlugin("compat:extract")
    .post("/v2/extract", ({ body, set, request }) => startExtract(body, deps, guard, request, set), {
      detail: {
        summary: "Extract structured data from pages (Firecrawl v2)",
        description:
          "An async job over siphon's extraction: 200 {success, id}; poll GET /v2/extract/:id. urls (up to 100, no /* wildcards; invalid ones are a 400 unless ignoreInvalidURLs), schema, prompt (systemPrompt goes first), webhook (extract.started, .page, .completed with the merged data, .failed). The LLM is the request's own (siphon's llmProvider, llmApiKey, llmModel, llmApiBase), else the operator's (SIPHON_LLM_*); with neither a schema is filled from the pages' structured data (JSON-LD, microdata, tables…) and a prompt is a 400. Refused (400 not_implemented): enableWebSearch, allowExternalLinks, showSources, agent, scrapeOptions. Credits: 1 per page fetched.",
        requestBody: jsonRequestBody(FirecrawlExtractBody),
      } as never,
    })
    .get(
      "/v2/extract/:id",
      async ({ params, request }) =>
        extractPoll(guard, await callerJob(guard, request, params.id, "extract")),
      {
        detail: {
          summary: "Poll an extraction (Firecrawl v2)",
          description:
            "{success, id, status: processing|completed|failed|cancelled, data (once completed: the pages merged, arrays concatenated), expiresAt, creditsUsed, tokensUsed?, warning? (pages that failed), error?}. Not metered.",
        },
      },
    );
}

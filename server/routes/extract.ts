import { Elysia } from "elysia";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { ExtractAutoQuery, ExtractBody, ExtractResponse } from "../../src/schemas/extract.ts";
import { validate } from "../../src/schemas/validate.ts";
import { extractUrl, extractUrlAuto } from "../../src/structured/fetch.ts";
import { extractRequest } from "../../src/structured/index.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";

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

/** POST /v1/extract (one URL) and GET /v1/extract/auto. */
export function extractRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return new Elysia({ name: "routes:extract" })
    .post(
      "/v1/extract",
      async ({ body, set, request }) => {
        const input = validate(ExtractBody, body);
        const extraction = await extractRequest(input, input);
        const url = input.url;
        return metered(guard, request, set, "extract", async (admission) => {
          const outcome = await extractUrl(url, extraction, {
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
      {
        detail: {
          summary: "Extract structured data from a page (LLM, the page's structured data, or CSS selectors)",
          description,
          requestBody: jsonRequestBody(ExtractBody),
          responses: responses(ExtractResponse, [400, 401, 403, 429, 500, 502, 504]),
        } as never,
      },
    )
    .get(
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

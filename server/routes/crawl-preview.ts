import { Elysia } from "elysia";
import { applyCrawlPrompt } from "../../src/crawl/prompt.ts";
import { parseTargetUrl } from "../../src/fetch/url.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { CrawlPreviewBody } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";

/** POST /v1/crawl/params-preview: the crawl options a prompt gives, shown before a crawl runs them. */
export function crawlPreviewRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:crawl-preview" }).post(
    "/v1/crawl/params-preview",
    ({ body, set, request }) => {
      const input = validate(CrawlPreviewBody, body);
      parseTargetUrl(input.url);
      return metered(guard, request, set, "crawl-preview", async () => {
        const { params } = await applyCrawlPrompt(input, {
          config: deps.config,
          signal: request.signal,
          apiBasePolicy: "guard",
          log: guard.log,
        });
        return { body: { success: true, url: input.url, params }, credits: 0 };
      });
    },
    {
      detail: {
        summary: "Preview the crawl options a prompt gives",
        description:
          "Turns a sentence into crawl options (includePaths, excludePaths, maxDepth, limit, allowSubdomains, sitemap) with the request's LLM (llmProvider, llmApiKey, …) or else the operator's (SIPHON_LLM_*); no LLM: 400. POST /v1/crawl with the same prompt fills the options it does not set with these. Answers {success, url, params}; no credit.",
        requestBody: jsonRequestBody(CrawlPreviewBody),
      } as never,
    },
  );
}

import { type Static, Type as T } from "@sinclair/typebox";
import { applyCrawlPrompt } from "../../src/crawl/prompt.ts";
import { SiphonError } from "../../src/errors.ts";
import { CrawlBody, CrawlPreviewBody, ScrapeOptions } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { ToolDef } from "../types.ts";
import { JobOutput, jobWaitFields, runJobTool } from "./jobs.ts";

/** SPEC "MCP tools": a crawl through MCP reads at most 100 pages, 1 to 5 links deep. */
export const MCP_CRAWL_MAX_PAGES = 100;
export const MCP_CRAWL_MAX_DEPTH = 5;

const p = CrawlBody.properties;
const s = ScrapeOptions.properties;

export const CrawlToolInput = T.Object(
  {
    url: T.Optional(
      T.String({ description: "The page to start from; or give jobId to read an earlier crawl" }),
    ),
    limit: T.Integer({
      minimum: 1,
      maximum: MCP_CRAWL_MAX_PAGES,
      default: 10,
      description: `Most pages read, 1 to ${MCP_CRAWL_MAX_PAGES} (default 10)`,
    }),
    maxDepth: T.Integer({
      minimum: 1,
      maximum: MCP_CRAWL_MAX_DEPTH,
      default: 2,
      description: `Most link hops from the start page, 1 to ${MCP_CRAWL_MAX_DEPTH} (default 2)`,
    }),
    prompt: T.Optional(CrawlPreviewBody.properties.prompt),
    llmProvider: CrawlPreviewBody.properties.llmProvider,
    llmApiKey: CrawlPreviewBody.properties.llmApiKey,
    llmModel: CrawlPreviewBody.properties.llmModel,
    llmApiBase: CrawlPreviewBody.properties.llmApiBase,
    includePaths: p.includePaths,
    excludePaths: p.excludePaths,
    allowSubdomains: p.allowSubdomains,
    allowExternalLinks: p.allowExternalLinks,
    ignoreSitemap: p.ignoreSitemap,
    sitemap: p.sitemap,
    ignoreRobotsTxt: p.ignoreRobotsTxt,
    maxConcurrency: p.maxConcurrency,
    delay: p.delay,
    scrapeOptions: T.Optional(
      T.Object(
        {
          format: s.format,
          onlyMainContent: s.onlyMainContent,
          includeTags: s.includeTags,
          excludeTags: s.excludeTags,
          render: s.render,
          stealth: s.stealth,
          wait: s.wait,
          maxAge: s.maxAge,
        },
        { additionalProperties: false, description: "How each page is read, as siphon_fetch's arguments" },
      ),
    ),
    ...jobWaitFields("siphon_crawl", "crawl_"),
  },
  { additionalProperties: false },
);
type CrawlToolInput = Static<typeof CrawlToolInput>;

export const crawlTool: ToolDef<CrawlToolInput> = {
  name: "siphon_crawl",
  description:
    "Read a website: start at url, follow its links (same site, up to maxDepth hops) and return the pages as " +
    `markdown, at most ${MCP_CRAWL_MAX_PAGES}. Use it to read documentation or a whole section of a site; for ` +
    "one page use siphon_fetch, for known URLs siphon_batch, to only list URLs siphon_map. includePaths and " +
    "excludePaths (regular expressions on the path) keep it focused. It waits for the crawl (with progress) " +
    "and returns the pages, several at a time within maxLength characters; the answer names the jobId and " +
    "startIndex for the rest. wait: false returns the jobId at once. Costs 1 credit per page.",
  input: CrawlToolInput,
  output: JobOutput,
  annotations: {
    title: "Crawl a website",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { jobId, wait, maxWaitSeconds, startIndex, maxLength, ...crawl } = args;
    if (jobId && crawl.url) {
      throw new SiphonError("invalid_request", "Give url to start a crawl or jobId to read one, not both");
    }
    if (!jobId && !crawl.url) {
      throw new SiphonError("invalid_request", "url is required (or jobId to read an earlier crawl)");
    }
    return runJobTool(
      ctx,
      { jobId, wait, maxWaitSeconds, startIndex, maxLength },
      {
        tool: "siphon_crawl",
        type: "crawl",
        noun: "Crawl",
        contentKey: "markdown",
        // A prompt becomes the crawl's options with its LLM fields, else the operator's LLM, once admitted.
        input: async () =>
          validate(
            CrawlBody,
            (
              await applyCrawlPrompt(crawl, {
                config: ctx.host.deps.config,
                signal: ctx.signal,
                apiBasePolicy: ctx.host.deps.apiBasePolicy ?? "guard",
              })
            ).body,
          ),
      },
    );
  },
};

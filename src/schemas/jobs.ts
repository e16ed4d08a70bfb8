import { type Static, Type as T } from "@sinclair/typebox";
import { StringEnum } from "./common.ts";
import { extractFields } from "./extract-spec.ts";
import { FetchBody } from "./fetch.ts";
import { LlmFieldsOptional } from "./llm.ts";
import { SitemapMode } from "./map.ts";

/** How many pages a job fetches at once when its request does not say. */
export const DEFAULT_MAX_CONCURRENCY = 5;

const maxConcurrency = (what: string) =>
  T.Integer({
    minimum: 1,
    maximum: DEFAULT_MAX_CONCURRENCY,
    default: DEFAULT_MAX_CONCURRENCY,
    description: `Most ${what} fetched at once (per host also at most SIPHON_CRAWL_HOST_CONCURRENCY)`,
  });

export const Webhook = T.Object(
  {
    url: T.String({ description: "HTTPS URL receiving the events" }),
    events: T.Optional(
      T.Array(StringEnum(["started", "page", "completed", "failed"]), {
        description: "Events to send; all four when absent",
      }),
    ),
    secret: T.Optional(
      T.String({ maxLength: 512, description: "HMAC-SHA256 key: X-Siphon-Signature: sha256=<hex>" }),
    ),
    metadata: T.Optional(
      T.Object({}, { additionalProperties: true, description: "Echoed in every payload" }),
    ),
  },
  { additionalProperties: false },
);

/** scrapeOptions: the fetch options applied to every page (FetchBody without url). */
export const ScrapeOptions = T.Omit(FetchBody, ["url"], { additionalProperties: false });

/** POST /v1/crawl body. */
export const CrawlBody = T.Object(
  {
    url: T.String({ description: "Starting URL" }),
    limit: T.Integer({ minimum: 1, maximum: 10_000, default: 100, description: "Most pages fetched" }),
    maxDepth: T.Integer({
      minimum: 0,
      maximum: 20,
      default: 3,
      description: "Most link hops from the start URL",
    }),
    includePaths: T.Optional(
      T.Array(T.String({ maxLength: 500 }), {
        maxItems: 50,
        description: "Regular expressions; only URLs whose path matches one are crawled",
      }),
    ),
    excludePaths: T.Optional(
      T.Array(T.String({ maxLength: 500 }), {
        maxItems: 50,
        description: "Regular expressions; URLs whose path matches one are skipped",
      }),
    ),
    allowSubdomains: T.Boolean({
      default: false,
      description: "Follow links to subdomains of the start host",
    }),
    allowExternalLinks: T.Boolean({ default: false, description: "Follow links to other sites" }),
    ignoreRobotsTxt: T.Boolean({
      default: false,
      description: "Do not read robots.txt (disallows, Crawl-delay)",
    }),
    ignoreSitemap: T.Boolean({
      default: false,
      description: "Do not seed the frontier from sitemaps (sitemap: skip)",
    }),
    sitemap: T.Optional(SitemapMode),
    maxConcurrency: maxConcurrency("pages"),
    delay: T.Optional(
      T.Number({
        minimum: 0,
        maximum: 60,
        description:
          "Seconds to wait after each page of a host before the next one of that host (as Firecrawl); " +
          "a host with a delay, or a robots.txt Crawl-delay, is fetched one page at a time",
      }),
    ),
    scrapeOptions: T.Optional(ScrapeOptions),
    location: T.Optional(T.String({ pattern: "^[A-Za-z]{2}$", description: "Country code for every page" })),
    languages: T.Optional(T.Union([T.String(), T.Array(T.String())])),
    webhook: T.Optional(Webhook),
  },
  { additionalProperties: false },
);
export type CrawlInput = Static<typeof CrawlBody>;

/**
 * The fetch options a batch applies to every page: a crawl's scrapeOptions, but for the fields
 * the batch body has always had its own way (format and formats, below; extract and the LLM
 * fields, the same as scrapeOptions' but kept where they were).
 */
const BatchPageOptions = T.Omit(ScrapeOptions, [
  "format",
  "formats",
  "extract",
  "llmProvider",
  "llmApiKey",
  "llmModel",
  "llmApiBase",
]);

/** POST /v1/batch/scrape body: the batch's own fields, and at the top level every page's fetch options. */
export const BatchBody = T.Object(
  {
    urls: T.Array(T.String(), {
      minItems: 1,
      maxItems: 100,
      description: "Up to 100 URLs, fetched 5 at a time",
    }),
    format: T.Optional(
      StringEnum(["markdown", "text", "html"], {
        description: "Format of each item's content: put first in formats (the first there sets content)",
      }),
    ),
    // No schema default: a `format` alone must not bring markdown along (batchPageInput's default).
    formats: T.Optional(
      T.Array(T.Unknown(), {
        maxItems: 10,
        description:
          'Outputs of each page, all from one fetch (default ["markdown"]): markdown, text, html (the first sets ' +
          'content), rawHtml, links, images, screenshot, summary, branding, changeTracking; {"type":"json",' +
          '"schema":{…},"prompt":"…"} extracts into each item\'s json, like extract',
      }),
    ),
    maxTokens: T.Optional(
      T.Integer({ minimum: 1, description: "Truncate each content at this many tokens" }),
    ),
    maxConcurrency: maxConcurrency("URLs"),
    extract: T.Optional(
      T.Object(extractFields, {
        additionalProperties: false,
        description:
          "Structured extraction on every page, as POST /v1/fetch's extract: each item gains json (and " +
          "extractTokensUsed); checked before the job exists",
      }),
    ),
    ...LlmFieldsOptional,
    ...BatchPageOptions.properties,
    webhook: T.Optional(T.String({ description: "Webhook URL (all events, no secret)" })),
  },
  { additionalProperties: false },
);
export type BatchInput = Static<typeof BatchBody>;

/** GET /v1/jobs query. */
export const JobsQuery = T.Object(
  {
    type: T.Optional(StringEnum(["crawl", "batch", "agent", "extract", "llmstxt"])),
    status: T.Optional(StringEnum(["queued", "processing", "completed", "failed", "cancelled"])),
    limit: T.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  },
  { additionalProperties: false },
);

/** Poll paging: `?skip=&limit=` over the job's results. */
export const PollQuery = T.Object(
  {
    skip: T.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
    limit: T.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  },
  { additionalProperties: false },
);

/** POST /v1/crawl/params-preview: a crawl prompt read without starting the crawl. */
export const CrawlPreviewBody = T.Object(
  {
    url: T.String({ description: "The site the crawl would start at" }),
    prompt: T.String({
      minLength: 1,
      maxLength: 2000,
      description:
        "What to crawl, in a sentence: turned into includePaths, excludePaths, maxDepth, limit, allowSubdomains, sitemap",
    }),
    ...LlmFieldsOptional,
  },
  { additionalProperties: false },
);

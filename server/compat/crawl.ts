import { type Static, Type as T } from "@sinclair/typebox";
import { crawlFromPrompt, type PromptedCrawl, promptLlm } from "../../src/crawl/prompt.ts";
import { parseTargetUrl } from "../../src/fetch/url.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { CrawlBody, type CrawlInput, DEFAULT_MAX_CONCURRENCY } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { type BodyFields, compatMetered, compatPlugin, offOnly, readFirecrawlBody } from "./http.ts";
import {
  activeCrawls,
  callerJob,
  type FirecrawlStart,
  firecrawlBatch,
  type JobDeps,
  pagesErrors,
  pollAndCancelRoutes,
  startFirecrawlJob,
} from "./job-view.ts";
import { jobPages } from "./page-options.ts";
import { FirecrawlWebhook, toWebhook } from "./webhook.ts";

/** The most pages and hops siphon's crawl takes (CrawlBody's bounds). */
const MAX_PAGES = 10_000;
const MAX_DEPTH = 20;

/** POST /v1/crawl (a Firecrawl client's) and POST /v2/crawl. */
export const FirecrawlCrawlBody = T.Object(
  {
    url: T.String({ description: "Where the crawl starts" }),
    limit: T.Optional(
      T.Integer({ minimum: 1, maximum: MAX_PAGES, description: "Most pages (default 10000, as Firecrawl)" }),
    ),
    maxDiscoveryDepth: T.Optional(
      T.Integer({ minimum: 0, description: "Most link hops from the start (default and most 20)" }),
    ),
    maxDepth: T.Optional(T.Integer({ minimum: 0, description: "v1's maxDiscoveryDepth" })),
    includePaths: T.Optional(T.Array(T.String({ maxLength: 500 }), { maxItems: 50 })),
    excludePaths: T.Optional(T.Array(T.String({ maxLength: 500 }), { maxItems: 50 })),
    sitemap: T.Optional(
      StringEnum(["include", "skip", "only"], {
        description: "include (default), skip, or only (the sitemaps' URLs alone, no links followed)",
      }),
    ),
    ignoreSitemap: T.Optional(T.Boolean()),
    crawlEntireDomain: T.Optional(
      T.Boolean({ description: "Follow links outside the start URL's path (default: only below it)" }),
    ),
    allowBackwardLinks: T.Optional(T.Boolean({ description: "v1's crawlEntireDomain" })),
    allowExternalLinks: T.Optional(T.Boolean()),
    allowSubdomains: T.Optional(T.Boolean()),
    ignoreRobotsTxt: T.Optional(T.Boolean()),
    delay: T.Optional(T.Number({ minimum: 0, maximum: 60, description: "Seconds between a host's pages" })),
    maxConcurrency: T.Optional(T.Integer({ minimum: 1, description: "Pages at once (at most 5)" })),
    webhook: T.Optional(FirecrawlWebhook),
    scrapeOptions: T.Optional(
      T.Object(
        {},
        { additionalProperties: true, description: "The scrape of every page, as POST /v2/scrape's body" },
      ),
    ),
    zeroDataRetention: T.Optional(T.Boolean({ description: "No change-tracking snapshot is kept" })),
    prompt: T.Optional(
      T.String({
        minLength: 1,
        maxLength: 2000,
        description:
          "A sentence turned into includePaths, excludePaths, depth, limit, subdomains and sitemap use by the operator's LLM; options given win",
      }),
    ),
  },
  { additionalProperties: false },
);
type FirecrawlCrawlBody = Static<typeof FirecrawlCrawlBody>;

/** A prompt's crawl options in Firecrawl's names (its include paths say what is in: the whole domain is open to them). */
export function firecrawlParams(url: string, params: PromptedCrawl): Record<string, unknown> {
  return {
    url,
    includePaths: params.includePaths,
    excludePaths: params.excludePaths,
    maxDiscoveryDepth: params.maxDepth,
    limit: params.limit,
    allowSubdomains: params.allowSubdomains,
    sitemap: params.sitemap,
    crawlEntireDomain: params.includePaths.length > 0,
  };
}

/** The body with what the prompt gave set where the body set nothing. */
function filled(body: FirecrawlCrawlBody, params: PromptedCrawl): FirecrawlCrawlBody {
  const out: Record<string, unknown> = { ...body };
  delete out.prompt;
  for (const [key, value] of Object.entries(firecrawlParams(body.url, params))) {
    const empty = Array.isArray(value) && value.length === 0;
    if (out[key] === undefined && !empty) out[key] = value;
  }
  return out as FirecrawlCrawlBody;
}

const CRAWL_FIELDS: BodyFields = {
  accepted: Object.keys(FirecrawlCrawlBody.properties),
  // siphon always merges spellings of one URL (www, scheme, trailing slash): Firecrawl's default.
  ignored: ["deduplicateSimilarURLs"],
  unsupported: {
    robotsUserAgent: (value) => value === undefined || value === null,
    regexOnFullURL: offOnly,
    ignoreQueryParameters: offOnly,
  },
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Firecrawl follows only links below the start URL's path unless crawlEntireDomain (v1
 * allowBackwardLinks): the path as a prefix every followed path must have, within each of
 * includePaths when there are some.
 */
function includePathsOf(body: FirecrawlCrawlBody, start: URL): string[] | undefined {
  const path = start.pathname;
  if (body.crawlEntireDomain || body.allowBackwardLinks || path === "/") return body.includePaths;
  const prefix = escapeRegex(path);
  if (!body.includePaths?.length) return [`^${prefix}`];
  return body.includePaths.map((pattern) => `^(?=${prefix})[\\s\\S]*?(?:${pattern})`);
}

/**
 * A Firecrawl crawl request as siphon's: its frontier rules as CrawlBody's (a depth past 20
 * counts as 20, a concurrency past 5 as 5), every page a scrape of scrapeOptions.
 * Throws invalid_request and invalid_url.
 */
function toCrawl(body: FirecrawlCrawlBody, version: 1 | 2) {
  // A start URL siphon refuses is refused before the prefix is read from it.
  const start = parseTargetUrl(body.url);
  const depth = body.maxDiscoveryDepth ?? body.maxDepth;
  const input: CrawlInput = validate(
    CrawlBody,
    JSON.parse(
      JSON.stringify({
        url: body.url,
        limit: body.limit ?? MAX_PAGES,
        maxDepth: Math.min(depth ?? MAX_DEPTH, MAX_DEPTH),
        includePaths: includePathsOf(body, start),
        excludePaths: body.excludePaths,
        allowSubdomains: body.allowSubdomains ?? false,
        allowExternalLinks: body.allowExternalLinks ?? false,
        ignoreRobotsTxt: body.ignoreRobotsTxt ?? false,
        sitemap: body.sitemap ?? (body.ignoreSitemap === true ? "skip" : undefined),
        maxConcurrency: Math.min(body.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY, DEFAULT_MAX_CONCURRENCY),
        delay: body.delay,
      }),
    ),
  );
  const options = { ...(body.scrapeOptions ?? {}) } as Record<string, unknown>;
  if (body.zeroDataRetention && options.zeroDataRetention === undefined) options.zeroDataRetention = true;
  const pages = jobPages(options, version, "");
  return { input, pages, webhook: toWebhook(body.webhook, "crawl") };
}

/**
 * Starts a crawl from a Firecrawl request (v1 or v2): 200 `{success, id, url}` (url polls it on
 * the same version's path). One request in the burst window; pages are charged as fetched.
 */
export function startCrawl(
  version: 1 | 2,
  raw: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const body = validate(FirecrawlCrawlBody, readFirecrawlBody(raw, CRAWL_FIELDS));
  const crawl: FirecrawlStart<"crawl"> = toCrawl(body, version);
  const prompt = body.prompt;
  if (prompt) {
    // Read once the caller is admitted: the operator's LLM is not for whoever knocks.
    const llm = promptLlm({}, deps.config);
    crawl.admit = async () => {
      const llmDeps = { config: deps.config, signal: request.signal, apiBasePolicy: "trust" as const };
      const { params } = await crawlFromPrompt({ url: body.url, prompt }, llm, llmDeps);
      return toCrawl(filled(body, params), version).input;
    };
  }
  return startFirecrawlJob("crawl", `/v${version}/crawl`, crawl, { deps, guard, request, set });
}

const startDescription = (version: 1 | 2) =>
  `Firecrawl's ${version === 1 ? "v1" : "v2"} crawl start: 200 {success, id, url}. ${
    version === 1 ? "maxDepth" : "maxDiscoveryDepth"
  } (default and most 20), limit (default and most 10000), includePaths/excludePaths (regular expressions on the path), only links below the start URL's path unless crawlEntireDomain${
    version === 1 ? " or allowBackwardLinks" : ""
  }, sitemap include|skip|only, allowSubdomains, allowExternalLinks, ignoreRobotsTxt, delay (s), maxConcurrency (at most 5), scrapeOptions (POST /v2/scrape's body: every page is such a scrape), webhook (a URL or {url, headers, metadata, events, secret}: Firecrawl's crawl.started, crawl.page, crawl.completed, crawl.failed, signed X-Firecrawl-Signature with secret). prompt (a sentence the operator's LLM turns into these options; given ones win; no LLM: 400). Refused (400 not_implemented): robotsUserAgent, regexOnFullURL, ignoreQueryParameters. Errors are Firecrawl's.`;

const PreviewBody = T.Object(
  { url: T.String(), prompt: T.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);

/** POST /v2/crawl/params-preview: the options a prompt gives, in Firecrawl's names, by the operator's LLM. */
function previewCrawl(
  raw: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const body = validate(
    PreviewBody,
    readFirecrawlBody(raw, { accepted: ["url", "prompt"], ignored: [], unsupported: {} }),
  );
  parseTargetUrl(body.url);
  const llm = promptLlm({}, deps.config);
  return compatMetered(guard, request, set, "crawl-preview", async () => {
    const llmDeps = { config: deps.config, signal: request.signal, apiBasePolicy: "trust" as const };
    const { params } = await crawlFromPrompt(body, llm, llmDeps);
    return { body: { success: true as const, data: firecrawlParams(body.url, params) }, credits: 0 };
  });
}

/**
 * Firecrawl's crawl routes that siphon's own API does not have: POST/GET/DELETE /v2/crawl[/:id],
 * GET /v1|v2/crawl/active, GET /v1|v2/crawl/:id/errors (and DELETE on v1's, which the v1 client
 * sends). POST/GET/DELETE /v1/crawl[/:id] are siphon's own routes, which serve Firecrawl
 * clients through server/compat/shared.ts.
 */
export function crawlRoutes(deps: JobDeps, guard: Guard) {
  const errors = async ({ params, request }: { params: { id: string }; request: Request }) => {
    // The v1 client reads a batch's errors here too; for anything else the crawl's refusal stands.
    const job = await callerJob(guard, request, params.id, "crawl").catch((refusal) =>
      firecrawlBatch(guard, request, params.id).catch(() => Promise.reject(refusal)),
    );
    return pagesErrors(guard, job);
  };
  const errorsDoc = {
    detail: {
      summary: "A crawl's failed pages (Firecrawl)",
      description: "{success, errors: [{id, timestamp, url, code, error}], robotsBlocked: []}. Not metered.",
    },
  };
  const activeDoc = {
    detail: {
      summary: "Your crawls still running (Firecrawl)",
      description: "{success, crawls: [{id, teamId, url, options}]}. Not metered.",
    },
  };
  return compatPlugin("compat:crawl")
    .post("/v2/crawl", ({ body, set, request }) => startCrawl(2, body, deps, guard, request, set), {
      detail: {
        summary: "Start a crawl (Firecrawl v2)",
        description: startDescription(2),
        requestBody: jsonRequestBody(FirecrawlCrawlBody),
      } as never,
    })
    .post(
      "/v2/crawl/params-preview",
      ({ body, set, request }) => previewCrawl(body, deps, guard, request, set),
      {
        detail: {
          summary: "Preview the crawl options a prompt gives (Firecrawl v2)",
          description:
            "{url, prompt} -> {success, data: {url, includePaths, excludePaths, maxDiscoveryDepth, limit, allowSubdomains, sitemap, crawlEntireDomain}}, by the operator's LLM (SIPHON_LLM_*); without one a 400. No credit.",
          requestBody: jsonRequestBody(PreviewBody),
        } as never,
      },
    )
    .get("/v1/crawl/active", ({ request }) => activeCrawls(guard, request), activeDoc)
    .get("/v2/crawl/active", ({ request }) => activeCrawls(guard, request), activeDoc)
    .use(
      pollAndCancelRoutes(
        "/v2/crawl",
        "crawl",
        {
          what: "crawl",
          poll: "{success, status: scraping|completed|failed|cancelled, total, completed, creditsUsed, expiresAt, data: [documents], next?}: next (absolute, on the request's own origin) pages with ?skip=&limit= (default 100) and is left out on the last page. Not metered.",
        },
        deps,
        guard,
      ),
    )
    .get("/v1/crawl/:id/errors", errors, errorsDoc)
    .delete("/v1/crawl/:id/errors", errors, errorsDoc)
    .get("/v2/crawl/:id/errors", errors, errorsDoc);
}

import { Type as T } from "@sinclair/typebox";
import { SiphonError, toSiphonError } from "../../src/errors.ts";
import { parseTargetUrl } from "../../src/fetch/url.ts";
import { refusedUrls } from "../../src/jobs/submit.ts";
import type { BatchInput } from "../../src/schemas/jobs.ts";
import { BatchBody, DEFAULT_MAX_CONCURRENCY } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { compatPlugin } from "./http.ts";
import { callerJob, type JobDeps, pagesErrors, pollAndCancelRoutes, startFirecrawlJob } from "./job-view.ts";
import { jobPages } from "./page-options.ts";
import { ScrapeBody } from "./scrape-body.ts";
import { FirecrawlWebhook, toWebhook } from "./webhook.ts";

/** Most URLs in one batch (siphon's BatchBody). */
const MAX_URLS = 100;

/** A batch's own keys; the rest of its body is the scrape of every URL (POST /v2/scrape's body). */
const BatchKeys = T.Object(
  {
    urls: T.Array(T.String(), { minItems: 1, maxItems: MAX_URLS, description: "Up to 100 URLs" }),
    webhook: T.Optional(FirecrawlWebhook),
    ignoreInvalidURLs: T.Optional(
      T.Boolean({
        description: "Leave invalid URLs out (listed in invalidURLs) instead of refusing the batch",
      }),
    ),
    maxConcurrency: T.Optional(T.Integer({ minimum: 1, description: "Pages at once (at most 5)" })),
  },
  { additionalProperties: false },
);
const BATCH_KEYS = Object.keys(BatchKeys.properties);

/** POST /v1/batch/scrape (a Firecrawl client's) and POST /v2/batch/scrape, for the OpenAPI document. */
export const FirecrawlBatchBody = T.Composite([BatchKeys, T.Omit(ScrapeBody, ["url"])], {
  additionalProperties: false,
});

/** The URLs of a request siphon can fetch, and the ones it left out (ignoreInvalidURLs); refuses an invalid one otherwise. */
export function checkUrls(urls: string[], ignoreInvalid: boolean): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const [index, url] of urls.entries()) {
    try {
      parseTargetUrl(url);
      valid.push(url);
    } catch (raw) {
      if (!ignoreInvalid) {
        const error = toSiphonError(raw);
        throw new SiphonError(error.type, `urls[${index}]: ${error.message}`, {
          hint: "Fix the URL, or send ignoreInvalidURLs: true to scrape the others.",
        });
      }
      invalid.push(url);
    }
  }
  if (!valid.length) throw new SiphonError("invalid_request", "urls holds no URL siphon can scrape");
  return { valid, invalid };
}

/** A Firecrawl batch request as siphon's batch, its pages scrapes of the rest of the body. */
function toBatch(raw: unknown, version: 1 | 2) {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new SiphonError("invalid_request", "The request body must be a JSON object");
  }
  const own: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    // Copied into a fresh object, "__proto__" would set its prototype rather than be refused.
    if (key === "__proto__")
      throw new SiphonError("invalid_request", 'Unrecognized key in body: "__proto__"');
    if (BATCH_KEYS.includes(key)) own[key] = value;
    else if (key === "appendToId" && value !== undefined && value !== null) {
      throw new SiphonError("not_implemented", "appendToId is not supported by siphon", {
        hint: "Start a new batch; each batch is its own job.",
      });
    } else if (key !== "appendToId") options[key] = value;
  }
  const body = validate(BatchKeys, own);
  const pages = jobPages(options, version, "");
  const { valid, invalid } = checkUrls(body.urls, body.ignoreInvalidURLs === true);
  const input = validate(BatchBody, {
    urls: valid,
    maxConcurrency: Math.min(body.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY, DEFAULT_MAX_CONCURRENCY),
  });
  const webhook = toWebhook(body.webhook, "batch_scrape");
  return { input, pages, webhook, invalidURLs: body.ignoreInvalidURLs ? invalid : undefined };
}

/**
 * The URLs of a Firecrawl batch once its caller is admitted: a URL the SSRF guard refuses (an
 * internal address, a name resolving to one) refuses the request with 403, as Firecrawl refuses
 * a URL it will not scrape, unless ignoreInvalidURLs leaves it out and lists it in `invalidURLs`
 * with the others.
 */
function admitUrls(invalidURLs: string[] | undefined) {
  return async (input: BatchInput, config: JobDeps["config"]): Promise<BatchInput> => {
    const refused = await refusedUrls(input.urls, config);
    const index = input.urls.findIndex((url) => refused.has(url));
    if (index < 0) return input;
    if (!invalidURLs) {
      const error = refused.get(input.urls[index] ?? "") as SiphonError;
      throw new SiphonError(error.type, `urls[${index}]: ${error.message}`, {
        hint: "Leave the URL out, or send ignoreInvalidURLs: true to scrape the others.",
      });
    }
    invalidURLs.push(...input.urls.filter((url) => refused.has(url)));
    const urls = input.urls.filter((url) => !refused.has(url));
    if (!urls.length) throw new SiphonError("invalid_request", "urls holds no URL siphon can scrape");
    return { ...input, urls };
  };
}

/**
 * Starts a batch scrape from a Firecrawl request (v1 or v2): 200 `{success, id, url,
 * invalidURLs?}`. One request in the burst window; pages are charged as fetched.
 */
export function startBatch(
  version: 1 | 2,
  raw: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const batch = toBatch(raw, version);
  // Filled by the submit with the URLs it leaves out, before the answer is made.
  const extra = batch.invalidURLs ? { invalidURLs: batch.invalidURLs } : {};
  return startFirecrawlJob(
    "batch",
    `/v${version}/batch/scrape`,
    { ...batch, admit: admitUrls(batch.invalidURLs) },
    { deps, guard, request, set },
    extra,
  );
}

const START =
  "Firecrawl's batch scrape start: 200 {success, id, url, invalidURLs?}. urls (up to 100; an invalid one is a 400, one the SSRF guard refuses a 403, unless ignoreInvalidURLs, which lists it in invalidURLs), maxConcurrency (at most 5), webhook (a URL or {url, headers, metadata, events, secret}: batch_scrape.started, .page, .completed, .failed, signed X-Firecrawl-Signature with secret), and the rest of the body is POST /v2/scrape's, the scrape of every URL. appendToId is refused (400 not_implemented). Errors are Firecrawl's.";

/**
 * Firecrawl's batch routes that siphon's own API does not have: POST/GET/DELETE
 * /v2/batch/scrape[/:id] and GET /v1|v2/batch/scrape/:id/errors (and DELETE on v1's, which the
 * v1 client sends). POST/GET/DELETE /v1/batch/scrape[/:id] are siphon's own routes, which serve
 * Firecrawl clients through server/compat/shared.ts.
 */
export function batchRoutes(deps: JobDeps, guard: Guard) {
  const errors = async ({ params, request }: { params: { id: string }; request: Request }) =>
    pagesErrors(guard, await callerJob(guard, request, params.id, "batch"));
  const errorsDoc = {
    detail: {
      summary: "A batch's failed pages (Firecrawl)",
      description: "{success, errors: [{id, timestamp, url, code, error}], robotsBlocked: []}. Not metered.",
    },
  };
  return compatPlugin("compat:batch")
    .post("/v2/batch/scrape", ({ body, set, request }) => startBatch(2, body, deps, guard, request, set), {
      detail: {
        summary: "Start a batch scrape (Firecrawl v2)",
        description: START,
        requestBody: jsonRequestBody(FirecrawlBatchBody),
      } as never,
    })
    .use(
      pollAndCancelRoutes(
        "/v2/batch/scrape",
        "batch",
        {
          what: "batch scrape",
          poll: "As a crawl's poll: {success, status, total, completed, creditsUsed, expiresAt, data, next?}. Not metered.",
        },
        deps,
        guard,
      ),
    )
    .get("/v1/batch/scrape/:id/errors", errors, errorsDoc)
    .delete("/v1/batch/scrape/:id/errors", errors, errorsDoc)
    .get("/v2/batch/scrape/:id/errors", errors, errorsDoc);
}

import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { parseDocument } from "../../src/pipeline/parse.ts";
import { PARSE_OPTIONS, ParseOptions } from "../../src/schemas/parse.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { Guard } from "../guard.ts";
import { readUpload } from "../upload.ts";
import { compatMetered, compatPlugin, readFirecrawlBody } from "./http.ts";
import { ScrapeBody, scrapeFields } from "./scrape-body.ts";
import { toDocument, toScrapeRequest } from "./scrape-map.ts";

/** Scrape options about the live page, which the SDK refuses for parse itself; refused here too. */
const LIVE_OPTIONS = [
  "waitFor",
  "actions",
  "mobile",
  "location",
  "maxAge",
  "minAge",
  "storeInCache",
  "lockdown",
  "headers",
];

/**
 * Firecrawl's parse (the SDK's `parse(file, options)`): a multipart upload of `file` and
 * `options` (a scrape body without a URL) read as siphon's parse, answered as Firecrawl's
 * scrape document. The options are mapped as a scrape's are (formats, onlyMainContent defaulting
 * to true, json and summary with the caller's or the operator's LLM).
 */
async function parse(
  raw: unknown,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
  log?: (line: string) => void,
) {
  const upload = await readUpload(raw);
  const { filename: named, contentType, url, ...rest } = upload.options;
  const filename = typeof named === "string" && named ? named : upload.filename;
  const sourceURL = typeof url === "string" ? url : `file:///${encodeURIComponent(filename)}`;
  const live = LIVE_OPTIONS.find((key) => rest[key] !== undefined);
  if (live)
    throw new SiphonError("invalid_request", `parse does not take ${live}: a document has no live page`);
  const body = validate(ScrapeBody, readFirecrawlBody({ ...rest, url: sourceURL }, scrapeFields(2)));
  return compatMetered(guard, request, set, "parse", async (admission) => {
    const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
    const { request: mapped, asked } = toScrapeRequest(body, 2, accountId);
    const format = asked.screenshot
      ? "screenshot"
      : asked.branding
        ? "branding"
        : asked.changeTracking
          ? "changeTracking"
          : undefined;
    if (format)
      throw new SiphonError(
        "invalid_request",
        `parse does not make the ${format} format: a document has no live page`,
      );
    const given: Record<string, unknown> = { filename, contentType: contentType ?? upload.contentType, url };
    for (const key of PARSE_OPTIONS) {
      const value = (mapped.fetch as Record<string, unknown>)[key];
      if (value !== undefined) given[key] = value;
    }
    given.timeout = mapped.timeoutMs;
    const outcome = await parseDocument(
      {
        options: validate(ParseOptions, JSON.parse(JSON.stringify(given))),
        body: upload.bytes,
        accountId,
        serviceLlm: true,
        meta: true,
        summary: asked.summary,
      },
      { ...deps, signal: request.signal, apiBasePolicy: "guard", llmLog: log },
    );
    const data = toDocument(outcome, asked, {
      sourceURL,
      scrapeId: String(set.headers["x-request-id"] ?? crypto.randomUUID()),
      creditsUsed: outcome.credits,
      now: (deps.now ?? Date.now)(),
    });
    return { body: { success: true as const, data }, credits: outcome.credits, tokens: outcome.tokens };
  });
}

/** POST /v2/parse: Firecrawl's file upload over siphon's parse. */
export function parseRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return compatPlugin("compat:parse").post(
    "/v2/parse",
    ({ body, set, request }) => parse(body, deps, guard, request, set, log),
    {
      detail: {
        summary: "Read an uploaded document (Firecrawl v2 parse)",
        description:
          "Firecrawl's parse: multipart/form-data with `file` and `options` (JSON: a scrape body without url: formats, onlyMainContent, includeTags, excludeTags, timeout, LLM fields); answers {success, data: document} as a scrape does. HTML, PDF, DOCX, JSON, XML and text, up to SIPHON_MAX_BODY_BYTES. Screenshots, branding, change tracking, actions and cache options are 400s.",
      } as never,
    },
  );
}

import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { LlmDeps, LlmTarget } from "../llm/index.ts";
import type { FetchInput } from "../schemas/fetch.ts";
import { ScreenshotBody, type ScreenshotInput } from "../schemas/screenshot.ts";
import { validate } from "../schemas/validate.ts";
import { asksExtraction, inlineRequest, isJsonFormat } from "../structured/inline.ts";
import type { ExtractRequest } from "../structured/request.ts";
import { serviceLlm } from "../summary/index.ts";
import type { GivenDocument } from "./document.ts";
import {
  type ChangeTrackingFormat,
  type ResolvedFormats,
  resolveFormats,
  type ScreenshotFormat,
} from "./formats.ts";

/**
 * One page operation, everything a page can be asked for: the fetch (formats, extraction, LLM
 * fields, browser and cache options, timeout) and what is made of its one answer besides the
 * formats. Every surface builds one: native routes, the CLI and MCP from a FetchBody alone;
 * Firecrawl's routes set the fields below from their own shapes.
 */
export interface ScrapeRequest {
  /** The page: a validated FetchBody. `formats` may name summary, branding and changeTracking. */
  fetch: FetchInput;
  /** Whose scrape it is: change tracking compares with the same account's previous scrape. */
  accountId: string;
  /** The whole operation answers within this (ms) or throws timeout; default `fetch.timeout`, else no bound. */
  timeoutMs?: number;
  /** A summary, as "summary" in formats asks. */
  summary?: boolean;
  /** The branding profile, as "branding" in formats asks. */
  branding?: boolean;
  /** Change tracking, as a changeTracking format asks; `record` false leaves no snapshot. */
  changeTracking?: ChangeTrackingFormat;
  /** A screenshot with a quality or viewport, taken beside the fetch (a formats entry with them asks for this too). */
  screenshot?: ScreenshotFormat;
  /** Read the page's meta tags (Firecrawl's document metadata). */
  meta?: boolean;
  /** A document to read instead of fetching `fetch.url` (which then only names it): parse. */
  document?: GivenDocument;
  /**
   * With no LLM in the request, the operator's (SIPHON_LLM_*) fills extraction and writes the
   * summary (Firecrawl's routes). Without it only the request's own LLM is used, else none: a
   * schema is filled from the page's structured data and a summary is extractive.
   */
  serviceLlm?: boolean;
}

/** The LLM a scrape uses, and how its base URL is treated. */
export interface PlannedLlm {
  target?: LlmTarget;
  policy: LlmDeps["apiBasePolicy"];
}

/** A scrape request checked and laid out: what to fetch, and what to make of the answer. */
export interface ScrapePlan {
  /** The fetch to make: its own formats plus the markdown and raw HTML the rest reads. */
  fetch: FetchInput;
  /** Result fields only the rest asked for, dropped from the answer. */
  added: string[];
  extraction?: ExtractRequest;
  llm: PlannedLlm;
  summary: boolean;
  branding: boolean;
  changeTracking?: ChangeTrackingFormat;
  /** Attribute values to read off the page (an attributes format). */
  attributes?: ResolvedFormats["attributes"];
  /** The query of a highlights format. */
  highlights?: ResolvedFormats["highlights"];
  /** The options of a chunks format. */
  chunks?: ResolvedFormats["chunks"];
  /** A question format's question. */
  question?: ResolvedFormats["question"];
  /** The screenshot taken beside the fetch, as POST /v1/screenshot's input. */
  screenshot?: ScreenshotInput;
  meta: boolean;
  timeoutMs?: number;
}

const LLM_FIELDS = ["llmProvider", "llmApiKey", "llmModel", "llmApiBase"] as const;
/** A copy of a request without some of its fields. */
function without(input: FetchInput, keys: readonly string[]): FetchInput {
  const copy: Record<string, unknown> = { ...input };
  for (const key of keys) delete copy[key];
  return copy as FetchInput;
}

/** Formats made of the fetch's answer by the scrape operation, not by fetchPage. */
const SCRAPE_ONLY = new Set([
  "summary",
  "branding",
  "changeTracking",
  "attributes",
  "highlights",
  "question",
  "chunks",
]);
const CONTENT_FORMATS = ["markdown", "text", "html"];

const typeOf = (entry: unknown): string | undefined =>
  typeof entry === "string"
    ? entry
    : typeof entry === "object" && entry !== null
      ? ((entry as { type?: unknown }).type as string | undefined)
      : undefined;

const isScreenshot = (entry: unknown) => entry === "screenshot@fullPage" || typeOf(entry) === "screenshot";

/** The caller's LLM from the request's fields (a provider or a key names one); undefined when it names none. */
function callerLlm(input: FetchInput): LlmTarget | undefined {
  if (input.llmProvider === undefined && input.llmApiKey === undefined) return undefined;
  return {
    provider: input.llmProvider ?? "openai",
    apiKey: input.llmApiKey,
    model: input.llmModel,
    apiBase: input.llmApiBase,
  };
}

/** The LLM fields a target is spelled with in a request. */
function fieldsOf(target: LlmTarget | undefined): Partial<FetchInput> {
  if (!target) return {};
  const fields: Partial<FetchInput> = { llmProvider: target.provider };
  if (target.apiKey !== undefined) fields.llmApiKey = target.apiKey;
  if (target.model !== undefined) fields.llmModel = target.model;
  if (target.apiBase !== undefined) fields.llmApiBase = target.apiBase;
  return fields;
}

/** Which LLM the request uses: its own, else (when the surface says so) the operator's, else none. */
function planLlm(request: ScrapeRequest, config: Config, policy: LlmDeps["apiBasePolicy"]): PlannedLlm {
  const caller = callerLlm(request.fetch);
  if (caller) return { target: caller, policy };
  const service = request.serviceLlm ? serviceLlm(config) : undefined;
  // The operator's base URL is configuration, trusted like SIPHON_<VENDOR>_BASE_URL.
  return service ? { target: service, policy: "trust" } : { policy };
}

/** The fetch's own formats, and the markdown and raw HTML the rest of the scrape reads. */
function fetchFormats(
  input: FetchInput,
  needs: string[],
  dropScreenshot: boolean,
): { formats: unknown[] | undefined; added: string[] } {
  const all = input.formats ?? [];
  const kept = all.filter(
    (entry) =>
      !isJsonFormat(entry) &&
      !SCRAPE_ONLY.has(typeOf(entry) ?? "") &&
      !(dropScreenshot && isScreenshot(entry)),
  );
  if (kept.length === all.length && needs.length === 0) return { formats: input.formats, added: [] };
  const named = new Set(kept.map(typeOf));
  const formats: unknown[] = [...kept];
  const added: string[] = [];
  // Without a content format of its own, `content` stays in `format`: named first, and dropped after.
  if (!CONTENT_FORMATS.some((format) => named.has(format))) {
    formats.unshift(input.format);
    added.push(input.format);
    named.add(input.format);
  }
  for (const format of needs) {
    if (!named.has(format) && !formats.includes(format)) {
      formats.push(format);
      added.push(format);
    }
  }
  return { formats, added };
}

/**
 * What a given document (parse) cannot have: it has no live page to render, act on, screenshot,
 * compare over time or read stylesheets from, and nothing is cached. Throws invalid_request naming it.
 */
function refuseLivePage(
  input: FetchInput,
  asked: { changeTracking?: unknown; branding: boolean; screenshot?: unknown },
): void {
  const live = [
    input.render && "render",
    input.wait > 0 && "wait",
    input.stealth && "stealth",
    input.actions?.length && "actions",
    input.headers && "headers",
    input.cookies?.length && "cookies",
    input.location && "location",
    input.languages?.length && "languages",
    input.lockdown && "lockdown",
    input.minAge !== undefined && "minAge",
    asked.screenshot && "a screenshot",
    asked.changeTracking && "changeTracking",
    asked.branding && "branding",
  ].find(Boolean);
  if (live) {
    throw new SiphonError(
      "invalid_request",
      `A document given to read has no live page: ${live} does not apply`,
      {
        hint: "Ask for its content (markdown, text, html, links, images), json, a summary, highlights, attributes or a question.",
      },
    );
  }
}

/**
 * Checks a scrape request before anything is fetched and lays it out: every formats entry
 * (resolveFormats), the extraction (inlineRequest), the LLM (the request's, or the operator's
 * when `serviceLlm`), the screenshot beside the fetch. Throws SiphonError invalid_request for
 * what the request gets wrong, answer_failed for a misconfigured operator LLM.
 */
export async function planScrape(
  request: ScrapeRequest,
  deps: { config: Config; apiBasePolicy?: LlmDeps["apiBasePolicy"] },
): Promise<ScrapePlan> {
  const input = request.fetch;
  const formats = resolveFormats({
    ...input,
    formats: (input.formats ?? []).filter((e) => !isJsonFormat(e)),
  });
  const summary = request.summary === true || formats.summary;
  const branding = request.branding === true || formats.branding;
  const changeTracking = request.changeTracking ?? formats.changeTracking;
  const shotOptions = formats.screenshot;
  const ownOptions =
    shotOptions &&
    (shotOptions.quality !== undefined ||
      shotOptions.width !== undefined ||
      shotOptions.height !== undefined);
  const beside = request.screenshot ?? (ownOptions ? shotOptions : undefined);
  const timeoutMs = request.timeoutMs ?? input.timeout;

  if (request.document)
    refuseLivePage(input, { changeTracking, branding, screenshot: formats.screenshot ?? beside });
  const cacheOnly = input.lockdown ? "lockdown" : input.minAge !== undefined ? "minAge" : undefined;
  if (cacheOnly) {
    const reaches = changeTracking
      ? "change tracking compares the page as it is now"
      : branding
        ? "branding reads the site's stylesheets"
        : beside
          ? "a screenshot renders the page"
          : undefined;
    if (reaches) {
      throw new SiphonError("invalid_request", `${cacheOnly} never reaches the site, and ${reaches}`, {
        hint: `Drop ${cacheOnly}, or ask for what the cached page holds (markdown, html, links, json, summary).`,
      });
    }
  }

  const llm = planLlm(request, deps.config, deps.apiBasePolicy);
  const extracting = asksExtraction(input);
  // With the operator's LLM the request's own fields are replaced by the LLM chosen, and only
  // an extraction or a summary reads them (Firecrawl's bodies may carry them regardless).
  const forExtraction: FetchInput = request.serviceLlm
    ? { ...without(input, LLM_FIELDS), ...(extracting ? fieldsOf(llm.target) : {}) }
    : input;
  const extraction = await inlineRequest(forExtraction);
  // Extraction checked the LLM fields; a summary or a question alone checks them as extraction does.
  const asksLlm = summary || formats.question !== undefined;
  if (asksLlm && !extraction && input.llmProvider !== undefined && !input.llmApiKey && !input.llmApiBase) {
    throw new SiphonError("invalid_request", `llmProvider ${input.llmProvider} needs llmApiKey`, {
      hint: "Give your key for the vendor in llmApiKey, or leave llmProvider out for an extractive summary or a passage answer.",
    });
  }
  if (formats.attributes) {
    const { checkAttributeSelectors } = await import("../structured/attributes.ts");
    checkAttributeSelectors(formats.attributes);
  }

  const needs: string[] = [];
  const readsText =
    formats.highlights !== undefined || formats.question !== undefined || formats.chunks !== undefined;
  if (extraction || summary || changeTracking || readsText) needs.push("markdown");
  if (extraction || branding || request.meta || formats.attributes) needs.push("rawHtml");
  const { formats: fetchFormatsList, added } = fetchFormats(input, needs, beside !== undefined);
  const fetch = without(input, [...LLM_FIELDS, "extract", "timeout"]);
  if (fetchFormatsList === undefined) delete fetch.formats;
  else fetch.formats = fetchFormatsList;
  // A comparison with the previous scrape is only worth making against the page as it is now.
  if (changeTracking) fetch.maxAge = 0;

  const screenshot = beside
    ? validate(ScreenshotBody, {
        url: input.url,
        fullPage: beside.fullPage,
        width: beside.width,
        height: beside.height,
        format: beside.quality !== undefined ? "jpeg" : "png",
        quality: beside.quality,
        waitFor: input.wait,
        timeout: Math.min(120_000, Math.max(1000, timeoutMs ?? 30_000)),
        stealth: input.stealth,
        // What only makes an output (a PDF, a copy of the page) changes nothing the capture shows.
        actions: input.actions?.filter((action) => action.type !== "pdf" && action.type !== "scrape"),
        headers: input.headers,
        cookies: input.cookies,
      })
    : undefined;

  return {
    fetch,
    added,
    extraction,
    llm,
    summary,
    branding,
    changeTracking,
    attributes: formats.attributes,
    highlights: formats.highlights,
    question: formats.question,
    chunks: formats.chunks,
    screenshot,
    meta: request.meta === true,
    timeoutMs,
  };
}

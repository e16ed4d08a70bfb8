import { SiphonError } from "../../src/errors.ts";
import { DEFAULT_MAX_AGE_MS, FetchBody, type FetchInput, MAX_CACHE_AGE_MS } from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { ScrapeOutcome, ScrapeRequest } from "../../src/scrape/index.ts";
import type { ScrapeBody } from "./scrape-body.ts";

/** What the caller asked to see in the document: the fetch always renders more. */
export interface Asked {
  markdown: boolean;
  html: boolean;
  rawHtml: boolean;
  links: boolean;
  images: boolean;
  screenshot: boolean;
  /** The key extraction answers in: json, or v1's extract. */
  json?: "json" | "extract";
  summary: boolean;
  branding: boolean;
  changeTracking: boolean;
  attributes: boolean;
  highlights: boolean;
  /** A question (or v1's query format): the document's answer. */
  answer: boolean;
}

/** A phone's User-Agent for `mobile: true` (Safari on iOS 18). */
export const MOBILE_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
const MOBILE_VIEWPORT = { width: 390, height: 844 };

const DEFAULT_TIMEOUT_MS = 30_000;

const notSupported = (what: string, hint?: string) =>
  new SiphonError("not_implemented", `${what} is not supported by siphon`, hint ? { hint } : {});

type Entry = string | { type: string; [key: string]: unknown };

function extractionPrompt(options: { prompt?: string; systemPrompt?: string }): string | undefined {
  const parts = [options.systemPrompt, options.prompt].filter((p): p is string => !!p?.trim());
  return parts.length ? parts.join("\n\n") : undefined;
}

/**
 * Firecrawl's actions as siphon's: wait (milliseconds, or a selector), click, write (typed into
 * the field the click before it focused), press, scroll (up or down), screenshot,
 * executeJavascript, pdf and scrape. What siphon's browser lacks (click all, scrolling an
 * element, screenshot quality or viewport) is refused by name.
 */
export function mapActions(
  actions: { type: string; [key: string]: unknown }[] | undefined,
): unknown[] | undefined {
  if (!actions) return undefined;
  let focused: string | undefined;
  return actions.map((action, index) => {
    const where = `actions[${index}] (${action.type})`;
    switch (action.type) {
      case "wait":
        if (typeof action.selector === "string")
          return { type: "waitForSelector", selector: action.selector };
        return { type: "wait", ms: action.milliseconds ?? action.ms };
      case "click":
        if (action.all === true) throw notSupported(`${where} with all: true`);
        focused = typeof action.selector === "string" ? action.selector : undefined;
        return { type: "click", selector: action.selector };
      case "write":
        if (!focused) {
          throw new SiphonError(
            "invalid_request",
            `${where}: write types into the field a click before it focused`,
            {
              hint: 'Put {"type":"click","selector":"…"} on the field first.',
            },
          );
        }
        return { type: "type", selector: focused, text: action.text };
      case "press":
        return { type: "press", key: action.key };
      case "scroll":
        if (action.selector !== undefined)
          throw notSupported(`${where} with a selector (scrolling an element)`);
        return { type: "scroll", direction: action.direction ?? "down" };
      case "screenshot":
        if (action.quality !== undefined || action.viewport !== undefined)
          throw notSupported(`${where} with quality or viewport`, "Action screenshots are full-size PNGs.");
        return { type: "screenshot", fullPage: action.fullPage === true };
      case "executeJavascript":
        return { type: "executeJavascript", script: action.script };
      case "pdf":
        return { type: "pdf", format: action.format, landscape: action.landscape, scale: action.scale };
      case "scrape":
        return { type: "scrape" };
      default:
        throw new SiphonError("invalid_request", `${where}: unknown action type`, {
          hint: "Firecrawl's actions siphon runs: wait, click, write, press, scroll, screenshot, executeJavascript, pdf, scrape.",
        });
    }
  });
}

/**
 * A Firecrawl scrape body (v1 or v2, already read by readFirecrawlBody and validated against
 * ScrapeBody) as siphon's scrape, and what the answer must show. Formats: markdown, html,
 * rawHtml, links, images, screenshot (and v1's screenshot@fullPage; fullPage, quality,
 * viewport), json ({type:"json",schema,prompt}; v1's json with jsonOptions and extract with
 * extract), summary, branding, changeTracking (git-diff mode), attributes, highlights, question
 * (and the deprecated query). The rest is refused by name.
 */
export function toScrapeRequest(
  body: ScrapeBody,
  version: 1 | 2,
  accountId: string,
): { request: ScrapeRequest & { timeoutMs: number }; asked: Asked } {
  const asked: Asked = {
    markdown: false,
    html: false,
    rawHtml: false,
    links: false,
    images: false,
    screenshot: false,
    summary: false,
    branding: false,
    changeTracking: false,
    attributes: false,
    highlights: false,
    answer: false,
  };
  const fetchFormats: unknown[] = [];
  let screenshot: { fullPage: boolean; quality?: number; width?: number; height?: number } | undefined;
  let changeTracking: { gitDiff: boolean; tag: string; record: boolean } | undefined;
  let json: { schema?: Record<string, unknown>; prompt?: string } | undefined;
  const addJson = (
    key: "json" | "extract",
    spec: { schema?: unknown; prompt?: string; systemPrompt?: string } | undefined,
  ) => {
    if (asked.json) throw new SiphonError("invalid_request", "Ask for one of json and extract, once");
    asked.json = key;
    json = {};
    if (spec?.schema !== undefined) json.schema = spec.schema as Record<string, unknown>;
    const prompt = extractionPrompt(spec ?? {});
    if (prompt) json.prompt = prompt;
  };
  const trackChanges = (spec: { modes?: unknown; tag?: unknown } | undefined) => {
    const modes = Array.isArray(spec?.modes) ? spec.modes : [];
    if (modes.includes("json")) {
      throw notSupported(
        'changeTracking mode "json"',
        'Use mode "git-diff", or the json format on each scrape.',
      );
    }
    asked.changeTracking = true;
    changeTracking = {
      gitDiff: modes.includes("git-diff"),
      tag: typeof spec?.tag === "string" ? spec.tag : "",
      record: body.zeroDataRetention !== true,
    };
  };

  const entries = (body.formats ?? ["markdown"]) as Entry[];
  for (const [index, entry] of entries.entries()) {
    const type = typeof entry === "string" ? entry : entry.type;
    const options: Record<string, unknown> = typeof entry === "string" ? {} : entry;
    switch (type) {
      case "markdown":
      case "html":
      case "rawHtml":
      case "links":
      case "images":
        asked[type] = true;
        if (!fetchFormats.includes(type)) fetchFormats.push(type);
        break;
      case "screenshot":
      case "screenshot@fullPage": {
        asked.screenshot = true;
        const viewport = options.viewport as { width?: number; height?: number } | undefined;
        screenshot = {
          fullPage: type === "screenshot@fullPage" || options.fullPage === true,
          quality: typeof options.quality === "number" ? options.quality : undefined,
          width: viewport?.width,
          height: viewport?.height,
        };
        break;
      }
      case "json":
        if (typeof entry === "string") {
          if (version === 2) {
            throw new SiphonError(
              "invalid_request",
              'The json format is an object: {"type":"json","schema":{…},"prompt":"…"}',
            );
          }
          addJson("json", body.jsonOptions);
        } else addJson("json", options as { schema?: unknown; prompt?: string });
        break;
      case "extract":
        if (version !== 1)
          throw new SiphonError("invalid_request", `formats[${index}]: use {"type":"json"} on v2`);
        addJson("extract", body.extract);
        break;
      case "summary":
        asked.summary = true;
        break;
      case "branding":
        asked.branding = true;
        break;
      case "changeTracking":
        trackChanges(typeof entry === "string" ? body.changeTrackingOptions : options);
        break;
      case "attributes":
      case "highlights":
      case "question":
        // The core's own entries: checked (and refused with the field named) by resolveFormats.
        asked[type === "question" ? "answer" : type] = true;
        fetchFormats.push(entry);
        break;
      case "query": {
        // The deprecated query format: a question; directQuote answers with the page's own words.
        asked.answer = true;
        const { type: _type, prompt, mode, ...rest } = options;
        if (mode !== undefined && mode !== "freeform" && mode !== "directQuote") {
          throw new SiphonError(
            "invalid_request",
            `formats[${index}] (query): mode is freeform or directQuote`,
          );
        }
        fetchFormats.push({ ...rest, type: "question", question: prompt, quote: mode === "directQuote" });
        break;
      }
      case "product":
      case "menu":
      case "audio":
      case "video":
      case "content":
        throw notSupported(`The ${type} format`);
      default:
        throw new SiphonError("invalid_request", `formats[${index}]: unknown format "${String(type)}"`, {
          hint: "siphon's Firecrawl formats: markdown, html, rawHtml, links, images, screenshot, json, summary, branding, changeTracking, attributes, highlights, question.",
        });
    }
  }
  if (!asked.json && (body.jsonOptions || body.extract)) {
    throw new SiphonError(
      "invalid_request",
      "jsonOptions and extract need the json or extract format in formats",
    );
  }

  // SPEC's screenshot fields on the body, and mobile's phone viewport.
  const topLevel = [body.fullPage, body.width, body.height, body.screenshotFormat, body.quality].some(
    (v) => v !== undefined,
  );
  if (topLevel && !screenshot) {
    throw new SiphonError(
      "invalid_request",
      "fullPage, width, height, screenshotFormat and quality apply to a screenshot",
      {
        hint: 'Add "screenshot" to formats.',
      },
    );
  }
  if (screenshot) {
    if (body.fullPage !== undefined) screenshot.fullPage = body.fullPage;
    screenshot.width ??= body.width ?? (body.mobile ? MOBILE_VIEWPORT.width : undefined);
    screenshot.height ??= body.height ?? (body.mobile ? MOBILE_VIEWPORT.height : undefined);
    screenshot.quality ??= body.quality ?? (body.screenshotFormat === "jpeg" ? 80 : undefined);
  }
  // The pipeline's own capture is a PNG of the default viewport; anything else is the screenshot pipeline's.
  const ownCapture =
    screenshot &&
    screenshot.quality === undefined &&
    screenshot.width === undefined &&
    screenshot.height === undefined;
  if (screenshot && ownCapture) fetchFormats.push({ type: "screenshot", fullPage: screenshot.fullPage });

  const headers = { ...(body.headers ?? {}) };
  if (body.mobile && !Object.keys(headers).some((name) => name.toLowerCase() === "user-agent")) {
    headers["user-agent"] = MOBILE_USER_AGENT;
  }
  const fetchBody: Record<string, unknown> = {
    url: body.url,
    formats: [...fetchFormats, ...(json ? [{ type: "json", ...json }] : [])],
    onlyMainContent: body.onlyMainContent ?? true,
    includeTags: body.includeTags,
    excludeTags: body.excludeTags,
    headers: Object.keys(headers).length ? headers : undefined,
    wait: body.waitFor ?? 0,
    actions: mapActions(body.actions),
    location: body.location?.country,
    languages: body.location?.languages,
    stealth: body.proxy === "stealth" || body.proxy === "enhanced",
    // A cache-only scrape reads any age the cache keeps unless maxAge says otherwise.
    maxAge:
      body.maxAge ??
      (body.lockdown || body.minAge !== undefined
        ? MAX_CACHE_AGE_MS
        : version === 1
          ? 0
          : DEFAULT_MAX_AGE_MS),
    storeInCache: body.storeInCache ?? true,
    lockdown: body.lockdown,
    minAge: body.minAge,
    images: false,
    llmProvider: body.llmProvider,
    llmApiKey: body.llmApiKey,
    llmModel: body.llmModel,
    llmApiBase: body.llmApiBase,
  };
  for (const key of Object.keys(fetchBody)) if (fetchBody[key] === undefined) delete fetchBody[key];
  const fetch: FetchInput = validate(FetchBody, fetchBody);
  return {
    asked,
    request: {
      fetch,
      accountId,
      timeoutMs: body.timeout ?? DEFAULT_TIMEOUT_MS,
      summary: asked.summary,
      branding: asked.branding,
      changeTracking,
      screenshot: screenshot && !ownCapture ? screenshot : undefined,
      // Firecrawl's document carries the page's meta tags, and its hosted LLM serves json and summary.
      meta: true,
      serviceLlm: true,
    },
  };
}

/** The MIME type of what siphon read the page as (Firecrawl reports the answer's Content-Type). */
function mimeOf(kind: string, url: string): string {
  switch (kind) {
    case "html":
      return "text/html";
    case "json":
      return "application/json";
    case "xml":
      return "application/xml";
    case "text":
      return "text/plain";
    default:
      return /\.docx(\?|$)/i.test(url)
        ? "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        : "application/pdf";
  }
}

/** What the document says about an answer not written by an LLM. */
function answerNotes(question: NonNullable<ScrapeOutcome["question"]>): string[] {
  if (question.method === "llm") return [];
  if (question.answer === null) return ["The page has no passage with the question's words: no answer."];
  return ["The answer is the page's most relevant passage, word for word (no LLM)."];
}

const dataUrl = (base64: string, mime = "image/png") => `data:${mime};base64,${base64}`;

/** The request's context the document's metadata reports. */
export interface DocumentContext {
  /** The URL as the caller sent it. */
  sourceURL: string;
  scrapeId: string;
  creditsUsed: number;
  now: number;
}

/**
 * A scrape's outcome as Firecrawl's document: the asked formats, and metadata with Firecrawl's
 * keys (title, description, language, keywords, robots, og*, dc*, publishedTime, modifiedTime,
 * favicon, url, sourceURL, statusCode, contentType, proxyUsed, cacheState, cachedAt,
 * creditsUsed, scrapeId) over every <meta> of the page under its own name.
 */
export function toDocument(
  outcome: ScrapeOutcome,
  asked: Asked,
  context: DocumentContext,
): Record<string, unknown> {
  const { result, cache } = outcome;
  const doc: Record<string, unknown> = {};
  if (asked.markdown) doc.markdown = result.markdown ?? result.content;
  if (asked.html) doc.html = result.html ?? "";
  if (asked.rawHtml) doc.rawHtml = result.rawHtml ?? "";
  if (asked.links) doc.links = result.links;
  if (asked.images) doc.images = [...new Set((result.images ?? []).map((image) => image.src))];
  if (asked.screenshot) {
    const shot = outcome.screenshot ?? (result.screenshot ? dataUrl(result.screenshot) : undefined);
    if (shot) doc.screenshot = shot;
  }
  if (asked.json) doc[asked.json] = result.json ?? {};
  if (asked.summary && outcome.summary) doc.summary = outcome.summary.summary;
  if (asked.branding && outcome.branding) doc.branding = outcome.branding;
  if (asked.changeTracking && outcome.changeTracking) doc.changeTracking = outcome.changeTracking;
  if (asked.attributes && result.attributes) doc.attributes = result.attributes;
  if (asked.highlights && result.highlights !== undefined) doc.highlights = result.highlights;
  if (asked.answer && outcome.question?.answer != null) doc.answer = outcome.question.answer;
  if (result.actions) {
    doc.actions = {
      screenshots: result.actions.screenshots.map((s) => dataUrl(s)),
      scrapes: result.actions.scrapes,
      javascriptReturns: result.actions.javascriptReturns,
      pdfs: result.actions.pdfs.map((pdf) => dataUrl(pdf, "application/pdf")),
    };
  }
  const warnings = [result.warning, outcome.degraded, ...outcome.warnings].filter(Boolean);
  if (asked.changeTracking && !outcome.changeTracking)
    warnings.push("Change tracking is not supported with zero data retention.");
  if (asked.answer && outcome.question) warnings.push(...answerNotes(outcome.question));
  if (warnings.length) doc.warning = warnings.join(" ");

  const meta = outcome.meta;
  const metadata: Record<string, unknown> = { ...(meta?.tags ?? {}), ...(meta?.named ?? {}) };
  metadata.title = result.title || (meta?.tags["og:title"] as string | undefined) || "";
  const description = meta?.named.description ?? result.metadata.description;
  if (description) metadata.description = description;
  else delete metadata.description;
  if (meta?.language) metadata.language = meta.language;
  if (meta?.favicon) metadata.favicon = meta.favicon;
  if (!metadata.publishedTime && result.metadata.published)
    metadata.publishedTime = result.metadata.published;
  metadata.url = result.url;
  metadata.sourceURL = context.sourceURL;
  metadata.statusCode = result.statusCode;
  metadata.contentType = mimeOf(result.contentType, result.url);
  metadata.proxyUsed = result.method === "stealth" ? "stealth" : "basic";
  metadata.cacheState = cache.hit ? "hit" : "miss";
  if (cache.hit) metadata.cachedAt = new Date(context.now - (cache.ageSeconds ?? 0) * 1000).toISOString();
  metadata.creditsUsed = context.creditsUsed;
  metadata.scrapeId = context.scrapeId;
  if (result.statusCode >= 400) metadata.error = `The page answered HTTP ${result.statusCode}`;
  doc.metadata = metadata;
  return doc;
}

import { SiphonError } from "../errors.ts";
import type { OutputFormat } from "../extract/types.ts";
import type { FetchInput } from "../schemas/fetch.ts";
import {
  AttributesFormat,
  ChunksFormat,
  checkFormatEntry,
  HighlightsFormat,
  QuestionFormat,
} from "../schemas/formats.ts";

/** A screenshot as a formats entry asks for it. */
export interface ScreenshotFormat {
  fullPage: boolean;
  /** JPEG quality: a JPEG instead of a PNG. */
  quality?: number;
  /** A viewport of its own (px); default the browser's 1280x720. */
  width?: number;
  height?: number;
}

/** Change tracking as a formats entry asks for it. */
export interface ChangeTrackingFormat {
  /** A git-style diff of a changed page ("git-diff" in modes). */
  gitDiff: boolean;
  /** The history compared with: one per account, URL and tag ("" by default). */
  tag: string;
  /** False: compare without keeping this scrape as the next one's previous. */
  record: boolean;
}

/** Every output one scrape can make from its one fetch of the page. */
export interface ResolvedFormats {
  /** The format of `content`: the first content format `formats` names, else `format`. */
  format: OutputFormat;
  /** Content formats `formats` names, each returned in a field of its own (markdown, text, html). */
  contents: OutputFormat[];
  /** The page's HTML as fetched (or as rendered), in `rawHtml`. */
  rawHtml: boolean;
  /** `images` in the result (images=true, or "images" in formats). */
  images: boolean;
  /** Set when the formats array asks for a screenshot. */
  screenshot?: ScreenshotFormat;
  /** "summary": the page summarised (by an LLM, else extractively). */
  summary: boolean;
  /** "branding": the page's branding profile (colours, fonts, logo). */
  branding: boolean;
  /** "changeTracking": the page compared with the previous scrape of it. */
  changeTracking?: ChangeTrackingFormat;
  /** {type: "attributes"}: attribute values of the elements selectors match. */
  attributes?: AttributesFormat["selectors"];
  /** {type: "highlights"}: the passages most relevant to a query. */
  highlights?: { query: string };
  /** "chunks" or {type: "chunks"}: the markdown in chunks for retrieval, with these options. */
  chunks?: Omit<ChunksFormat, "type">;
  /** {type: "question"}: an answer from the page. */
  question?: { question: string; quote: boolean };
}

const CONTENT_FORMATS = new Set<string>(["markdown", "text", "html"]);
/** Formats fetchPage does not render itself; named, never silently ignored. */
const NOT_HERE: Record<string, string> = {
  // The scrape operation (src/pipeline/scrape.ts) takes json entries out before it calls fetchPage.
  json: "The json format is extraction: it is read by the scrape operation, not by fetchPage",
};
const KNOWN =
  "markdown, text, html, rawHtml, links, images, screenshot, json, summary, branding, changeTracking, attributes, highlights, question or chunks";

/** Most a tag may be: a label of the caller's, not a document. */
const MAX_TAG_LENGTH = 200;

type Entry = { type: string; options: Record<string, unknown> };

function entryOf(entry: unknown, index: number): Entry {
  if (typeof entry === "string") {
    // Firecrawl's v1 spelling of a full-page screenshot.
    if (entry === "screenshot@fullPage") return { type: "screenshot", options: { fullPage: true } };
    return { type: entry, options: {} };
  }
  if (entry && typeof entry === "object" && typeof (entry as { type?: unknown }).type === "string") {
    return { type: (entry as { type: string }).type, options: entry as Record<string, unknown> };
  }
  throw new SiphonError(
    "invalid_request",
    `formats[${index}] must be a format name or an object with a type`,
  );
}

const isInteger = (value: unknown, min: number, max: number) =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/** A screenshot entry's options: fullPage, quality 1-100 (JPEG), viewport {width, height} 100-5000 px (as POST /v1/screenshot). */
function screenshotOf(options: Record<string, unknown>, index: number): ScreenshotFormat {
  const where = `formats[${index}] (screenshot)`;
  const shot: ScreenshotFormat = { fullPage: options.fullPage === true };
  if (options.quality !== undefined) {
    if (!isInteger(options.quality, 1, 100))
      throw new SiphonError("invalid_request", `${where}: quality must be an integer from 1 to 100`);
    shot.quality = options.quality as number;
  }
  if (options.viewport !== undefined) {
    const viewport = options.viewport as { width?: unknown; height?: unknown } | null;
    for (const side of ["width", "height"] as const) {
      const value = viewport?.[side];
      if (value === undefined) continue;
      if (!isInteger(value, 100, 5000))
        throw new SiphonError(
          "invalid_request",
          `${where}: viewport.${side} must be an integer from 100 to 5000`,
        );
      shot[side] = value as number;
    }
  }
  return shot;
}

/** A changeTracking entry's options: modes (only "git-diff"), a tag, and record (default true). */
function changeTrackingOf(options: Record<string, unknown>, index: number): ChangeTrackingFormat {
  const where = `formats[${index}] (changeTracking)`;
  const modes = options.modes ?? [];
  if (!Array.isArray(modes) || modes.some((mode) => mode !== "git-diff" && mode !== "json")) {
    throw new SiphonError("invalid_request", `${where}: modes is a list of "git-diff"`);
  }
  if (modes.includes("json")) {
    throw new SiphonError("invalid_request", `${where}: the "json" mode is not supported`, {
      hint: 'Use mode "git-diff", or extraction (a json format) on each scrape.',
    });
  }
  const tag = options.tag ?? "";
  if (tag !== null && (typeof tag !== "string" || tag.length > MAX_TAG_LENGTH)) {
    throw new SiphonError(
      "invalid_request",
      `${where}: tag is a string of at most ${MAX_TAG_LENGTH} characters`,
    );
  }
  if (options.record !== undefined && typeof options.record !== "boolean") {
    throw new SiphonError("invalid_request", `${where}: record is true or false`);
  }
  return {
    gitDiff: modes.includes("git-diff"),
    tag: typeof tag === "string" ? tag : "",
    record: options.record !== false,
  };
}

/** The entries that read the page (attributes, highlights, question): objects, once each. */
function readingOf(
  resolved: ResolvedFormats,
  type: "attributes" | "highlights" | "question",
  raw: unknown,
  index: number,
): void {
  if (typeof raw === "string") {
    const example = {
      attributes: '{"type":"attributes","selectors":[{"selector":"a","attribute":"href"}]}',
      highlights: '{"type":"highlights","query":"…"}',
      question: '{"type":"question","question":"…"}',
    }[type];
    throw new SiphonError(
      "invalid_request",
      `formats[${index}]: the ${type} format is an object: ${example}`,
    );
  }
  if (resolved[type] !== undefined) {
    throw new SiphonError("invalid_request", `formats[${index}]: ask for ${type} once`);
  }
  if (type === "attributes") resolved.attributes = checkFormatEntry(AttributesFormat, raw, index).selectors;
  else if (type === "highlights")
    resolved.highlights = { query: checkFormatEntry(HighlightsFormat, raw, index).query };
  else {
    const entry = checkFormatEntry(QuestionFormat, raw, index);
    resolved.question = { question: entry.question, quote: entry.quote === true };
  }
}

/**
 * Reads the `formats` array of a fetch (POST /v1/fetch, jobs' page options, the CLI's
 * --formats): any set of markdown, text, html, rawHtml, links, images and screenshot, all
 * rendered from one fetch of the page, and summary, branding and changeTracking, made from that
 * same answer by the scrape operation, as are attributes, highlights and question (objects, see
 * src/schemas/formats.ts). `links` are always in the result; "json" is extraction
 * (the scrape operation reads it); anything else is named in a 400, as is a bad option of an
 * entry (a screenshot's quality or viewport, change tracking's modes or tag).
 */
export function resolveFormats(input: FetchInput): ResolvedFormats {
  const resolved: ResolvedFormats = {
    format: input.format,
    contents: [],
    rawHtml: false,
    images: input.images,
    summary: false,
    branding: false,
  };
  for (const [index, raw] of (input.formats ?? []).entries()) {
    const { type, options } = entryOf(raw, index);
    if (CONTENT_FORMATS.has(type)) {
      if (!resolved.contents.includes(type as OutputFormat)) resolved.contents.push(type as OutputFormat);
    } else if (type === "rawHtml") resolved.rawHtml = true;
    else if (type === "images") resolved.images = true;
    else if (type === "links") continue;
    else if (type === "screenshot") resolved.screenshot = screenshotOf(options, index);
    else if (type === "summary") resolved.summary = true;
    else if (type === "branding") resolved.branding = true;
    else if (type === "changeTracking") resolved.changeTracking = changeTrackingOf(options, index);
    else if (type === "attributes" || type === "highlights" || type === "question") {
      readingOf(resolved, type, raw, index);
    } else if (type === "chunks") {
      if (resolved.chunks) throw new SiphonError("invalid_request", `formats[${index}]: ask for chunks once`);
      const entry: ChunksFormat =
        typeof raw === "string" ? { type: "chunks" } : checkFormatEntry(ChunksFormat, raw, index);
      const { type: _type, ...options } = entry;
      if (options.overlap !== undefined && options.overlap >= (options.maxTokens ?? 512) / 2) {
        throw new SiphonError(
          "invalid_request",
          `formats[${index}]: overlap must be below half of maxTokens (${options.maxTokens ?? 512})`,
        );
      }
      resolved.chunks = options;
    } else if (NOT_HERE[type]) throw new SiphonError("invalid_request", NOT_HERE[type]);
    else {
      throw new SiphonError("invalid_request", `formats[${index}]: "${type}" is not supported; use ${KNOWN}`);
    }
  }
  if (resolved.contents[0]) resolved.format = resolved.contents[0];
  return resolved;
}

import { SiphonError } from "../errors.ts";
import type { OutputFormat } from "../extract/types.ts";
import type { FetchInput } from "../schemas/fetch.ts";

/** Every output one fetch can render from its one attempt. */
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
  screenshot?: { fullPage: boolean };
}

const CONTENT_FORMATS = new Set<string>(["markdown", "text", "html"]);
/** Formats fetchPage does not render itself; named, never silently ignored. */
const NOT_HERE: Record<string, string> = {
  // fetchAndExtract (src/structured/inline.ts) takes json entries out before it calls fetchPage.
  json: "The json format is extraction: it is read by fetchAndExtract, not by fetchPage",
  summary: "The summary format needs an LLM summary, which is not available in this version",
};

function entryType(entry: unknown, index: number): { type: string; fullPage: boolean } {
  if (typeof entry === "string") {
    // Firecrawl's v1 spelling of a full-page screenshot.
    if (entry === "screenshot@fullPage") return { type: "screenshot", fullPage: true };
    return { type: entry, fullPage: false };
  }
  if (entry && typeof entry === "object" && typeof (entry as { type?: unknown }).type === "string") {
    const e = entry as { type: string; fullPage?: unknown };
    return { type: e.type, fullPage: e.fullPage === true };
  }
  throw new SiphonError(
    "invalid_request",
    `formats[${index}] must be a format name or an object with a type`,
  );
}

/**
 * Reads the `formats` array of POST /v1/fetch (and jobs' scrape options): any set of
 * markdown, text, html, rawHtml, links, images and screenshot, all rendered from one
 * fetch of the page. `links` are always in the result; "json" is extraction (fetchAndExtract
 * handles it), "summary" is not built, and anything else is named in a 400.
 */
export function resolveFormats(input: FetchInput): ResolvedFormats {
  const resolved: ResolvedFormats = {
    format: input.format,
    contents: [],
    rawHtml: false,
    images: input.images,
  };
  for (const [index, entry] of (input.formats ?? []).entries()) {
    const { type, fullPage } = entryType(entry, index);
    if (CONTENT_FORMATS.has(type)) {
      if (!resolved.contents.includes(type as OutputFormat)) resolved.contents.push(type as OutputFormat);
    } else if (type === "rawHtml") resolved.rawHtml = true;
    else if (type === "images") resolved.images = true;
    else if (type === "links") continue;
    else if (type === "screenshot") resolved.screenshot = { fullPage };
    else if (NOT_HERE[type]) throw new SiphonError("invalid_request", NOT_HERE[type]);
    else {
      throw new SiphonError(
        "invalid_request",
        `formats[${index}]: "${type}" is not supported; use markdown, text, html, rawHtml, links, images or screenshot`,
      );
    }
  }
  if (resolved.contents[0]) resolved.format = resolved.contents[0];
  return resolved;
}

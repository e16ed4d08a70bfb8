import { SiphonError } from "../errors.ts";
import type { OutputFormat } from "../extract/types.ts";
import type { FetchInput } from "../schemas/fetch.ts";

export interface ResolvedFormats {
  format: OutputFormat;
  /** Set when the formats array asks for a screenshot. */
  screenshot?: { fullPage: boolean };
}

const CONTENT_FORMATS = new Set<string>(["markdown", "text", "html"]);

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
 * Reads the compatibility `formats` array of POST /v1/fetch: content formats
 * set `format`, "screenshot" asks for a capture, "json" needs LLM extraction
 * (not built yet), anything else is named in a 400.
 */
export function resolveFormats(input: FetchInput): ResolvedFormats {
  const resolved: ResolvedFormats = { format: input.format };
  const content: string[] = [];
  for (const [index, entry] of (input.formats ?? []).entries()) {
    const { type, fullPage } = entryType(entry, index);
    if (CONTENT_FORMATS.has(type)) content.push(type);
    else if (type === "screenshot") resolved.screenshot = { fullPage };
    else if (type === "json") {
      throw new SiphonError(
        "invalid_request",
        "The json format needs LLM extraction, which is not available in this version",
      );
    } else {
      throw new SiphonError(
        "invalid_request",
        `formats[${index}]: "${type}" is not supported here; use markdown, text, html or screenshot`,
      );
    }
  }
  if (content.length > 1) {
    throw new SiphonError(
      "invalid_request",
      `formats may name one content format, got ${content.join(", ")}`,
    );
  }
  if (content[0]) resolved.format = content[0] as OutputFormat;
  return resolved;
}

import { SiphonError } from "../errors.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { FetchBody, type FetchInput } from "../schemas/fetch.ts";
import { PARSE_OPTIONS, type ParseOptions } from "../schemas/parse.ts";
import { validate } from "../schemas/validate.ts";
import type { GivenDocument } from "./document.ts";
import { type ScrapeDeps, type ScrapeOutcome, scrape } from "./scrape.ts";

/** How a surface asks for a document to be read, beside the document itself. */
export interface ParseRequest {
  /** The document's name and type and the fetch options (validated ParseOptions; with `fetch`, its name and type alone). */
  options: Partial<ParseOptions> & { filename: string };
  body: Uint8Array;
  accountId: string;
  /** With no LLM in the request, the operator's fills json and writes summaries (Firecrawl's routes). */
  serviceLlm?: boolean;
  /** Read the document's meta tags (Firecrawl's document metadata). */
  meta?: boolean;
  /** A summary besides what options.formats asks (Firecrawl's summary format, read apart from formats). */
  summary?: boolean;
  /**
   * The whole fetch request, when a surface builds one (the CLI's flags): used instead of the
   * options' fetch fields, so that what a document cannot have (render, actions…) is refused by name.
   */
  fetch?: FetchInput;
}

/** A base64 text's bytes; invalid_request for text that is not base64 (Buffer would skip what it cannot read). */
export function fromBase64(data: string, field = "data"): Uint8Array {
  const text = data.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1) {
    throw new SiphonError("invalid_request", `${field} is not base64`, {
      hint: "Encode the file's bytes as base64.",
    });
  }
  return new Uint8Array(Buffer.from(text, "base64"));
}

/**
 * Reads a document the caller hands over (an upload, a local file, stdin) with the same
 * conversion, extraction and formats as a fetched page (src/pipeline/scrape.ts): HTML, PDF, DOCX,
 * JSON, XML, text. Nothing is fetched or cached. Throws payload_too_large past `maxBytes` (the
 * fetch body limit, SIPHON_MAX_BODY_BYTES), invalid_request for an empty document, a bad url or
 * an option a document cannot have (render, actions, a screenshot…), unsupported_content for a
 * type siphon cannot read, and the scrape operation's errors.
 */
export async function parseDocument(request: ParseRequest, deps: ScrapeDeps): Promise<ScrapeOutcome> {
  const { options, body } = request;
  const limit = deps.config.maxBodyBytes;
  if (body.byteLength > limit) {
    throw new SiphonError(
      "payload_too_large",
      `${options.filename} is ${body.byteLength} bytes; siphon reads documents of at most ${limit} bytes`,
      { hint: "Send a smaller file, or raise SIPHON_MAX_BODY_BYTES on a self-hosted server." },
    );
  }
  if (options.url !== undefined) parseTargetUrl(options.url);
  const document: GivenDocument = { body, filename: options.filename, contentType: options.contentType };
  const given: Record<string, unknown> = {};
  for (const key of PARSE_OPTIONS) if (options[key] !== undefined) given[key] = options[key];
  const url = options.url ?? `file:///${encodeURIComponent(options.filename)}`;
  const fetch = request.fetch ?? validate(FetchBody, { ...given, url });
  return scrape(
    {
      fetch,
      accountId: request.accountId,
      document,
      serviceLlm: request.serviceLlm,
      meta: request.meta,
      summary: request.summary,
    },
    deps,
  );
}

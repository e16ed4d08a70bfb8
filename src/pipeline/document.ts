import { SiphonError } from "../errors.ts";
import type { FetchedPage } from "../fetch/types.ts";
import type { FetchInput } from "../schemas/fetch.ts";
import { blockedError, convertPage } from "./convert.ts";
import { extractOptionsOf, type FetchDeps, type FetchOutcome } from "./fetch-page.ts";
import { resolveFormats } from "./formats.ts";
import { renderResult } from "./result.ts";

/** A document the caller hands over instead of a URL to fetch: an upload, a local file, stdin. */
export interface GivenDocument {
  body: Uint8Array;
  /** Its name, as the caller knows it ("report.pdf"); its extension tells its type when nothing else does. */
  filename: string;
  /** Its media type when the caller says it (an upload's part type, the --content-type flag). */
  contentType?: string;
}

/** Media types by file extension, for documents whose sender said none (or a generic one). */
const BY_EXTENSION: Record<string, string> = {
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  json: "application/json",
  xml: "application/xml",
  rss: "application/rss+xml",
  atom: "application/atom+xml",
  txt: "text/plain",
  md: "text/plain",
  markdown: "text/plain",
  csv: "text/plain",
};
const GENERIC = /^(application\/octet-stream|binary\/octet-stream)?$/i;

const UTF8_CHARSET = /;\s*charset\s*=\s*"?utf-?8"?\s*(?=;|$)/i;

/** Whether `bytes` are well-formed UTF-8. */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The media type a document is read as: the one given, unless generic, else its extension's, else
 * sniffed. A UTF-8 charset on bytes that are not UTF-8 is dropped, so the document's own
 * declaration (a meta charset) or sniffing decides: Bun's multipart parser adds `charset=utf-8`
 * to every text part that names none, which would garble a Shift_JIS or windows-1252 upload.
 */
export function documentType(doc: GivenDocument): string {
  const given = doc.contentType?.trim() ?? "";
  if (UTF8_CHARSET.test(given) && !isUtf8(doc.body)) return given.replace(UTF8_CHARSET, "");
  if (!GENERIC.test(given)) return given;
  const extension = /\.([a-z0-9]+)$/i.exec(doc.filename.trim())?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) ?? "";
}

/**
 * Reads a given document as fetchPage reads a fetched page (by type: HTML, PDF, DOCX, JSON,
 * XML, text), in every format the request asks for: the same conversion and extraction, no
 * network, no cache. `input.url` names it in the result and resolves its relative links.
 * Throws unsupported_content for a type siphon cannot read, blocked for a bot-detection page.
 */
export async function readDocument(
  input: FetchInput,
  doc: GivenDocument,
  deps: FetchDeps,
): Promise<FetchOutcome> {
  const started = performance.now();
  if (doc.body.byteLength === 0) {
    throw new SiphonError("invalid_request", `${doc.filename} is empty`, { hint: "Send the file's bytes." });
  }
  const formats = resolveFormats(input);
  const page: FetchedPage = {
    url: input.url,
    status: 200,
    headers: { "content-type": documentType(doc) },
    body: doc.body,
    redirects: [],
  };
  const converted = await convertPage(page, extractOptionsOf(input, formats), deps.engines.extract);
  if (converted.blocked) throw blockedError(converted.blocked, "The document is a bot-detection page.");
  const result = renderResult({ page, converted, engine: "simple" }, formats, performance.now() - started);
  return { result, cache: { hit: false } };
}

import type { Config } from "../src/config.ts";
import { SiphonError } from "../src/errors.ts";
import { fromBase64 } from "../src/pipeline/parse.ts";

/** The paths that take a document upload (multipart, or JSON with base64 data): native and Firecrawl parse. */
const UPLOAD_PATHS = new Set(["/v1/parse", "/v2/parse"]);

/** Whether a request goes to a path that takes an upload. */
export function isUpload(request: Request): boolean {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return UPLOAD_PATHS.has(url.slice(start, end === -1 ? undefined : end));
}

/** The largest upload body: a document of SIPHON_MAX_BODY_BYTES in base64, with room for the options. */
export function uploadLimit(config: Config): number {
  return Math.ceil((config.maxBodyBytes * 4) / 3) + 65_536;
}

/** A multipart upload as Elysia parsed it: the file part and the rest. */
export interface Upload {
  bytes: Uint8Array;
  filename: string;
  contentType?: string;
  /** The `options` part (JSON text, or what Elysia made of it), else the other fields. */
  options: Record<string, unknown>;
}

const isFile = (value: unknown): value is File => typeof File !== "undefined" && value instanceof File;

/**
 * Reads a parse request's body: multipart with a `file` part (its name and type name the
 * document unless the options say otherwise) and an `options` part of JSON, as Firecrawl's SDK
 * sends; or JSON with the file's bytes in base64 `data`. Throws invalid_request for a body that is
 * neither, a file part missing, or options that are not a JSON object.
 */
export async function readUpload(body: unknown): Promise<Upload> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new SiphonError(
      "invalid_request",
      "Send the document: multipart with a file part, or JSON with base64 data",
      {
        hint: 'curl -F file=@report.pdf -F \'options={"formats":["markdown"]}\' …, or {"filename":"report.pdf","data":"<base64>"}',
      },
    );
  }
  const fields = body as Record<string, unknown>;
  if (!isFile(fields.file)) {
    const { data, ...options } = fields;
    if (typeof data !== "string") {
      throw new SiphonError(
        "invalid_request",
        "data is required: the file's bytes in base64 (or send multipart with a file part)",
      );
    }
    return { bytes: fromBase64(data), filename: String(options.filename ?? ""), options };
  }
  const file = fields.file;
  let options: unknown = fields.options ?? {};
  if (typeof options === "string") {
    try {
      options = JSON.parse(options);
    } catch (error) {
      throw new SiphonError("invalid_request", `options is not JSON: ${(error as Error).message}`);
    }
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new SiphonError("invalid_request", "options must be a JSON object");
  }
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    filename: file.name,
    contentType: file.type || undefined,
    options: options as Record<string, unknown>,
  };
}

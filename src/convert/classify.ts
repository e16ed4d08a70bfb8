/**
 * Decides what kind of document a response holds, so the pipeline can pick a
 * converter. The Content-Type header is trusted when it is specific; bytes
 * are sniffed when it is missing, generic (octet-stream, zip) or names a
 * binary family (images, audio, video) that might hide a mislabelled PDF.
 */

/** The converter a response needs; "unsupported" means siphon cannot turn it into text. */
export type ContentKind = "html" | "json" | "xml" | "text" | "pdf" | "docx" | "unsupported";

/** A kind siphon can convert. */
export type SupportedKind = Exclude<ContentKind, "unsupported">;

/** The SPEC Fetch result `contentType` values. */
export type ResultContentType = "html" | "json" | "xml" | "text" | "document";

/** Maps a convertible kind to the SPEC `contentType` field (PDF and DOCX are both "document"). */
export const RESULT_CONTENT_TYPE: Readonly<Record<SupportedKind, ResultContentType>> = {
  html: "html",
  json: "json",
  xml: "xml",
  text: "text",
  pdf: "document",
  docx: "document",
};

const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Textual application/* types worth returning as plain text rather than refusing. */
const TEXT_APPLICATION_MIMES = new Set([
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/typescript",
  "application/x-sh",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/sql",
  "application/x-ndjson",
  "application/jsonl",
]);

const XML_MIMES = new Set(["application/xml", "text/xml", "application/rss+xml", "application/atom+xml"]);

/** Tags that open an HTML document or fragment (the set browsers sniff for, plus common fragment roots). */
const HTML_START =
  /^<(?:!doctype\s+html|html|head|body|script|iframe|h[1-6]|div|font|table|a|style|title|b|br|p|meta|link|section|article|main|header|nav)[\s/>]/i;

/** Classifies a response by its Content-Type header, falling back to sniffing the body and the URL. */
export function classifyContent(
  contentTypeHeader: string | undefined,
  body: Uint8Array,
  url: string,
): ContentKind {
  const mime = (contentTypeHeader ?? "").split(";")[0]!.trim().toLowerCase();
  const byHeader = kindFromMime(mime);
  if (byHeader !== undefined) return byHeader;
  if (/^(?:image|audio|video|font)\//.test(mime)) return magicKind(body, url) ?? "unsupported";
  // Missing, generic or unrecognised types: look at the bytes.
  return sniff(body, url);
}

function kindFromMime(mime: string): ContentKind | undefined {
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "application/json" || mime === "text/json" || mime.endsWith("+json")) return "json";
  if (XML_MIMES.has(mime) || mime.endsWith("+xml")) return "xml";
  if (mime === "application/pdf" || mime === "application/x-pdf") return "pdf";
  if (mime === DOCX_MIME) return "docx";
  if (mime.startsWith("text/") || TEXT_APPLICATION_MIMES.has(mime)) return "text";
  return undefined;
}

/** Recognises the binary formats siphon converts by their signatures. */
function magicKind(body: Uint8Array, url: string): "pdf" | "docx" | undefined {
  // The PDF spec tolerates junk before the header, and readers look within the first KiB.
  if (indexOfAscii(body.subarray(0, 1024), "%PDF-") !== -1) return "pdf";
  if (body[0] === 0x50 && body[1] === 0x4b && body[2] === 0x03 && body[3] === 0x04) {
    // Every DOCX names its main part in the zip directory; the extension covers odd producers.
    if (indexOfAscii(body, "word/document.xml") !== -1 || extensionOf(url) === "docx") return "docx";
  }
  return undefined;
}

function sniff(body: Uint8Array, url: string): ContentKind {
  const magic = magicKind(body, url);
  if (magic) return magic;
  if (body[0] === 0x50 && body[1] === 0x4b) return "unsupported"; // some other zip (xlsx, pptx, archives)
  const encoding = bomEncoding(body);
  if (encoding === "utf-8" && looksBinary(body.subarray(0, 1024))) return "unsupported";

  const decoder = new TextDecoder(encoding);
  const head = decoder
    .decode(body.subarray(0, 1024))
    .replace(/^\uFEFF/, "")
    .trimStart();
  const lower = head.toLowerCase();
  if (lower.startsWith("<?xml")) return /<html[\s>]|<!doctype\s+html/.test(lower) ? "html" : "xml";
  if (HTML_START.test(head) || (lower.startsWith("<!--") && /<html[\s>]|<body[\s>]/.test(lower)))
    return "html";
  if (/^<(?:rss|feed|rdf:rdf|urlset|sitemapindex)[\s>]/.test(lower)) return "xml";
  if ((head.startsWith("{") || head.startsWith("[")) && parsesAsJson(decoder.decode(body))) return "json";

  const ext = extensionOf(url);
  if (ext === "json") return "json";
  if (ext === "xml" || ext === "rss" || ext === "atom") return head.startsWith("<") ? "xml" : "text";
  if (ext === "html" || ext === "htm") return "html";
  return "text";
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return true;
  } catch {
    return false;
  }
}

/** UTF-16 is the only non-ASCII-compatible encoding worth sniffing for; its BOM says which. */
function bomEncoding(body: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" {
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/** Text never holds NUL and rarely other C0 controls; images, archives and executables are full of them. */
function looksBinary(sample: Uint8Array): boolean {
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) {
      controls++;
    }
  }
  return sample.length > 0 && controls / sample.length > 0.1;
}

function indexOfAscii(haystack: Uint8Array, needle: string): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle, 0, "latin1");
}

function extensionOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? "";
  }
  const match = /\.([a-z0-9]+)$/i.exec(path);
  return match ? match[1]!.toLowerCase() : "";
}

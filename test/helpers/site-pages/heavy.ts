import { createGzip } from "node:zlib";

/**
 * Pages that try to exhaust a renderer the ways real ones do: an endless stream, a gzip bomb,
 * a 50 MB page, a page taller than any texture, a script that never stops growing the DOM; and
 * client-side redirects (meta refresh, script) towards any URL, for the SSRF tests.
 */

/** Bytes of /heavy/big: a 50 MB page, five times a 10 MiB body limit. */
export const BIG_PAGE_BYTES = 50 * 1000 * 1000;
/** Decoded size of /heavy/gzip-bomb: 1 GiB of zeros, about 1 MB on the wire. */
export const GZIP_BOMB_BYTES = 1024 * 1024 * 1024;
/** CSS height of /heavy/tall, far past the 16384 px a capture texture can hold. */
export const TALL_PAGE_PX = 200_000;

/** What one endless (or big) stream of the fixture did, by the id its URL carried. */
export interface StreamRecord {
  /** Bytes the server handed to the connection. */
  sent: number;
  /** When the client went away (epoch ms); 0 while it reads. */
  cancelledAt: number;
}
const streams = new Map<string, StreamRecord>();

/** The record of the stream started with ?id=`id`, if any. */
export function streamRecord(id: string): StreamRecord | undefined {
  return streams.get(id);
}

const PARAGRAPH =
  "<p>Every chunk of this page repeats an ordinary paragraph of text, the way a log viewer, a never-ending feed or a misbehaving server streams a page that has no end. </p>\n";
const CHUNK = new TextEncoder().encode(PARAGRAPH.repeat(Math.ceil(65_536 / PARAGRAPH.length)));
const HEAD = new TextEncoder().encode(
  "<!DOCTYPE html><html><head><title>Stream</title></head><body><main><h1>Stream</h1>",
);

let declaredBig: Blob | undefined;

/** /heavy/big whole, so that its Content-Length is sent (Bun sends a stream chunked). */
function bigBlob(): Blob {
  const parts: Uint8Array[] = [HEAD];
  let size = HEAD.byteLength;
  while (size + CHUNK.byteLength <= BIG_PAGE_BYTES) {
    parts.push(CHUNK);
    size += CHUNK.byteLength;
  }
  parts.push(CHUNK.subarray(0, BIG_PAGE_BYTES - size));
  declaredBig ??= new Blob(parts as BlobPart[], { type: "text/html; charset=utf-8" });
  return declaredBig;
}

/** A text/html stream of paragraphs, `limit` bytes long (Infinity: endless), recorded under `id`. */
function paragraphs(id: string, limit: number): Response {
  const record: StreamRecord = { sent: 0, cancelledAt: 0 };
  streams.set(id, record);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(HEAD);
      record.sent += HEAD.byteLength;
    },
    pull(controller) {
      if (record.sent >= limit) {
        controller.close();
        return;
      }
      const chunk = limit - record.sent < CHUNK.byteLength ? CHUNK.subarray(0, limit - record.sent) : CHUNK;
      controller.enqueue(chunk);
      record.sent += chunk.byteLength;
    },
    cancel() {
      record.cancelledAt = Date.now();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/html; charset=utf-8" } });
}

let bomb: Promise<Uint8Array<ArrayBuffer>> | undefined;

/** 1 GiB of zeros gzipped once per process (about 2 s), without holding the zeros. */
function gzipBomb(): Promise<Uint8Array<ArrayBuffer>> {
  bomb ??= (async () => {
    const gzip = createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on("data", (part: Buffer) => parts.push(part));
    const ended = new Promise((resolve) => gzip.on("end", resolve));
    const zeros = Buffer.alloc(1024 * 1024);
    for (let written = 0; written < GZIP_BOMB_BYTES; written += zeros.byteLength) {
      if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once("drain", resolve));
    }
    gzip.end();
    await ended;
    return new Uint8Array(Buffer.concat(parts));
  })();
  return bomb;
}

const page = (body: string) =>
  new Response(`<!DOCTYPE html><html><head><title>Heavy</title></head><body>${body}</body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

const attribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
/** A JavaScript string literal that cannot close the script element it stands in. */
const literal = (value: string) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The paths heavyRoute answers. */
export const HEAVY_PATHS = [
  "/heavy/endless",
  "/heavy/big",
  "/heavy/gzip-bomb",
  "/heavy/tall",
  "/heavy/runaway-dom",
  "/redirect/meta",
  "/redirect/script",
  "/redirect/replace",
];

/**
 * The answer to one of HEAVY_PATHS (404 for another path):
 * - /heavy/endless?id=: an HTML stream that never ends;
 * - /heavy/big?id=[&declared=1]: a 50 MB HTML page, streamed (declared: sent whole, with its Content-Length);
 * - /heavy/gzip-bomb: 1 GiB of zeros as a ~1 MB gzip body (Content-Encoding: gzip);
 * - /heavy/tall: a short article 200,000 px tall;
 * - /heavy/runaway-dom: a script that adds text to a hidden log forever;
 * - /redirect/meta?url=, /redirect/script?url=, /redirect/replace?url=: a meta refresh,
 *   `location.href =` and `location.replace()` towards url.
 */
export async function heavyRoute(url: URL): Promise<Response> {
  const id = url.searchParams.get("id") ?? "";
  const target = url.searchParams.get("url") ?? "";
  switch (url.pathname) {
    case "/heavy/endless":
      return paragraphs(id, Number.POSITIVE_INFINITY);
    case "/heavy/big":
      return url.searchParams.get("declared") === "1"
        ? new Response(bigBlob())
        : paragraphs(id, BIG_PAGE_BYTES);
    case "/heavy/gzip-bomb":
      return new Response(await gzipBomb(), {
        headers: { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip" },
      });
    case "/heavy/tall":
      return page(
        `<main style="height:${TALL_PAGE_PX}px"><h1>A very tall page</h1><p>Its layout is far taller than a screen.</p></main>`,
      );
    case "/heavy/runaway-dom":
      // Into a hidden log, as a leaking buffer would: no layout, so it grows at the rate of
      // memory (~300 MB/s measured), not of the CPU a loaded machine has left.
      return page(`<h1>Runaway DOM</h1><div id="log" hidden></div><script>
const log = document.getElementById("log");
setInterval(() => {
  for (let i = 0; i < 20; i++) {
    const entry = document.createElement("div");
    entry.textContent = String(Math.random()).repeat(40000);
    log.append(entry);
  }
}, 10);</script>`);
    case "/redirect/meta":
      return page(`<meta http-equiv="refresh" content="0;url=${attribute(target)}"><p>Moving…</p>`);
    case "/redirect/script":
      return page(`<p>Moving…</p><script>location.href = ${literal(target)};</script>`);
    case "/redirect/replace":
      return page(`<p>Moving…</p><script>location.replace(${literal(target)});</script>`);
    default:
      return new Response("not found", { status: 404 });
  }
}

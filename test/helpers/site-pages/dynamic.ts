import { brotliCompressSync, deflateSync } from "node:zlib";
import { layout } from "./layout.ts";

/**
 * Routes whose answer depends on the request or on time: redirects, slow,
 * hanging and huge responses, and pre-compressed bodies.
 */

/** Status codes used along /redirect/chain/N, by N modulo 4, so a chain mixes all four. */
const CHAIN_STATUSES = [301, 302, 307, 308] as const;
/** Hops /redirect/many makes before reaching /article: one past the usual limit of 10. */
export const MANY_REDIRECT_HOPS = 11;
/** Size of /huge, a little over a 10 MiB body limit. */
export const HUGE_BYTES = 12 * 1024 * 1024;
/** Upper bound for /slow?ms=, so a typo cannot hang the suite. */
const MAX_SLOW_MS = 60_000;
/** Text of the page served by /gzip, /br and /deflate. */
export const COMPRESSED_TEXT = "This page travelled compressed and arrived intact.";

function redirect(status: number, location: string): Response {
  return new Response(null, { status, headers: { location } });
}

/**
 * /redirect/chain/N redirects to N-1 and /redirect/chain/1 to /article.
 * Odd steps send absolute Locations, even steps relative ones, and the status
 * cycles through 301, 302, 307 and 308.
 */
export function redirectChain(n: number, origin: string): Response {
  const status = CHAIN_STATUSES[n % CHAIN_STATUSES.length]!;
  const targetPath = n <= 1 ? "/article" : `/redirect/chain/${n - 1}`;
  // A bare "N-1" resolves against /redirect/chain/N, exercising relative resolution.
  const relative = n <= 1 ? "/article" : `${n - 1}`;
  return redirect(status, n % 2 === 1 ? `${origin}${targetPath}` : relative);
}

/** /redirect/loop and /redirect/loop/b point at each other forever. */
export function redirectLoop(path: string): Response {
  return redirect(302, path === "/redirect/loop" ? "/redirect/loop/b" : "/redirect/loop");
}

/** /redirect/many: the first of 11 hops (then the chain from 10 down to /article). */
export function redirectMany(): Response {
  return redirect(302, `/redirect/chain/${MANY_REDIRECT_HOPS - 1}`);
}

/** /redirect/to?url=X: an open redirect to anything, used to test SSRF checks after redirects. */
export function redirectTo(url: URL): Response {
  const target = url.searchParams.get("url");
  if (!target) return new Response("missing ?url=", { status: 400 });
  return redirect(302, target);
}

/** /slow?ms=N answers with a small page after N milliseconds (default 1000). */
export async function slow(url: URL): Promise<Response> {
  const ms = Math.min(Number(url.searchParams.get("ms") ?? "1000") || 0, MAX_SLOW_MS);
  await Bun.sleep(ms);
  return html(
    layout({ title: "Slow page", body: `<main><h1>Slow page</h1><p>Answered after ${ms} ms.</p></main>` }),
  );
}

/** /huge: a ~12 MiB HTML page streamed in 64 KiB chunks without Content-Length. */
export function huge(): Response {
  const paragraph =
    "<p>This sentence repeats to make a very large page that a fetcher must refuse to buffer. </p>\n";
  const chunk = new TextEncoder().encode(paragraph.repeat(Math.ceil(65536 / paragraph.length)));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        new TextEncoder().encode("<!DOCTYPE html><html><head><title>Huge</title></head><body><main>"),
      );
    },
    pull(controller) {
      if (sent >= HUGE_BYTES) {
        controller.enqueue(new TextEncoder().encode("</main></body></html>"));
        controller.close();
        return;
      }
      controller.enqueue(chunk);
      sent += chunk.length;
    },
  });
  return new Response(stream, { headers: { "content-type": "text/html; charset=utf-8" } });
}

const COMPRESSED_PAGE = new TextEncoder().encode(
  layout({
    title: "Compressed page",
    body: `<main><h1>Compressed page</h1><p>${COMPRESSED_TEXT}</p></main>`,
  }),
);

/** The bodies of /gzip, /br and /deflate; HTTP "deflate" means the zlib wrapper, not raw deflate. */
const COMPRESSORS = {
  gzip: () => Bun.gzipSync(COMPRESSED_PAGE),
  br: () => new Uint8Array(brotliCompressSync(COMPRESSED_PAGE)),
  deflate: () => new Uint8Array(deflateSync(COMPRESSED_PAGE)),
} as const;

/** Serves the compressed page with the matching Content-Encoding. */
export function compressed(encoding: keyof typeof COMPRESSORS): Response {
  return new Response(COMPRESSORS[encoding](), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-encoding": encoding,
      vary: "Accept-Encoding",
    },
  });
}

/** The uncompressed bytes behind /gzip, /br and /deflate, for tests comparing raw bodies. */
export function compressedPageBytes(): Uint8Array {
  return COMPRESSED_PAGE;
}

/** A UTF-8 HTML response. */
export function html(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
}

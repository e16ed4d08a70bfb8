/**
 * Two loopback servers for testing that a caller's URL cannot be redirected to an internal
 * address (SSRF through a redirect):
 *
 * - the internal server stands for something on the operator's network (an admin page, a
 *   model server). It counts every TCP connection, before any byte of HTTP, and answers every
 *   request with INTERNAL_SECRET_HTML, or, on a path ending in /chat/completions or to a POST
 *   of JSON (what a 307/308 keeps), with a valid OpenAI chat completion whose content is
 *   INTERNAL_SECRET_ANSWER: a leak shows whether the client quotes a body it cannot parse or
 *   takes the answer as the model's.
 * - the redirector stands for an allowed public origin: it serves a plain article page
 *   everywhere, and under /r/<status>/<kind>/... answers <status> with a Location pointing at
 *   the internal server, absolute (`abs`) or scheme-relative (`rel`, `//host:port/...`), and
 *   under /t/<status>/<host:port>/<rest> redirects to http://<host:port>/<rest> (a redirect
 *   between two allowed origins, which must keep working).
 */
import { createServer } from "node:net";

/** The text on every page of the internal server; no response a user sees may contain it. */
export const INTERNAL_SECRET = "INTERNAL-SECRET";
export const INTERNAL_SECRET_HTML = `<html><body><h1>${INTERNAL_SECRET}-HTML</h1><p>admin console</p></body></html>`;
export const INTERNAL_SECRET_ANSWER = `${INTERNAL_SECRET}-ANSWER`;

/** The redirect statuses fetch follows (RFC 9110 and the Fetch standard's redirect statuses). */
export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;
export type RedirectKind = "abs" | "rel";

export interface InternalServer {
  port: number;
  /** TCP connections accepted since the last reset (a connection counts even if it sends nothing). */
  connections(): number;
  /** Request lines received since the last reset ("POST /admin/secret? HTTP/1.1"). */
  requests: string[];
  reset(): void;
  stop(): Promise<void>;
}

function completion(): string {
  return JSON.stringify({
    id: "chatcmpl-internal",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "internal",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: INTERNAL_SECRET_ANSWER, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/**
 * Starts the internal server on 127.0.0.1 (a raw TCP server, so a connection is counted even
 * when no complete request follows). One request per connection, answered once its body (by
 * Content-Length or chunked) has arrived.
 */
export async function startInternalServer(): Promise<InternalServer> {
  let connections = 0;
  const requests: string[] = [];
  const server = createServer((socket) => {
    connections++;
    let buffer = Buffer.alloc(0);
    let answered = false;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      if (answered) return;
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const body = buffer.subarray(end + 4);
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      if (chunked ? !body.includes("0\r\n\r\n") : body.length < length) return;
      answered = true;
      const line = head.split("\r\n", 1)[0] ?? "";
      requests.push(line);
      const path = line.split(" ")[1] ?? "";
      const json = line.startsWith("POST ") && /\r\ncontent-type:\s*application\/json/i.test(head);
      const llm = json || /\/chat\/completions(\?|$)/.test(path);
      const payload = llm ? completion() : INTERNAL_SECRET_HTML;
      const type = llm ? "application/json" : "text/html; charset=utf-8";
      socket.end(
        `HTTP/1.1 200 OK\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("internal server has no port");
  return {
    port: address.port,
    connections: () => connections,
    requests,
    reset() {
      connections = 0;
      requests.length = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The article every non-redirect path of the redirector serves: long enough to read as a real page. */
export const REDIRECTOR_PAGE_TITLE = "Tide mills on the estuary";
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${REDIRECTOR_PAGE_TITLE}</title>
<meta name="description" content="How tide mills turned the tide into flour."></head>
<body><main><article><h1>${REDIRECTOR_PAGE_TITLE}</h1>
<p>A tide mill stores the rising tide behind a dam and releases it through a waterwheel as the tide falls, grinding grain for four to six hours on each tide.</p>
<p>The mill at Woodbridge has worked since 1170; its wheel is five metres across and still turns on demonstration days, when the miller opens the sluice at low water.</p>
<p>Restorers replaced the oak sluice gates in 2011 and rebuilt the pond wall with lime mortar, as the original builders had done, so the pond fills again on every spring tide.</p>
<p>Visitors can see the grinding stones, the hoist that lifted sacks to the top floor, and the records of flour sold to the town's bakers for eight centuries.</p>
</article></main></body></html>`;

export interface Redirector {
  origin: string;
  port: number;
  /** An article page on the redirector (allowed, no redirect). */
  page(path?: string): string;
  /** A base URL whose every request is answered `status` with a Location at the internal server. */
  base(status: number, kind: RedirectKind): string;
  /** A base URL whose every request is answered `status` with a Location at `target` + the rest of the path. */
  baseTo(status: number, target: string): string;
  /** Requests under /r/ answered with a redirect since the last reset. */
  redirects(): number;
  reset(): void;
  stop(): Promise<void>;
}

/** Starts the redirector on 127.0.0.1, redirecting to the internal server at `internalPort`. */
export function startRedirector(internalPort: number): Redirector {
  let redirects = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      const match = /^\/r\/(\d{3})\/(abs|rel)\//.exec(url.pathname);
      if (match) {
        redirects++;
        const target =
          match[2] === "abs"
            ? `http://127.0.0.1:${internalPort}/admin/secret?`
            : `//127.0.0.1:${internalPort}/admin/secret?`;
        return new Response(null, { status: Number(match[1]), headers: { location: target } });
      }
      const onward = /^\/t\/(\d{3})\/([^/]+)(\/.*)$/.exec(url.pathname);
      if (onward) {
        return new Response(null, {
          status: Number(onward[1]),
          headers: { location: `http://${decodeURIComponent(onward[2]!)}${onward[3]}${url.search}` },
        });
      }
      if (url.pathname === "/robots.txt" || url.pathname === "/sitemap.xml") {
        return new Response("not found", { status: 404 });
      }
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    port: server.port!,
    page: (path = "/page") => `${origin}${path}`,
    base: (status, kind) => `${origin}/r/${status}/${kind}/v1`,
    baseTo: (status, target) => {
      const to = new URL(target);
      return `${origin}/t/${status}/${encodeURIComponent(to.host)}${to.pathname.replace(/\/$/, "")}`;
    },
    redirects: () => redirects,
    reset() {
      redirects = 0;
    },
    stop: () => server.stop(true),
  };
}

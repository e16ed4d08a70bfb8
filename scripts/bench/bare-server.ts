/**
 * The reference of the server benchmark (scripts/bench/server.ts): a bare `Bun.serve` answering
 * every request with one recorded answer (status, headers and body bytes of a real cached
 * GET /v1/fetch), so that siphon's rate can be read as a share of what the runtime itself
 * manages for the same bytes on the wire. It does nothing per request but build that Response,
 * in the fastest way found: one Headers object and the body's UTF-8 bytes, made once (a plain
 * object of headers costs Bun ~13% more per request, a body string ~8% more).
 *
 *   bun scripts/bench/bare-server.ts ANSWER.json    (ANSWER: {status, headers, body})
 *
 * Prints `listening on http://127.0.0.1:PORT` on stderr, as `siphon serve` does.
 */
import { readFileSync } from "node:fs";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const file = process.argv[2];
if (!file) throw new Error("usage: bun scripts/bench/bare-server.ts ANSWER.json");
const answer = JSON.parse(readFileSync(file, "utf8")) as Answer;
const status = answer.status;
const headers = new Headers(answer.headers);
const body = new TextEncoder().encode(answer.body);

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => new Response(body, { status, headers }),
});
console.error(`listening on http://127.0.0.1:${server.port}`);

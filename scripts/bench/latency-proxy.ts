/**
 * A loopback proxy in front of a fake (the fixture site, the fake search engines, the fake LLM)
 * that makes chosen paths slow the way real servers are: it waits `latencyOf(path)` ms before
 * answering (time to first byte of a distant server), then answers with the target's response.
 * Paths the function gives 0 pass straight on. Method, headers and body are passed on; an SSE
 * answer (text/event-stream) is streamed through as it comes, any other answer is read whole.
 * It notes when it last handed a response over, so a benchmark can time from the last page sent,
 * and when each request was open, so it can tell time spent waiting on the fake from its own.
 */
export interface LatencyProxy {
  /** Origin without trailing slash. */
  url: string;
  /** performance.now() when the last response was handed to the server to send (a stream: its end). */
  lastSent: number;
  /**
   * [start, end] of every request answered, in performance.now() ms: from its arrival to its
   * response handed over (a stream: to its last byte passed on). Empty it between runs.
   */
  intervals: [number, number][];
  stop(): Promise<void>;
}

/** Request headers not passed on: the proxy's own host, and what fetch() sets itself. */
const HOP_HEADERS = ["host", "connection", "content-length", "accept-encoding"];

export function startLatencyProxy(target: string, latencyOf: (path: string) => number): LatencyProxy {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      const start = performance.now();
      const url = new URL(request.url);
      const wait = latencyOf(url.pathname);
      if (wait > 0) await Bun.sleep(wait);
      const headers = new Headers(request.headers);
      for (const name of HOP_HEADERS) headers.delete(name);
      const hasBody = request.method !== "GET" && request.method !== "HEAD";
      const upstream = await fetch(`${target}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        redirect: "manual",
      });
      // fetch() decoded any compression, so the length and encoding of the original are wrong now.
      const answer = new Headers(upstream.headers);
      answer.delete("content-encoding");
      answer.delete("content-length");
      const done = () => {
        proxy.lastSent = performance.now();
        proxy.intervals.push([start, proxy.lastSent]);
      };
      const init = { status: upstream.status, headers: answer };
      if (upstream.body && answer.get("content-type")?.startsWith("text/event-stream")) {
        return new Response(upstream.body.pipeThrough(new TransformStream({ flush: done })), init);
      }
      const body = await upstream.arrayBuffer();
      done();
      return new Response(body, init);
    },
  });
  const proxy: LatencyProxy = {
    url: `http://127.0.0.1:${server.port}`,
    lastSent: 0,
    intervals: [],
    stop: () => server.stop(true),
  };
  return proxy;
}

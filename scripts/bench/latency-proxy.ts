/**
 * A loopback proxy in front of the fixture site that makes chosen pages slow the way real ones
 * are: it waits `latencyOf(path)` ms before answering (time to first byte of a distant server),
 * then answers with the fixture site's response. Pages the function gives 0 pass straight on.
 * It notes when it last handed a response over, so a benchmark can time from the last page sent.
 */
export interface LatencyProxy {
  /** Origin without trailing slash. */
  url: string;
  /** performance.now() when the last response was handed to the server to send. */
  lastSent: number;
  stop(): Promise<void>;
}

export function startLatencyProxy(target: string, latencyOf: (path: string) => number): LatencyProxy {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const wait = latencyOf(url.pathname);
      if (wait > 0) await Bun.sleep(wait);
      const upstream = await fetch(`${target}${url.pathname}${url.search}`, { redirect: "manual" });
      const body = await upstream.arrayBuffer();
      // fetch() decoded any compression, so the length and encoding of the original are wrong now.
      const headers = new Headers(upstream.headers);
      headers.delete("content-encoding");
      headers.delete("content-length");
      proxy.lastSent = performance.now();
      return new Response(body, { status: upstream.status, headers });
    },
  });
  const proxy: LatencyProxy = {
    url: `http://127.0.0.1:${server.port}`,
    lastSent: 0,
    stop: () => server.stop(true),
  };
  return proxy;
}

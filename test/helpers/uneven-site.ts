/**
 * A site whose pages answer after uneven delays, so a crawl finishes them in an order unlike the
 * one it found them in: /u/0 links to /u/1.. /u/8, page k to 8k+1.. 8k+8 (up to `pages`), and
 * page k answers after one of 0..240 ms spread over the pages (the first ones found are among
 * the slowest). A reader that pages through results by position while the job runs sees every
 * page exactly once only if that order never shifts. Counts every request by path.
 */
export interface UnevenSite {
  url: string;
  /** The URL of page k. */
  page(k: number): string;
  /** Every page's URL, /u/0 first. */
  all(): string[];
  /** Requests per path. */
  hits: Map<string, number>;
  /** Requests per User-Agent. */
  agents: Map<string, number>;
  /** Page k answers only once the returned function is called (then after its delay). */
  hold(k: number): () => void;
  stop(): void;
}

/** How long page k takes to answer (ms): 0 to 240, the early pages mostly slow. */
export const delayOf = (k: number) => ((k * 7 + 8) % 9) * 30;

export function startUnevenSite(pages = 41): UnevenSite {
  const hits = new Map<string, number>();
  const agents = new Map<string, number>();
  const held = new Map<number, { released: Promise<void>; release: () => void }>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const agent = request.headers.get("user-agent") ?? "";
      agents.set(agent, (agents.get(agent) ?? 0) + 1);
      if (path === "/robots.txt" || path === "/sitemap.xml") return new Response("", { status: 404 });
      const match = /^\/u\/(\d+)$/.exec(path);
      const k = match ? Number(match[1]) : -1;
      if (k < 0 || k >= pages) return new Response("not found", { status: 404 });
      await held.get(k)?.released;
      await Bun.sleep(delayOf(k));
      const children = Array.from({ length: 8 }, (_, i) => 8 * k + i + 1).filter((c) => c < pages);
      const links = children.map((c) => `<li><a href="/u/${c}">Page ${c}</a></li>`).join("");
      return new Response(
        `<!doctype html><html><head><title>Uneven page ${k}</title></head><body><main>` +
          `<h1>Uneven page ${k}</h1><p>${"Page text long enough to count as content. ".repeat(6)}</p>` +
          `<ul>${links}</ul></main></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    page: (k) => `${url}/u/${k}`,
    all: () => Array.from({ length: pages }, (_, k) => `${url}/u/${k}`),
    hits,
    agents,
    hold(k) {
      const { promise, resolve } = Promise.withResolvers<void>();
      held.set(k, { released: promise, release: resolve });
      return () => {
        held.delete(k);
        resolve();
      };
    },
    stop: () => server.stop(true),
  };
}

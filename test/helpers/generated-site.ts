/**
 * A generated site for crawl tests: `pages` pages /g/0…/g/N-1 whose links form
 * cycles, plus the traps a crawler must handle: the same page spelled with
 * tracking parameters, fragments and a trailing slash; links to another
 * site; links to missing pages (404); a redirect; a robots.txt disallow; a
 * sitemap; a slow page (/g/slow, answering after SLOW_PAGE_MS). Counts every
 * request by path so tests can check nothing is fetched twice, and the most
 * pages in flight at once (with `latencyMs`, so that requests overlap).
 */
export interface GeneratedSite {
  url: string;
  /** Requests per path (query ignored). */
  hits: Map<string, number>;
  /** Most page requests (/g/…) in flight at once so far. */
  maxInFlight(): number;
  /** Page requests (/g/…) in order of arrival, with their time (ms, performance.now). */
  arrivals: { path: string; at: number }[];
  stop(): void;
}

export interface GeneratedSiteOptions {
  /** Every page answers after this many ms (0 by default). */
  latencyMs?: number;
}

export const SLOW_PAGE = "/g/slow";
export const SLOW_PAGE_MS = 300;

export const MISSING_PAGES = 3;
export const DISALLOWED_PAGE = "/g/secret";

function page(i: number, pages: number): string {
  const links = [
    `/g/${(i + 1) % pages}`,
    `/g/${(i * 7 + 3) % pages}`,
    `/g/${(i * 13 + 5) % pages}?utm_source=newsletter&utm_medium=email`,
    `/g/${(i + 2) % pages}#comments`,
    `/g/${(i + 3) % pages}/`,
    "/g/0",
    `http://external.invalid/page-${i}`,
  ];
  if (i < MISSING_PAGES) links.push(`/g/missing-${i}`);
  if (i === 5) links.push("/g/moved", DISALLOWED_PAGE, SLOW_PAGE);
  const anchors = links.map((href) => `<li><a href="${href}">link ${href}</a></li>`).join("");
  return `<!doctype html><html><head><title>Generated page ${i}</title></head><body>
<nav><a href="/g/0">Home</a></nav><main><h1>Generated page ${i}</h1>
<p>${"This generated page has enough prose to be content. ".repeat(8)}</p><ul>${anchors}</ul></main></body></html>`;
}

/** Starts the site on 127.0.0.1; `pages` defaults to 300. */
export function startGeneratedSite(pages = 300, options: GeneratedSiteOptions = {}): GeneratedSite {
  const hits = new Map<string, number>();
  const arrivals: { path: string; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const answer = async (pathname: string, origin: string): Promise<Response> => {
    if (!pathname.startsWith("/g/")) return route(pathname, origin);
    arrivals.push({ path: pathname, at: performance.now() });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const wait = pathname === SLOW_PAGE ? SLOW_PAGE_MS : (options.latencyMs ?? 0);
      if (wait) await Bun.sleep(wait);
      return route(pathname, origin);
    } finally {
      inFlight--;
    }
  };
  const route = (pathname: string, origin: string): Response => {
    if (pathname === "/robots.txt")
      return new Response(`User-agent: *\nDisallow: ${DISALLOWED_PAGE}\nSitemap: ${origin}/sitemap.xml\n`);
    if (pathname === "/sitemap.xml") {
      const urls = [10, 20, 30]
        .map((i) => `<url><loc>${origin}/g/${i}?utm_campaign=sitemap</loc></url>`)
        .join("");
      return new Response(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        {
          headers: { "content-type": "application/xml" },
        },
      );
    }
    if (pathname === "/g/moved") return Response.redirect(`${origin}/g/1`, 301);
    if (pathname === SLOW_PAGE)
      return new Response(page(pages + 1, pages).replace(/Generated page \d+/g, "Slow page"), {
        headers: { "content-type": "text/html" },
      });
    const match = /^\/g\/(\d+)\/?$/.exec(pathname);
    const n = match ? Number(match[1]) : -1;
    if (n < 0 || n >= pages)
      return new Response("<html><body><h1>Not found</h1></body></html>", {
        status: 404,
        headers: { "content-type": "text/html" },
      });
    return new Response(page(n, pages), { headers: { "content-type": "text/html" } });
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const { pathname, origin } = new URL(req.url);
      hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
      return answer(pathname, origin);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    hits,
    arrivals,
    maxInFlight: () => maxInFlight,
    stop: () => server.stop(true),
  };
}

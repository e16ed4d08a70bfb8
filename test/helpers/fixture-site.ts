import { appRoute } from "./site-pages/apps.ts";
import { articlePage } from "./site-pages/article.ts";
import { botcheckPage } from "./site-pages/botcheck.ts";
import {
  cookiesPage,
  delayedPage,
  formPage,
  hoverPage,
  jsChallenge,
  keysPage,
  scrollPage,
  selectPage,
  tallPage,
  visitorPage,
} from "./site-pages/browser-pages.ts";
import { compatSiteRoutes } from "./site-pages/compat.ts";
import { atomFeed, DATA_JSON, PLAIN_TEXT, robotsTxt, rssFeed, sitemap } from "./site-pages/data.ts";
import { docsPage } from "./site-pages/docs.ts";
import { buildSiteDocuments, type SiteDocuments } from "./site-pages/documents.ts";
import {
  compressed,
  html,
  huge,
  redirectChain,
  redirectLoop,
  redirectMany,
  redirectTo,
  slow,
} from "./site-pages/dynamic.ts";
import { ENCODED_PAGES } from "./site-pages/encodings.ts";
import { oncePage, shrinkingPage, vendorArticle } from "./site-pages/escalation.ts";
import { forumPage } from "./site-pages/forum.ts";
import { HEAVY_PATHS, heavyRoute } from "./site-pages/heavy.ts";
import { KNOWLEDGE_PAGES, knowledgePage } from "./site-pages/knowledge.ts";
import { listingPage } from "./site-pages/listing.ts";
import { productPage, streamedProductPage } from "./site-pages/product.ts";
import { servicePage } from "./site-pages/service.ts";
import { siteMarkdownRoutes } from "./site-pages/site-markdown.ts";
import {
  BOTWALL_HEADERS,
  botwallPage,
  homePage,
  noscriptPage,
  notFoundPage,
  privatePage,
  serverErrorPage,
  spaPage,
} from "./site-pages/special.ts";
import { STRUCTURED_PAGES, structuredPage } from "./site-pages/structured.ts";
import { watchRoute } from "./site-pages/watch.ts";

/**
 * THE fixture website of the test suite: realistic pages plus every awkward
 * answer a fetcher meets (redirect chains and loops, legacy encodings,
 * compression, bot walls, slow, hanging and huge responses, documents),
 * served on 127.0.0.1 so no test needs the internet. See the route table in
 * `routes` below; page texts tests assert on are exported constants.
 */

export * from "./site-pages/apps.ts";
export * from "./site-pages/article.ts";
export * from "./site-pages/botcheck.ts";
export * from "./site-pages/browser-pages.ts";
export * from "./site-pages/compat.ts";
export * from "./site-pages/data.ts";
export * from "./site-pages/docs.ts";
export * from "./site-pages/documents.ts";
export {
  COMPRESSED_TEXT,
  compressedPageBytes,
  HUGE_BYTES,
  MANY_REDIRECT_HOPS,
} from "./site-pages/dynamic.ts";
export * from "./site-pages/encodings.ts";
export * from "./site-pages/escalation.ts";
export * from "./site-pages/forum.ts";
export * from "./site-pages/knowledge.ts";
export { COOKIE_TEXT, FOOTER_TEXT, NAV_TEXT, SITE_NAME } from "./site-pages/layout.ts";
export * from "./site-pages/listing.ts";
export * from "./site-pages/product.ts";
export * from "./site-pages/service.ts";
export * from "./site-pages/site-markdown.ts";
export * from "./site-pages/special.ts";
export * from "./site-pages/structured.ts";
export * from "./site-pages/watch.ts";

/** A running fixture site. */
export interface FixtureSite {
  /** Origin without trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** Stops the server, first releasing requests parked on /hang. */
  stop(): Promise<void>;
  /** How many requests reached `path` (pathname only, query ignored). */
  hits(path: string): number;
  /** Forgets all hit counts. */
  resetHits(): void;
}

type Handler = (request: Request, url: URL) => Response | Promise<Response>;

function text(body: string | Uint8Array, contentType: string, status = 200): Response {
  // A copy gives Response the ArrayBuffer-backed view its types insist on.
  return new Response(typeof body === "string" ? body : new Uint8Array(body), {
    status,
    headers: { "content-type": contentType },
  });
}

function routes(origin: string, docs: SiteDocuments, hang: Handler): Map<string, Handler> {
  const table: [string, Handler][] = [
    ["/", () => html(homePage())],
    ["/article", () => html(articlePage(origin))],
    ["/docs", () => html(docsPage())],
    ["/forum", () => html(forumPage())],
    ["/product", () => html(productPage(origin))],
    ["/product/streamed", () => html(streamedProductPage())],
    ["/listing", () => html(listingPage())],
    ["/service", () => html(servicePage())],
    ["/private/members", () => html(privatePage())],
    ["/redirect/loop", (_, url) => redirectLoop(url.pathname)],
    ["/redirect/loop/b", (_, url) => redirectLoop(url.pathname)],
    ["/redirect/many", () => redirectMany()],
    ["/redirect/to", (_, url) => redirectTo(url)],
    ["/status/404", () => html(notFoundPage(), 404)],
    ["/status/500", () => html(serverErrorPage(), 500)],
    ["/status/403-botwall", () => html(botwallPage(), 403, BOTWALL_HEADERS)],
    ["/botwall-200", () => html(botwallPage(), 200)],
    ["/slow", (_, url) => slow(url)],
    ["/hang", hang],
    ["/huge", () => huge()],
    ["/gzip", () => compressed("gzip")],
    ["/br", () => compressed("br")],
    ["/deflate", () => compressed("deflate")],
    ["/data.json", () => text(JSON.stringify(DATA_JSON, null, 2), "application/json")],
    ["/feed.xml", () => text(rssFeed(origin), "application/rss+xml; charset=utf-8")],
    ["/atom.xml", () => text(atomFeed(origin), "application/atom+xml; charset=utf-8")],
    ["/sitemap.xml", () => text(sitemap(origin), "application/xml; charset=utf-8")],
    ["/robots.txt", () => text(robotsTxt(origin), "text/plain; charset=utf-8")],
    ["/plain.txt", () => text(PLAIN_TEXT, "text/plain; charset=utf-8")],
    ["/doc.pdf", () => text(docs.pdf, "application/pdf")],
    [
      "/doc.docx",
      () => text(docs.docx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ],
    // The same PDF without a helpful type or extension, so only byte sniffing can recognise it.
    ["/download/report", () => text(docs.pdf, "application/octet-stream")],
    ["/image.png", () => text(docs.png, "image/png")],
    ["/spa", () => html(spaPage())],
    ["/noscript", () => html(noscriptPage())],
    ["/headers", (request) => Response.json(Object.fromEntries(request.headers))],
    // Pages for the browser engine: timing, interaction, screenshots, challenges, fingerprints.
    ["/delayed", () => html(delayedPage())],
    ["/form", () => html(formPage())],
    ["/scroll", () => html(scrollPage())],
    ["/tall", () => html(tallPage())],
    ["/cookies", (request) => html(cookiesPage(request))],
    ["/visitor", (request) => visitorPage(request)],
    ["/visitor/next", (request) => visitorPage(request)],
    ["/select", () => html(selectPage())],
    ["/hover", () => html(hoverPage())],
    ["/keys", () => html(keysPage())],
    ["/js-challenge", (request) => jsChallenge(request)],
    // Escalation: a render that draws less than the HTML had.
    ["/esc/shrinks", () => html(shrinkingPage())],
    ["/botcheck", () => html(botcheckPage())],
    // Browser limits and client-side redirects (site-pages/heavy.ts).
    ...HEAVY_PATHS.map((path): [string, Handler] => [path, (_, url) => heavyRoute(url)]),
  ];
  for (const page of ENCODED_PAGES) table.push([page.path, () => text(page.body, page.contentType)]);
  for (const page of KNOWLEDGE_PAGES) table.push([page.path, () => html(knowledgePage(page))]);
  for (const route of compatSiteRoutes()) table.push(route);
  // Another origin of the same server: localhost for 127.0.0.1.
  for (const route of siteMarkdownRoutes(() => origin.replace("127.0.0.1", "localhost"))) table.push(route);
  for (const page of STRUCTURED_PAGES) table.push([page.path, () => html(structuredPage(page, origin))]);
  return new Map(table);
}

/** Starts the fixture site on a free port of 127.0.0.1. Call `stop()` in afterAll. */
export async function startFixtureSite(): Promise<FixtureSite> {
  const docs = await buildSiteDocuments();
  const hits = new Map<string, number>();
  const parked = new Set<() => void>();
  let table = new Map<string, Handler>();
  const onceServed = new Set<string>();

  // /hang keeps the connection open until the client gives up or the site stops.
  const hang: Handler = (request) =>
    new Promise<Response>((resolve) => {
      const release = () => {
        parked.delete(release);
        resolve(new Response("released", { status: 503 }));
      };
      parked.add(release);
      request.signal.addEventListener("abort", release);
    });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    // Bun closes idle connections after 10 s by default, which would end /hang and long /slow early.
    idleTimeout: 0,
    fetch(request): Response | Promise<Response> {
      const url = new URL(request.url);
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
      const chain = /^\/redirect\/chain\/(\d+)$/.exec(url.pathname);
      if (chain) return redirectChain(Number(chain[1]), origin);
      const app = appRoute(request, url);
      if (app) return app;
      const watched = watchRoute(url);
      if (watched) return watched;
      const vendor = /^\/esc\/vendor\/([a-z]+)$/.exec(url.pathname);
      if (vendor) return html(vendorArticle(vendor[1]!));
      if (url.pathname === "/esc/once") {
        // The first request for an id gets the page; any later one (a browser's) hangs.
        const id = url.searchParams.get("id") ?? "";
        if (onceServed.has(id)) return hang(request, url);
        onceServed.add(id);
        return html(oncePage());
      }
      const handler = table.get(url.pathname);
      return handler ? handler(request, url) : html(notFoundPage(), 404);
    },
  });
  const origin: string = `http://127.0.0.1:${server.port}`;
  table = routes(origin, docs, hang);

  return {
    url: origin,
    port: server.port!,
    hits: (path) => hits.get(path) ?? 0,
    resetHits: () => hits.clear(),
    async stop() {
      for (const release of [...parked]) release();
      await server.stop(true);
    },
  };
}

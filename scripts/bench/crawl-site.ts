/**
 * A generated site for the crawl benchmark (scripts/bench/crawl.ts): 2,000
 * HTML pages (10-20 KB each: header, nav and footer chrome, a breadcrumb, an
 * article of paragraphs, a related-links list) on Bun.serve at 127.0.0.1 with
 * a free port. Page 0 is "/"; every page links inline to up to 12 "children"
 * (so BFS from "/" reaches all pages within four hops) and to 12 pseudo-random
 * related pages, and the nav links the home and section pages. About one
 * link in five carries `utm_*` parameters, a `#fragment` or a trailing slash:
 * both siphon and Crawlee normalise those to a URL already seen (Crawlee strips
 * only `utm_*` and fragments, so no other tracking parameter is used). A
 * permissive robots.txt is served and no sitemap.xml, so pages are found only
 * through links. Pages are built once at start, so serving costs little.
 *
 * Benchmark-only routes, never linked: `GET /__bench/stats` answers
 * `{requests, pages, duplicates}` (page requests, distinct pages fetched, and
 * repeat fetches of a page) and `POST /__bench/reset` clears them.
 *
 * `--latency-ms N` makes every page answer N ms late, as a distant server does (robots.txt and
 * the bench routes answer at once), for a crawl bound by waiting rather than by CPU.
 *
 *   bun scripts/bench/crawl-site.ts [--pages 2000] [--latency-ms 0]
 *
 * prints `{"url":"http://127.0.0.1:PORT/"}` on stdout and serves until killed.
 */
import { numberFlag } from "./flags.ts";

const SECTIONS = ["news", "guides", "reference", "blog", "changelog", "community", "tutorials", "faq"];

const WORDS = (
  "the a of to and in is it that for on with as was by at from this be are an or which have has one " +
  "crawler page content server request response cache header link anchor document markdown parser " +
  "network latency throughput memory process queue frontier depth limit robots sitemap domain host " +
  "path query fragment redirect status error retry timeout browser render script style image table " +
  "list paragraph section article title summary author date update release version feature fix change " +
  "performance benchmark measure result report data record store index search rank score quality clean " +
  "extract transform load pipeline stage step engine worker thread pool batch job schedule deliver event " +
  "hook signal abort cancel resume restart persist commit rollback migrate schema column row value field " +
  "simple fast small large early late quiet loud bright dark warm cold new old open closed public private"
).split(" ");

/** A small deterministic PRNG (mulberry32), so the site is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The path of page `i`: "/" for 0, section pages for 1-8, articles after. */
export function pagePath(i: number): string {
  if (i === 0) return "/";
  if (i <= SECTIONS.length) return `/${SECTIONS[i - 1]}`;
  const section = SECTIONS[i % SECTIONS.length];
  return `/${section}/article-${i}`;
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let k = 0; k < words; k++) out.push(WORDS[Math.floor(rand() * WORDS.length)] as string);
  const text = out.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** A link's href, sometimes spelled with tracking parameters, a fragment or a trailing slash. */
function href(rand: () => number, i: number): string {
  const path = pagePath(i);
  const r = rand();
  if (r < 0.08) return `${path}?utm_source=newsletter&utm_medium=email`;
  if (r < 0.14) return `${path}#comments`;
  if (r < 0.2 && path !== "/") return `${path}/`;
  return path;
}

function titleOf(i: number): string {
  if (i === 0) return "Siphon Bench Site";
  if (i <= SECTIONS.length) return `${SECTIONS[i - 1]} index`;
  return `Article ${i}: ${sentence(prng(i * 7919), 5).slice(0, -1)}`;
}

function renderPage(i: number, total: number): string {
  const rand = prng(i + 1);
  const children: number[] = [];
  for (let c = i * 12 + 1; c <= i * 12 + 12 && c < total; c++) children.push(c);
  const related: number[] = [];
  while (related.length < 12) related.push(Math.floor(rand() * total));
  const paragraphs: string[] = [];
  const count = 16 + Math.floor(rand() * 12);
  for (let p = 0; p < count; p++) {
    const parts = [
      sentence(rand, 14 + Math.floor(rand() * 10)),
      sentence(rand, 10 + Math.floor(rand() * 12)),
    ];
    const child = children[p];
    if (child !== undefined) parts.push(`See <a href="${href(rand, child)}">${titleOf(child)}</a> for more.`);
    parts.push(sentence(rand, 12 + Math.floor(rand() * 14)), sentence(rand, 8 + Math.floor(rand() * 10)));
    paragraphs.push(`      <p>${parts.join(" ")}</p>`);
  }
  // Children past the paragraph count still get a link, so the BFS tree stays complete.
  const extra = children.slice(count).map((c) => `<li><a href="${href(rand, c)}">${titleOf(c)}</a></li>`);
  const nav = SECTIONS.map((s, k) => `<li><a href="${href(rand, k + 1)}">${s}</a></li>`).join("");
  const title = titleOf(i);
  const section = SECTIONS[i % SECTIONS.length] as string;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <meta name="description" content="${sentence(rand, 18)}">
  <meta property="og:title" content="${title}">
  <meta property="og:type" content="article">
  <link rel="stylesheet" href="/static/site.css">
  <link rel="canonical" href="${pagePath(i)}">
  <script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag("js", new Date());</script>
</head>
<body>
  <header class="site-header">
    <a class="logo" href="/"><img src="/static/logo.png" alt="Bench" width="120" height="32"></a>
    <nav class="primary"><ul><li><a href="/">Home</a></li>${nav}</ul></nav>
    <form class="search" action="/search"><input type="search" name="q" placeholder="Search"></form>
  </header>
  <div class="cookie-banner" role="dialog"><p>We use cookies to improve the site.</p><button>Accept</button></div>
  <main>
    <nav class="breadcrumb"><a href="/">Home</a> / <a href="/${section}">${section}</a> / <span>${title}</span></nav>
    <article>
      <h1>${title}</h1>
      <p class="byline">By Bench Author &middot; <time datetime="2024-05-${String((i % 28) + 1).padStart(2, "0")}">May ${(i % 28) + 1}, 2024</time></p>
${paragraphs.join("\n")}
      <h2>Related</h2>
      <ul class="related">${related.map((r) => `<li><a href="${href(rand, r)}">${titleOf(r)}</a></li>`).join("")}${extra.join("")}</ul>
    </article>
    <aside class="sidebar"><h3>Newsletter</h3><p>${sentence(rand, 20)}</p><a href="https://example.com/subscribe">Subscribe</a></aside>
  </main>
  <footer class="site-footer">
    <ul><li><a href="${pagePath(9)}">About</a></li><li><a href="${pagePath(10)}">Contact</a></li><li><a href="${pagePath(11)}">Privacy</a></li></ul>
    <p>&copy; 2024 Bench Site. ${sentence(rand, 12)}</p>
  </footer>
</body>
</html>
`;
}

/** Starts the site, each page answering `latencyMs` late; `stop` closes it. */
export function startCrawlSite(total = 2000, latencyMs = 0): { url: string; stop(): void } {
  const pages = new Map<string, string>();
  for (let i = 0; i < total; i++) pages.set(pagePath(i), renderPage(i, total));
  const fetched = new Map<string, number>();
  let requests = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/__bench/stats") {
        let duplicates = 0;
        for (const n of fetched.values()) duplicates += n - 1;
        return Response.json({ requests, pages: fetched.size, duplicates });
      }
      if (url.pathname === "/__bench/reset") {
        requests = 0;
        fetched.clear();
        return new Response(null, { status: 204 });
      }
      if (url.pathname === "/robots.txt")
        return new Response("User-agent: *\nAllow: /\n", { headers: { "content-type": "text/plain" } });
      const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
      const page = pages.get(path);
      if (page === undefined) return new Response("Not found", { status: 404 });
      requests++;
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      const response = new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
      return latencyMs > 0 ? Bun.sleep(latencyMs).then(() => response) : response;
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, stop: () => server.stop(true) };
}

if (import.meta.main) {
  const site = startCrawlSite(numberFlag("pages", 2000), numberFlag("latency-ms", 0));
  process.stdout.write(`${JSON.stringify({ url: site.url })}\n`);
  const stop = () => {
    site.stop();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../config.ts";
import { createSimpleEngine } from "../fetch/simple.ts";
import { collectSitemapUrls } from "./sitemap.ts";

const engine = createSimpleEngine(loadConfig({}, { home: "/tmp/x", disableSsrfProtection: true }));

let origin = "";
let server: ReturnType<typeof Bun.serve>;
const hits = new Map<string, number>();

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((loc) => `  <url><loc>${loc}</loc><lastmod>2024-01-01</lastmod></url>`)
    .join("\n")}\n</urlset>\n`;
const sitemapIndex = (locs: string[]) =>
  `<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`)
    .join("")}</sitemapindex>`;

function routes(): Record<string, () => Response> {
  const xml = (body: string) => () => new Response(body, { headers: { "content-type": "application/xml" } });
  const gzip = (body: string, headers: Record<string, string>) => () =>
    new Response(Bun.gzipSync(new TextEncoder().encode(body)), { headers });
  const many = Array.from({ length: 100 }, (_, i) => `${origin}/many/${i}`);
  return {
    "/pages.xml": xml(
      urlset([`${origin}/a`, `${origin}/a/`, `${origin}/b?utm_source=feed`, `${origin}/b#top`, "mailto:x@y"]),
    ),
    "/index.xml": xml(
      sitemapIndex([
        `${origin}/pages.xml`,
        `${origin}/packed.xml.gz`,
        `${origin}/index.xml`,
        `${origin}/missing.xml`,
        `${origin}/encoded.xml.gz`,
      ]),
    ),
    "/packed.xml.gz": gzip(urlset([`${origin}/gz/1`, `${origin}/gz/2`]), {
      "content-type": "application/gzip",
    }),
    // Served with Content-Encoding: the engine inflates it, so the .gz name holds plain XML.
    "/encoded.xml.gz": gzip(urlset([`${origin}/enc/1`]), {
      "content-type": "application/xml",
      "content-encoding": "gzip",
    }),
    "/cycle-a.xml": xml(sitemapIndex([`${origin}/cycle-b.xml`])),
    "/cycle-b.xml": xml(sitemapIndex([`${origin}/cycle-a.xml`, `${origin}/pages.xml`])),
    "/broken.xml": xml(
      `<urlset><url><loc>${origin}/ok/1</loc></url><url><loc>${origin}/ok/2</loc></url><url><loc>${origin}/cut`,
    ),
    "/garbage.xml": () => new Response(new Uint8Array([0, 159, 146, 150, 0, 255, 1])),
    "/not-a-sitemap.xml": xml(`<rss><channel><item><link>${origin}/feed-item</link></item></channel></rss>`),
    "/bad.gz": () => new Response(new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4])),
    "/bomb.xml.gz": () => new Response(Bun.gzipSync(new Uint8Array(51 * 1024 * 1024))),
    "/list.txt": () =>
      new Response(`${origin}/t/1\n  ${origin}/t/2  \r\nnot a url\nftp://x.test/f\n${origin}/t/1\n`),
    "/many.xml": xml(urlset(many)),
    "/wide-index.xml": xml(sitemapIndex(Array.from({ length: 10 }, (_, i) => `${origin}/child-${i}.xml`))),
  };
}

beforeAll(() => {
  let table: Record<string, () => Response> = {};
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const child = /^\/child-(\d+)\.xml$/.exec(path);
      if (child) return new Response(urlset([`${origin}/child/${child[1]}`]));
      return table[path]?.() ?? new Response("missing", { status: 404 });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
  table = routes();
});

afterAll(() => server.stop(true));

const collect = (paths: string[], limit = 1000, extra: { maxSitemaps?: number } = {}) =>
  collectSitemapUrls(
    paths.map((path) => `${origin}${path}`),
    engine,
    { limit, ...extra },
  );

describe("collectSitemapUrls", () => {
  test("a urlset yields its <loc> URLs normalized and deduplicated", async () => {
    expect(await collect(["/pages.xml"])).toEqual([`${origin}/a`, `${origin}/b`]);
  });

  test("an index is followed into gzip children; itself, a 404 and repeats are skipped", async () => {
    hits.clear();
    const urls = await collect(["/index.xml"]);
    expect(urls).toEqual([
      `${origin}/a`,
      `${origin}/b`,
      `${origin}/gz/1`,
      `${origin}/gz/2`,
      `${origin}/enc/1`,
    ]);
    expect(hits.get("/index.xml")).toBe(1);
  });

  test("index cycles end: each sitemap is fetched once", async () => {
    hits.clear();
    expect(await collect(["/cycle-a.xml"])).toEqual([`${origin}/a`, `${origin}/b`]);
    expect(hits.get("/cycle-a.xml")).toBe(1);
    expect(hits.get("/cycle-b.xml")).toBe(1);
  });

  test("broken XML yields what could be read; garbage, feeds, bad gzip and gzip bombs yield nothing", async () => {
    expect(await collect(["/broken.xml"])).toEqual([`${origin}/ok/1`, `${origin}/ok/2`, `${origin}/cut`]);
    const junk = ["/garbage.xml", "/not-a-sitemap.xml", "/bad.gz", "/bomb.xml.gz", "/missing.xml"];
    expect(await collect(junk)).toEqual([]);
  });

  test("a plain-text sitemap lists one URL per line", async () => {
    expect(await collect(["/list.txt"])).toEqual([`${origin}/t/1`, `${origin}/t/2`]);
  });

  test("stops at limit", async () => {
    const urls = await collect(["/many.xml", "/pages.xml"], 10);
    expect(urls).toHaveLength(10);
    expect(urls[9]).toBe(`${origin}/many/9`);
  });

  test("accept filters before the limit counts", async () => {
    const urls = await collectSitemapUrls([`${origin}/many.xml`], engine, {
      limit: 3,
      accept: (url) => url.endsWith("7"),
    });
    expect(urls).toEqual([`${origin}/many/7`, `${origin}/many/17`, `${origin}/many/27`]);
  });

  test("maxSitemaps bounds the documents fetched, the index included", async () => {
    hits.clear();
    const urls = await collect(["/wide-index.xml"], 1000, { maxSitemaps: 3 });
    expect(urls).toEqual([`${origin}/child/0`, `${origin}/child/1`]);
    expect(hits.get("/child-2.xml")).toBeUndefined();
  });

  test("an aborted signal returns at once without fetching", async () => {
    hits.clear();
    const urls = await collectSitemapUrls([`${origin}/pages.xml`], engine, {
      limit: 10,
      signal: AbortSignal.abort(),
    });
    expect(urls).toEqual([]);
    expect(hits.size).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FixtureSite, SITEMAP_PATHS, startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { createSimpleEngine } from "../fetch/simple.ts";
import type { ResolvedAddress } from "../fetch/ssrf.ts";
import { mapSite } from "./map.ts";

/** Made-up host names, all served by one loopback server that dispatches on the Host header. */
const HOSTS = ["site.test", "www.site.test", "blog.site.test", "other.test", "slow.test"];
async function resolver(hostname: string): Promise<ResolvedAddress[]> {
  if (HOSTS.includes(hostname)) return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
}
const engine = createSimpleEngine(loadConfig({}, { home: "/tmp/x", disableSsrfProtection: true }), {
  resolver,
});

let server: ReturnType<typeof Bun.serve>;
let fixture: FixtureSite;
const hits: { host: string; path: string; at: number }[] = [];
const at = (host: string, path = "/") => `http://${host}:${server.port}${path}`;
const hitCount = (host: string, path: string) =>
  hits.filter((h) => h.host === host && h.path === path).length;

const page = (...hrefs: string[]) =>
  new Response(`<html><body>${hrefs.map((href) => `<a href="${href}">x</a>`).join("")}</body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
const xml = (body: string) => new Response(body, { headers: { "content-type": "application/xml" } });
const urlset = (locs: string[]) =>
  xml(`<urlset>${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join("")}</urlset>`);

function site(host: string, path: string): Response {
  const key = `${host}${path}`;
  switch (key) {
    case "site.test/robots.txt":
      return new Response(
        `User-agent: *\nDisallow: /private\nSitemap: ${at("site.test", "/sitemap-index.xml")}\n`,
      );
    case "site.test/sitemap-index.xml":
      return xml(
        `<sitemapindex><sitemap><loc>${at("site.test", "/sitemap-pages.xml")}</loc></sitemap></sitemapindex>`,
      );
    case "site.test/sitemap-pages.xml":
      return urlset([
        at("site.test"),
        at("site.test", "/about/"),
        at("site.test", "/from-sitemap"),
        at("site.test", "/private/in-sitemap"),
        at("other.test", "/x"),
      ]);
    case "site.test/sitemap.xml":
      return urlset([at("site.test", "/docs")]);
    case "site.test/":
      return page(
        "/about#team",
        "/docs?utm_source=home",
        "/private/secret",
        at("other.test", "/page"),
        at("blog.site.test", "/post"),
        at("www.site.test", "/www-page"),
        at("www.site.test", "/www-open"),
        "mailto:hello@site.test",
        "/report.pdf",
        "/level1",
        "/broken",
      );
    case "site.test/level1":
      return page("/level2", "/");
    case "site.test/level2":
      return page("/level3/docs-deep");
    case "site.test/private/secret":
      return page("/only-from-private");
    case "site.test/broken":
      return new Response("oops", { status: 500 });
    case "www.site.test/robots.txt":
      return new Response("User-agent: *\nDisallow: /www-page\n");
    case "www.site.test/www-page":
      return page("/www-hidden");
    case "www.site.test/www-open":
      return page("/www-child");
    case "blog.site.test/post":
      return page("/blog-inner");
    case "slow.test/robots.txt":
      return new Response("User-agent: *\nCrawl-delay: 0.15\n");
    case "slow.test/":
      return page("/s1", "/s2", "/s3");
    default:
      return host === "slow.test" ? page() : new Response("missing", { status: 404 });
  }
}

beforeAll(async () => {
  fixture = await startFixtureSite();
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      hits.push({ host: url.hostname, path: url.pathname, at: performance.now() });
      return site(url.hostname, url.pathname);
    },
  });
});

afterAll(async () => {
  server.stop(true);
  await fixture.stop();
});

const deps = { engine, userAgent: "siphon" };

describe("mapSite", () => {
  test("merges sitemap and crawled links: normalized, deduplicated, same-site, start first", async () => {
    hits.length = 0;
    const progress: [number, number][] = [];
    const urls = await mapSite(
      { url: at("site.test"), limit: 5000 },
      { ...deps, onProgress: (read, most) => progress.push([read, most]) },
    );
    expect(urls[0]).toBe(at("site.test"));
    // The link crawl reports the pages it read, rising, of its most (50 by default).
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every(([read, most], i) => most === 50 && read > (progress[i - 1]?.[0] ?? 1))).toBe(true);
    expect(new Set(urls).size).toBe(urls.length);
    for (const path of ["/about", "/from-sitemap", "/docs", "/level1", "/level2", "/level3/docs-deep"]) {
      expect(urls).toContain(at("site.test", path));
    }
    // Listed when linked, but robots.txt keeps the crawler out, so its own links stay unknown.
    expect(urls).toContain(at("site.test", "/private/secret"));
    expect(urls).not.toContain(at("site.test", "/only-from-private"));
    expect(hitCount("site.test", "/private/secret")).toBe(0);
    // www. is the same site; other hosts and subdomains are not.
    expect(urls).toContain(at("www.site.test", "/www-page"));
    expect(urls).toContain(at("www.site.test", "/www-child"));
    // Another origin of the site is crawled under its own robots.txt.
    expect(hitCount("www.site.test", "/www-page")).toBe(0);
    expect(urls).not.toContain(at("www.site.test", "/www-hidden"));
    expect(urls.some((url) => url.includes("other.test") || url.includes("blog.site.test"))).toBe(false);
    expect(urls.some((url) => url.includes("#") || url.includes("utm_") || url.startsWith("mailto:"))).toBe(
      false,
    );
    // Listed, never fetched: a PDF holds no links to follow.
    expect(urls).toContain(at("site.test", "/report.pdf"));
    expect(hitCount("site.test", "/report.pdf")).toBe(0);
    expect(hitCount("site.test", "/")).toBe(1);
  });

  test("search keeps URLs containing the text, case-insensitively", async () => {
    const urls = await mapSite({ url: at("site.test"), limit: 5000, search: "DOCS" }, deps);
    expect(urls.sort()).toEqual([at("site.test", "/docs"), at("site.test", "/level3/docs-deep")]);
  });

  test("limit cuts the list, start URL kept first", async () => {
    const urls = await mapSite({ url: at("site.test"), limit: 3 }, deps);
    expect(urls).toHaveLength(3);
    expect(urls[0]).toBe(at("site.test"));
  });

  test("includeSubdomains keeps and crawls subdomain pages", async () => {
    const urls = await mapSite({ url: at("site.test"), limit: 5000, includeSubdomains: true }, deps);
    expect(urls).toContain(at("blog.site.test", "/post"));
    expect(urls).toContain(at("blog.site.test", "/blog-inner"));
    expect(urls.some((url) => url.includes("other.test"))).toBe(false);
  });

  test("ignoreSitemap maps by links only", async () => {
    hits.length = 0;
    const urls = await mapSite({ url: at("site.test"), limit: 5000, ignoreSitemap: true }, deps);
    expect(urls).not.toContain(at("site.test", "/from-sitemap"));
    expect(urls).toContain(at("site.test", "/level1"));
    expect(hitCount("site.test", "/sitemap.xml") + hitCount("site.test", "/sitemap-index.xml")).toBe(0);
  });

  test('sitemap "only": the sitemaps\' URLs alone (index followed), robots.txt disallows left out, no page fetched', async () => {
    hits.length = 0;
    const urls = await mapSite({ url: at("site.test", "/level1"), limit: 5000, sitemap: "only" }, deps);
    expect(urls.sort()).toEqual(
      [
        at("site.test"),
        at("site.test", "/about"),
        at("site.test", "/docs"),
        at("site.test", "/from-sitemap"),
      ].sort(),
    );
    const fetched = [...new Set(hits.filter((h) => h.host === "site.test").map((h) => h.path))].sort();
    expect(fetched).toEqual(["/robots.txt", "/sitemap-index.xml", "/sitemap-pages.xml", "/sitemap.xml"]);
    expect(await mapSite({ url: at("site.test"), limit: 2, sitemap: "only" }, deps)).toHaveLength(2);
    const conflict = await mapSite(
      { url: at("site.test"), limit: 5, sitemap: "only", ignoreSitemap: true },
      deps,
    ).catch((error) => error);
    expect(conflict).toBeInstanceOf(SiphonError);
    expect((conflict as SiphonError).type).toBe("invalid_request");
  });

  test("maxPages bounds the pages the link crawl fetches", async () => {
    hits.length = 0;
    const urls = await mapSite(
      { url: at("site.test"), limit: 5000, ignoreSitemap: true },
      { ...deps, maxPages: 2 },
    );
    const pages = hits.filter((h) => h.host === "site.test" && h.path !== "/robots.txt");
    expect(pages).toHaveLength(2);
    expect(urls).not.toContain(at("site.test", "/level3/docs-deep"));
  });

  test("Crawl-delay spaces the fetches one at a time", async () => {
    hits.length = 0;
    const urls = await mapSite({ url: at("slow.test"), limit: 5000 }, deps);
    expect(urls).toEqual([
      at("slow.test"),
      at("slow.test", "/s1"),
      at("slow.test", "/s2"),
      at("slow.test", "/s3"),
    ]);
    const times = hits.filter((h) => /^\/s\d$/.test(h.path)).map((h) => h.at);
    expect(times).toHaveLength(3);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(130);
  });

  test("the fixture site: sitemap paths listed, robots-disallowed area never fetched", async () => {
    fixture.resetHits();
    const urls = await mapSite({ url: `${fixture.url}/`, limit: 5000 }, deps);
    for (const path of SITEMAP_PATHS) expect(urls).toContain(`${fixture.url}${path}`);
    expect(fixture.hits("/private/members")).toBe(0);
  });

  test("a bad start URL or an unreachable start page throws SiphonError", async () => {
    const error = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (e: unknown) => e as SiphonError,
      );
    expect((await error(mapSite({ url: "site.test", limit: 10 }, deps)))?.type).toBe("invalid_url");
    expect((await error(mapSite({ url: "ftp://site.test/", limit: 10 }, deps)))?.type).toBe("forbidden_url");
    const gone = await error(mapSite({ url: "http://nowhere.test/", limit: 10 }, deps));
    expect(gone).toBeInstanceOf(SiphonError);
    expect(gone?.type).toBe("network_error");
  });
});

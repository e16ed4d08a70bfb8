import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FixtureSite, startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { loadConfig } from "../config.ts";
import { createSimpleEngine } from "../fetch/simple.ts";
import { loadRobots } from "./robots.ts";

const engine = createSimpleEngine(loadConfig({}, { home: "/tmp/x", disableSsrfProtection: true }));
const CHROME_UA = loadConfig({}, { home: "/tmp/x" }).userAgent;

let fixture: FixtureSite;

/** robots.txt lives at a fixed path, so each scenario gets its own origin (server). */
const servers: ReturnType<typeof Bun.serve>[] = [];
function serveRobots(answer: () => Response, others: Record<string, () => Response> = {}): string {
  const s = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/robots.txt") return answer();
      return others[path]?.() ?? new Response("not found", { status: 404 });
    },
  });
  servers.push(s);
  return `http://127.0.0.1:${s.port}`;
}

const text =
  (body: string, type = "text/plain", status = 200) =>
  () =>
    new Response(body, { status, headers: { "content-type": type } });

beforeAll(async () => {
  fixture = await startFixtureSite();
});

afterAll(async () => {
  await fixture.stop();
  for (const s of servers) s.stop(true);
});

describe("loadRobots on the fixture site", () => {
  test("disallow, allow precedence and sitemaps", async () => {
    const robots = await loadRobots(fixture.url, engine, "siphon");
    expect(robots.isAllowed(`${fixture.url}/article`)).toBe(true);
    expect(robots.isAllowed(`${fixture.url}/private/members`)).toBe(false);
    // The longer Allow rule beats the shorter Disallow.
    expect(robots.isAllowed(`${fixture.url}/private/allowed-page`)).toBe(true);
    expect(robots.sitemaps).toEqual([`${fixture.url}/sitemap.xml`]);
    expect(robots.crawlDelayMs).toBeUndefined();
  });

  test("a named group applies to its bot by product token, others fall back to *", async () => {
    const bad = await loadRobots(fixture.url, engine, "BadBot/2.1 (+https://bad.example)");
    expect(bad.isAllowed(`${fixture.url}/article`)).toBe(false);
    const browser = await loadRobots(fixture.url, engine, CHROME_UA);
    expect(browser.isAllowed(`${fixture.url}/article`)).toBe(true);
    expect(browser.isAllowed(`${fixture.url}/private/members`)).toBe(false);
  });

  test("URLs of another origin are not governed by this file", async () => {
    const robots = await loadRobots(fixture.url, engine, "siphon");
    expect(robots.isAllowed("http://elsewhere.test/private/members")).toBe(true);
  });
});

describe("loadRobots rules", () => {
  test("Crawl-delay of our group in ms, wildcards and $ anchors", async () => {
    const origin = serveRobots(
      text(
        "User-agent: siphon\nCrawl-delay: 1.5\nDisallow: /*.pdf$\nDisallow: /tmp\n\nUser-agent: *\nCrawl-delay: 9\n" +
          "Sitemap: /relative-map.xml\nSitemap: https://cdn.test/map.xml.gz\n",
      ),
    );
    const robots = await loadRobots(origin, engine, "Siphon/0.1");
    expect(robots.crawlDelayMs).toBe(1500);
    expect(robots.isAllowed(`${origin}/files/report.pdf`)).toBe(false);
    expect(robots.isAllowed(`${origin}/files/report.pdf?download=1`)).toBe(true);
    expect(robots.isAllowed(`${origin}/tmp/x`)).toBe(false);
    expect(robots.isAllowed(`${origin}/temp`)).toBe(true);
    expect(robots.sitemaps).toEqual([`${origin}/relative-map.xml`, "https://cdn.test/map.xml.gz"]);
    const other = await loadRobots(origin, engine, "otherbot");
    expect(other.crawlDelayMs).toBe(9000);
  });

  test("rules still apply to the asking origin when robots.txt redirects", async () => {
    const origin = serveRobots(
      () => new Response(null, { status: 301, headers: { location: "/real-robots.txt" } }),
      { "/real-robots.txt": text("User-agent: *\nDisallow: /secret\n") },
    );
    const robots = await loadRobots(origin, engine, "siphon");
    expect(robots.isAllowed(`${origin}/secret/page`)).toBe(false);
  });
});

describe("loadRobots fallbacks: allow all, no sitemaps", () => {
  const cases: [string, () => Response][] = [
    ["404", text("User-agent: *\nDisallow: /\n", "text/plain", 404)],
    ["403", text("User-agent: *\nDisallow: /\n", "text/plain", 403)],
    ["500", text("User-agent: *\nDisallow: /\nSitemap: /s.xml\n", "text/plain", 500)],
    ["a 200 HTML page", text("<html><body>Disallow: /</body></html>", "text/html")],
    ["a JSON answer", text('{"error":"Disallow: /"}', "application/json")],
  ];
  test.each(cases)("%s", async (_, answer) => {
    const origin = serveRobots(answer);
    const robots = await loadRobots(origin, engine, "siphon");
    expect(robots.isAllowed(`${origin}/anything`)).toBe(true);
    expect(robots.sitemaps).toEqual([]);
    expect(robots.crawlDelayMs).toBeUndefined();
  });

  test("an unreachable host", async () => {
    const gone = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const origin = `http://127.0.0.1:${gone.port}`;
    gone.stop(true);
    const robots = await loadRobots(origin, engine, "siphon");
    expect(robots.isAllowed(`${origin}/x`)).toBe(true);
  });
});

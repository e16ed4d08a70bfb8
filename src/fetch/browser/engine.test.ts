import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rejection } from "../../../test/helpers/errors.ts";
import {
  CHALLENGE_ARTICLE_TEXT,
  DATA_JSON,
  DELAYED_TEXT,
  type FixtureSite,
  SPA_TEXT,
  startFixtureSite,
} from "../../../test/helpers/fixture-site.ts";
import { type Config, loadConfig } from "../../config.ts";
import { createSimpleEngine } from "../simple.ts";
import { createBrowserEngine } from "./engine.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";

const BROWSER_TEST_MS = 30_000;
const text = (body: Uint8Array) => new TextDecoder().decode(body);

function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    { SIPHON_HOME: "/nonexistent/siphon-test-home" },
    { disableSsrfProtection: true, ...overrides },
  );
}

/** A page that reports what the browser claims about itself, in the DOM and via the request. */
const PROBE_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Probe</title></head><body>
<pre id="probe"></pre>
<script>
  var out = { language: navigator.language, languages: navigator.languages,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, userAgent: navigator.userAgent };
  document.getElementById("probe").textContent = JSON.stringify(out);
  navigator.geolocation.getCurrentPosition(function (p) {
    var g = document.createElement("pre"); g.id = "geo";
    g.textContent = JSON.stringify({ latitude: p.coords.latitude, longitude: p.coords.longitude });
    document.body.appendChild(g);
  }, function () {});
</script></body></html>`;

let site: FixtureSite;
let pool: BrowserPool;
let probe: ReturnType<typeof Bun.serve>;
/** Serves pages that pull from `outside`, which is not allow-listed. */
let inside: ReturnType<typeof Bun.serve>;
let outside: ReturnType<typeof Bun.serve>;
let outsideHits = 0;

beforeAll(async () => {
  pool = createBrowserPool(testConfig());
  site = await startFixtureSite();
  probe = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(PROBE_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  outside = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      outsideHits++;
      return new Response("outside", { headers: { "content-type": "text/html" } });
    },
  });
  inside = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/to-outside") return Response.redirect(`http://127.0.0.1:${outside.port}/landing`, 302);
      const page = `<!DOCTYPE html><html><head><title>Inside</title>
        <script src="http://127.0.0.1:${outside.port}/script.js"></script></head><body>
        <h1>Inside page</h1><img src="http://127.0.0.1:${outside.port}/pixel.png">
        <iframe src="http://localhost:${outside.port}/frame"></iframe>
        <iframe src="http://127.0.0.1:${outside.port}/frame2"></iframe></body></html>`;
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
});

afterAll(async () => {
  await pool.close();
  await site.stop();
  probe.stop(true);
  inside.stop(true);
  outside.stop(true);
});

describe("browser engine", () => {
  test(
    "renders a JavaScript page that the simple engine sees empty",
    async () => {
      const browser = createBrowserEngine(testConfig(), pool, { stealth: false });
      const rendered = await browser.fetch(`${site.url}/spa`);
      expect(rendered.status).toBe(200);
      expect(rendered.url).toBe(`${site.url}/spa`);
      expect(rendered.headers["content-type"]).toContain("charset=utf-8");
      // The text is in the script source too: look for it rendered into #root.
      const renderedRoot = `<div id="root"><main><h1>Support Dashboard</h1><p>${SPA_TEXT}`;
      expect(text(rendered.body)).toContain(renderedRoot);
      const plain = await createSimpleEngine(testConfig()).fetch(`${site.url}/spa`);
      expect(text(plain.body)).not.toContain(renderedRoot);
    },
    BROWSER_TEST_MS,
  );

  test(
    "waits the asked time after load for late content",
    async () => {
      const page = await createBrowserEngine(testConfig(), pool, { stealth: false }).fetch(
        `${site.url}/delayed`,
        {
          wait: 700,
        },
      );
      expect(text(page.body)).toContain(DELAYED_TEXT);
    },
    BROWSER_TEST_MS,
  );

  test(
    "reports redirects and the final URL, and returns non-HTML bodies as sent",
    async () => {
      const engine = createBrowserEngine(testConfig(), pool, { stealth: false });
      const page = await engine.fetch(`${site.url}/redirect/chain/2`);
      expect(page.url).toBe(`${site.url}/article`);
      expect(page.redirects).toEqual([`${site.url}/redirect/chain/2`, `${site.url}/redirect/chain/1`]);
      const json = await engine.fetch(`${site.url}/data.json`);
      expect(JSON.parse(text(json.body))).toEqual(DATA_JSON);
    },
    BROWSER_TEST_MS,
  );

  test(
    "sends custom headers and cookies to the site",
    async () => {
      const engine = createBrowserEngine(testConfig(), pool, { stealth: false });
      const echoed = await engine.fetch(`${site.url}/headers`, {
        headers: { "X-Siphon-Test": "kept" },
        cookies: ["jar=1"],
      });
      const headers = JSON.parse(text(echoed.body));
      expect(headers["x-siphon-test"]).toBe("kept");
      // Adding headers to an intercepted request must not drop the cookies the browser attaches.
      expect(headers.cookie).toBe("jar=1");
      expect(headers["user-agent"]).not.toContain("Headless");
      const cookies = await engine.fetch(`${site.url}/cookies`, { cookies: ["flavour=oat", "size=large"] });
      expect(text(cookies.body)).toContain("flavour=oat; size=large");
    },
    BROWSER_TEST_MS,
  );

  test(
    "location DE gives German languages, Berlin time and Berlin coordinates",
    async () => {
      const engine = createBrowserEngine(testConfig(), pool, { stealth: false });
      const page = await engine.fetch(`http://127.0.0.1:${probe.port}/`, { location: "DE" });
      const html = text(page.body);
      const claimed = JSON.parse(/<pre id="probe">(.*?)<\/pre>/.exec(html)?.[1] ?? "{}");
      expect(claimed.language).toBe("de-DE");
      expect(claimed.languages[0]).toBe("de-DE");
      expect(claimed.timezone).toBe("Europe/Berlin");
      const geo = JSON.parse(/<pre id="geo">(.*?)<\/pre>/.exec(html)?.[1] ?? "{}");
      expect(geo.latitude).toBeCloseTo(52.52, 1);
    },
    BROWSER_TEST_MS,
  );

  test(
    "stealth passes a JavaScript challenge that sets a cookie and reloads",
    async () => {
      const page = await createBrowserEngine(testConfig(), pool, { stealth: true }).fetch(
        `${site.url}/js-challenge`,
      );
      expect(page.status).toBe(200);
      expect(text(page.body)).toContain(CHALLENGE_ARTICLE_TEXT);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a page that never answers is a timeout naming the URL",
    async () => {
      const started = Date.now();
      const error = await rejection(
        createBrowserEngine(testConfig(), pool, { stealth: false }).fetch(`${site.url}/hang`, {
          timeoutMs: 1_500,
        }),
      );
      expect(error.type).toBe("timeout");
      expect(error.message).toContain(`${site.url}/hang`);
      expect(Date.now() - started).toBeLessThan(5_000);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a refused connection is a network_error",
    async () => {
      const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
      const port = closed.port;
      closed.stop(true);
      const error = await rejection(
        createBrowserEngine(testConfig(), pool, { stealth: false }).fetch(`http://127.0.0.1:${port}/`),
      );
      expect(error.type).toBe("network_error");
      expect(error.message).toContain("refused");
    },
    BROWSER_TEST_MS,
  );
});

describe("SSRF protection in the browser", () => {
  const guarded = () =>
    createBrowserEngine(
      testConfig({ disableSsrfProtection: false, ssrfAllow: `127.0.0.1:${inside.port}` }),
      pool,
      { stealth: false },
    );

  test(
    "subresources, images and frames on refused hosts are never requested",
    async () => {
      outsideHits = 0;
      const page = await guarded().fetch(`http://127.0.0.1:${inside.port}/`, {
        screenshot: { fullPage: false, format: "png" },
      });
      expect(text(page.body)).toContain("Inside page");
      expect(outsideHits).toBe(0);
      // Control: without the guard the same page does reach the other server.
      await createBrowserEngine(testConfig(), pool, { stealth: false }).fetch(
        `http://127.0.0.1:${inside.port}/`,
        {
          screenshot: { fullPage: false, format: "png" },
        },
      );
      expect(outsideHits).toBeGreaterThanOrEqual(4);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a refused URL, or a redirect to one, is forbidden_url",
    async () => {
      outsideHits = 0;
      const direct = await rejection(guarded().fetch(`http://127.0.0.1:${outside.port}/`));
      expect(direct.type).toBe("forbidden_url");
      const redirected = await rejection(guarded().fetch(`http://127.0.0.1:${inside.port}/to-outside`));
      expect(redirected.type).toBe("forbidden_url");
      expect(outsideHits).toBe(0);
    },
    BROWSER_TEST_MS,
  );
});

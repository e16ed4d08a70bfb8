import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../config.ts";
import type { FetchEngine } from "../types.ts";
import { createBrowserEngine } from "./engine.ts";
import { findChromium } from "./launch.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";

/**
 * Pages are reused across requests: these prove that what one request leaves in its page and
 * context is gone for the next. The pool has a single slot, so consecutive requests of a
 * partition share one page, which `contextsOpened` confirms.
 */

const BROWSER_TEST_MS = 30_000;
const config = loadConfig(
  { SIPHON_HOME: "/nonexistent/siphon-test-home" },
  { disableSsrfProtection: true, browserConcurrency: 1 },
);
const text = (body: Uint8Array) => new TextDecoder().decode(body);

/** Writes everything a page can keep (and keeps writing it until the page goes away). */
const STORE_PAGE = `<!DOCTYPE html><html><body><p id="done"></p><a id="next" href="/read">read</a>
<button id="ask" onclick="Notification.requestPermission().then(function (answer) {
  document.getElementById('asked').textContent = 'answered ' + answer; })">ask</button><p id="asked"></p><script>
  document.cookie = "script=1; path=/";
  localStorage.setItem("kept", "local");
  sessionStorage.setItem("kept", "session");
  var open = indexedDB.open("siphon-isolation", 1);
  open.onupgradeneeded = function () { open.result.createObjectStore("things"); };
  setInterval(function () { localStorage.setItem("late", String(Date.now())); }, 5);
  document.getElementById("done").textContent = "stored";
</script></body></html>`;

/** Reports what the page can see of earlier requests, in #out once IndexedDB has answered. */
const READ_PAGE = `<!DOCTYPE html><html><body><pre id="out"></pre><script>
  Promise.all([indexedDB.databases(), navigator.permissions.query({ name: "notifications" })]).then(function (found) {
    document.getElementById("out").textContent = JSON.stringify({
      cookie: document.cookie,
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
      databases: found[0].map(function (db) { return db.name; }),
      notifications: found[1].state,
      history: history.length,
    });
  });
</script></body></html>`;

/** What the browser claims about itself, including what stealth's page script changes. */
const PROBE_PAGE = `<!DOCTYPE html><html><body><pre id="out"></pre><script>
  var gl = document.createElement("canvas").getContext("webgl");
  var info = gl && gl.getExtension("WEBGL_debug_renderer_info");
  var out = {
    userAgent: navigator.userAgent,
    platform: navigator.platform,
    languages: navigator.languages,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    webgl: info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : null,
  };
  function report(position) {
    out.position = position;
    document.getElementById("out").textContent = JSON.stringify(out);
  }
  navigator.permissions.query({ name: "notifications" }).then(function (status) {
    out.geolocation = status.state;
    navigator.geolocation.getCurrentPosition(function (p) {
      report([p.coords.latitude, p.coords.longitude]);
    }, function (error) { report("error " + error.code); }, { timeout: 200 });
  });
</script></body></html>`;

let pool: BrowserPool;
let browser: FetchEngine;
let stealth: FetchEngine;
let server: ReturnType<typeof Bun.serve>;
let cookieHeaders: string[] = [];
let assetHits = 0;
let origin: string;

beforeAll(() => {
  pool = createBrowserPool(config);
  browser = createBrowserEngine(config, pool, { stealth: false });
  stealth = createBrowserEngine(config, pool, { stealth: true });
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      cookieHeaders.push(request.headers.get("cookie") ?? "");
      const html = (body: string, headers: Record<string, string> = {}) =>
        new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });
      if (url.pathname === "/store") return html(STORE_PAGE, { "set-cookie": "header=1; Path=/" });
      if (url.pathname === "/read") return html(READ_PAGE);
      if (url.pathname === "/probe") return html(PROBE_PAGE);
      if (url.pathname === "/asset.js") {
        assetHits++;
        return new Response("window.asset = true;", {
          headers: { "content-type": "text/javascript", "cache-control": "public, max-age=3600" },
        });
      }
      if (url.pathname === "/hop") {
        // Another origin (localhost is not 127.0.0.1): a script from it, and a link to it.
        const other = `http://localhost:${url.port}`;
        return html(
          `<!DOCTYPE html><script src="${other}/asset.js"></script><p>hop</p><a id="away" href="${other}/store">away</a>`,
        );
      }
      if (url.pathname === "/cacheable") {
        return html(`<!DOCTYPE html><script src="/asset.js"></script><p>cacheable</p>`);
      }
      if (url.pathname === "/framed") {
        // localhost and 127.0.0.1 are different origins (and sites).
        return html(`<!DOCTYPE html><p>framed</p><iframe src="http://localhost:${url.port}/store"></iframe>`);
      }
      if (url.pathname === "/alert")
        return html(`<!DOCTYPE html><script>alert("hi")</script><p>after alert</p>`);
      return new Response("not found", { status: 404 });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await pool.close();
  server.stop(true);
});

/** What the test page wrote into its <pre id="out">. */
function report(page: { body: Uint8Array }) {
  return JSON.parse(/<pre id="out">(.*?)<\/pre>/.exec(text(page.body))?.[1] ?? "{}");
}

async function probe(engine: FetchEngine, options: Parameters<FetchEngine["fetch"]>[1] = {}) {
  const page = await engine.fetch(`${origin}/probe`, options);
  return report(page);
}

async function read() {
  const page = await browser.fetch(`${origin}/read`);
  return report(page);
}

describe("isolation between requests that share a page", () => {
  test(
    "cookies, storage, IndexedDB, permission answers and history of one request are gone for the next",
    async () => {
      await read();
      const before = await read();
      const opened = pool.stats().contextsOpened;
      // A click is a user gesture: the permission request it makes really asks (and is denied).
      const stored = await browser.fetch(`${origin}/store`, {
        cookies: ["caller=1"],
        actions: [{ type: "click", selector: "#ask" }],
      });
      expect(text(stored.body)).toContain("stored");
      expect(text(stored.body)).toMatch(/answered (default|denied)/);
      cookieHeaders = [];
      const seen = await read();
      expect(pool.stats().contextsOpened).toBe(opened);
      expect(seen).toEqual({
        cookie: "",
        local: [],
        session: [],
        databases: [],
        notifications: "prompt",
        history: before.history,
      });
      expect(cookieHeaders).toEqual([""]);
      // Control: within one request, the next page does see all of it.
      const within = await browser.fetch(`${origin}/store`, {
        actions: [{ type: "click", selector: "#next" }],
      });
      const control = report(within);
      expect(control.cookie).toContain("script=1");
      expect(control.local).toContain("kept");
      expect(control.session).toEqual(["kept"]);
      expect(control.databases).toEqual(["siphon-isolation"]);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a response cached by one request is fetched again by the next",
    async () => {
      assetHits = 0;
      const opened = pool.stats().contextsOpened;
      await browser.fetch(`${origin}/cacheable`);
      await browser.fetch(`${origin}/cacheable`);
      expect(pool.stats().contextsOpened).toBe(opened);
      expect(assetHits).toBe(2);
    },
    BROWSER_TEST_MS,
  );

  test(
    "what a request leaves at other origins, navigated to or fetched from, is gone for the next",
    async () => {
      const other = `http://localhost:${server.port}`;
      await browser.fetch(`${other}/read`);
      const opened = pool.stats().contextsOpened;
      assetHits = 0;
      const away = await browser.fetch(`${origin}/hop`, { actions: [{ type: "click", selector: "#away" }] });
      expect(away.url).toBe(`${other}/store`);
      expect(text(away.body)).toContain("stored");
      const seen = report(await browser.fetch(`${other}/read`));
      expect(seen).toMatchObject({ cookie: "", local: [], session: [], databases: [] });
      // The other origin's script, cached by the first request, is fetched again.
      await browser.fetch(`${origin}/hop`);
      expect(assetHits).toBe(2);
      expect(pool.stats().contextsOpened).toBe(opened);
      // Control: one session's pages are not wiped in between, and do share both.
      await browser.fetch(`${origin}/hop`, {
        session: "control",
        actions: [{ type: "click", selector: "#away" }],
      });
      const kept = report(await browser.fetch(`${other}/read`, { session: "control" }));
      expect(kept.local).toContain("kept");
      await browser.fetch(`${origin}/hop`, { session: "control" });
      expect(assetHits).toBe(3);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a location, languages and a User-Agent header apply to their own request only",
    async () => {
      const plain = await probe(browser);
      const opened = pool.stats().contextsOpened;
      const custom = await probe(browser, {
        languages: ["it-IT"],
        headers: { "User-Agent": "SiphonTest/1.0" },
      });
      expect(custom.languages[0]).toBe("it-IT");
      expect(custom.userAgent).toBe("SiphonTest/1.0");
      expect(await probe(browser)).toEqual(plain);
      expect(pool.stats().contextsOpened).toBe(opened);
      // A location's permission grant cannot be taken back reliably: its pages are its own.
      const german = await probe(browser, { location: "DE" });
      expect(german.timezone).toBe("Europe/Berlin");
      expect(german.languages[0]).toBe("de-DE");
      expect(german.position).toEqual([52.52, 13.405]);
      expect(await probe(browser, { location: "de" })).toEqual(german);
      expect(pool.stats().contextsOpened).toBe(opened + 1);
      const after = await probe(browser);
      expect(after).toEqual(plain);
      expect(after.position).toMatch(/^error/);
    },
    BROWSER_TEST_MS,
  );

  test(
    "stealth's overrides and page script never reach a non-stealth request",
    async () => {
      const plain = await probe(browser);
      const hidden = await probe(stealth, { languages: ["fr-FR"] });
      expect(hidden.userAgent).toContain("Windows NT");
      expect(hidden.platform).toBe("Win32");
      expect(hidden.languages[0]).toBe("fr-FR");
      // Only the page script (evaluateOnNewDocument) reports this renderer.
      expect(hidden.webgl).toContain("Intel");
      const after = await probe(browser);
      expect(after).toEqual(plain);
      expect(after.userAgent).not.toContain("Windows NT");
      expect(after.webgl ?? "").not.toContain("Intel");
      // Stealth pages are reused among stealth requests, each with its own settings. With one
      // browser for both kinds and one page at a time, the plain request above took the only
      // slot and the stealth one opens a context anew; a stealth browser of its own (full
      // Chromium beside the headless shell) kept its page.
      const shared = findChromium(config, "browser") === findChromium(config, "stealth");
      const opened = pool.stats().contextsOpened;
      const english = await probe(stealth, { languages: ["en-GB"] });
      const again = await probe(stealth, { languages: ["en-GB"] });
      expect(english.languages[0]).toBe("en-GB");
      expect(again).toEqual(english);
      expect(again.webgl).toContain("Intel");
      expect(pool.stats().contextsOpened).toBe(opened + (shared ? 1 : 0));
    },
    BROWSER_TEST_MS,
  );

  test(
    "a request that fails, or loads a cross-origin frame, costs the page its context",
    async () => {
      await read();
      let opened = pool.stats().contextsOpened;
      await browser.fetch(`${origin}/framed`);
      const seen = await read();
      expect(seen.local).toEqual([]);
      expect(pool.stats().contextsOpened).toBe(opened + 1);
      opened = pool.stats().contextsOpened;
      const failing = browser.fetch(`${origin}/read`, {
        actions: [{ type: "waitForSelector", selector: "#missing", timeout: 100 }],
      });
      await expect(failing).rejects.toThrow("#missing");
      await read();
      expect(pool.stats().contextsOpened).toBe(opened + 1);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a dialog does not block the page, and the page is reused afterwards",
    async () => {
      await read();
      const opened = pool.stats().contextsOpened;
      const page = await browser.fetch(`${origin}/alert`);
      expect(text(page.body)).toContain("after alert");
      await read();
      expect(pool.stats().contextsOpened).toBe(opened);
    },
    BROWSER_TEST_MS,
  );
});

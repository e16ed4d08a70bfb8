import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  apiText,
  BIG_LAST_TEXT,
  CLOCK_TEXT,
  type FixtureSite,
  JAPANESE_LOADING,
  LIVE_TEXT,
  PART_TEXTS,
  startFixtureSite,
  timerText,
} from "../../../test/helpers/fixture-site.ts";
import { type Config, loadConfig } from "../../config.ts";
import type { FetchEngine } from "../types.ts";
import { createBrowserEngine } from "./engine.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";
import { judge } from "./readiness.ts";
import { LONG_REQUEST_MS } from "./settle.ts";

/**
 * The readiness rule on apps that behave like real ones (test/helpers/site-pages/apps.ts):
 * content drawn by timers and after API calls, in parts, beside requests that never end, a
 * clock that never stops changing the DOM, and an app that never draws.
 */

const BROWSER_TEST_MS = 40_000;
/** The app cap these tests run with: short, so the never-drawn app ends the test quickly. */
const APP_CAP_MS = 5_000;
/** Slack for load and scheduling on a busy 2-core machine; well below the cap. */
const SLACK_MS = 1_500;
const text = (body: Uint8Array) => new TextDecoder().decode(body);

function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    { SIPHON_HOME: "/nonexistent/siphon-test-home" },
    { disableSsrfProtection: true, renderWaitMaxMs: APP_CAP_MS, ...overrides },
  );
}

let site: FixtureSite;
let pool: BrowserPool;
let engine: FetchEngine;

beforeAll(async () => {
  site = await startFixtureSite();
  const config = testConfig();
  pool = createBrowserPool(config);
  engine = createBrowserEngine(config, pool, { stealth: false });
  // Warm the browser and its pages so timings below measure readiness, not a launch or a new page.
  for (let i = 0; i < 3; i++) await engine.fetch(`${site.url}/app/clock`);
});

afterAll(async () => {
  await pool.close();
  await site.stop();
});

async function timed(path: string, fetcher: FetchEngine = engine) {
  const started = performance.now();
  const page = await fetcher.fetch(`${site.url}${path}`);
  return { page, html: text(page.body), ms: performance.now() - started };
}

describe("readiness: the page is read once the app has drawn it", () => {
  test(
    "content a timer draws 150 ms after load is there, without waiting for the cap",
    async () => {
      const { page, html, ms } = await timed("/app/timer?ms=150");
      expect(html).toContain(timerText(150));
      expect(page.warning).toBeUndefined();
      expect(ms).toBeLessThan(150 + SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "content a timer draws 1,500 ms after load is there",
    async () => {
      const { page, html, ms } = await timed("/app/timer?ms=1500");
      expect(html).toContain(timerText(1500));
      expect(page.warning).toBeUndefined();
      expect(ms).toBeGreaterThanOrEqual(1_500);
      expect(ms).toBeLessThan(1_500 + SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "content drawn after an API call answering in 300 ms is there, soon after the answer",
    async () => {
      const { page, html, ms } = await timed("/app/api?delay=300");
      expect(html).toContain(apiText(300));
      expect(html).not.toContain("Loading…");
      expect(page.warning).toBeUndefined();
      expect(ms).toBeLessThan(300 + SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "an app that says only 読み込み中… (loading, in Japanese) while it waits is waited for",
    async () => {
      // Past LONG_REQUEST_MS the API call no longer holds the page: only the words tell.
      const { page, html } = await timed("/app/api?delay=1200&lang=ja");
      expect(html).toContain(apiText(1200));
      expect(html).not.toContain(JAPANESE_LOADING);
      expect(page.warning).toBeUndefined();
    },
    BROWSER_TEST_MS,
  );

  test(
    "content drawn after an API call answering in 2 s is there",
    async () => {
      const { html, ms } = await timed("/app/api?delay=2000");
      expect(html).toContain(apiText(2000));
      expect(ms).toBeGreaterThanOrEqual(2_000);
      expect(ms).toBeLessThan(2_000 + SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "content arriving in three parts (two chained API calls, then a deferred widget) is all there",
    async () => {
      const { page, html } = await timed("/app/parts");
      for (const part of PART_TEXTS) expect(html).toContain(part);
      expect(page.warning).toBeUndefined();
    },
    BROWSER_TEST_MS,
  );

  test(
    "a clock that changes the DOM every 100 ms forever does not hold the page",
    async () => {
      const { page, html, ms } = await timed("/app/clock");
      expect(html).toContain(CLOCK_TEXT);
      expect(page.warning).toBeUndefined();
      expect(ms).toBeLessThan(SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "an EventSource, a long poll and a beacon do not hold the page",
    async () => {
      const { page, html, ms } = await timed("/app/live");
      expect(html).toContain(LIVE_TEXT);
      expect(page.warning).toBeUndefined();
      // The long poll stops holding the page at LONG_REQUEST_MS; on its own it would take 25 s.
      expect(ms).toBeLessThan(LONG_REQUEST_MS + SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "an app that never draws returns at the cap with what it has and a warning",
    async () => {
      const { page, ms } = await timed("/app/shell");
      expect(page.status).toBe(200);
      expect(page.warning).toContain("#root");
      expect(page.warning).toContain("SIPHON_RENDER_WAIT_MAX_MS");
      expect(ms).toBeGreaterThanOrEqual(APP_CAP_MS);
      expect(ms).toBeLessThan(APP_CAP_MS + SLACK_MS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a huge page (about 3 MB) is read once drawn, whole, without a warning",
    async () => {
      const { page, html, ms } = await timed("/app/big");
      expect(page.body.byteLength).toBeGreaterThan(2_500_000);
      expect(html).toContain(BIG_LAST_TEXT);
      expect(html).toContain("Records end.");
      expect(page.warning).toBeUndefined();
      // Loading and serialising 3 MB takes a while on a busy machine; readiness must not add the cap.
      expect(ms).toBeLessThan(APP_CAP_MS + 5_000);
    },
    BROWSER_TEST_MS,
  );

  test(
    "the cap never runs past the fetch's own timeout",
    async () => {
      const { page, ms } = await timed("/app/shell", {
        name: "browser",
        fetch: (url) => engine.fetch(url, { timeoutMs: 2_000 }),
      });
      expect(page.warning).toContain("#root");
      expect(ms).toBeLessThan(2_000);
    },
    BROWSER_TEST_MS,
  );

  test(
    "wait is added after readiness",
    async () => {
      const started = performance.now();
      const page = await engine.fetch(`${site.url}/app/api?delay=300`, { wait: 700 });
      const ms = performance.now() - started;
      expect(text(page.body)).toContain(apiText(300));
      expect(ms).toBeGreaterThanOrEqual(300 + 700);
    },
    BROWSER_TEST_MS,
  );
});

describe("judge", () => {
  const look = { text: 0, emptyRoot: null, loading: false, scripts: 2, changed: false };
  test("an empty app root with little text is undrawn; with plenty of text it is drawn", () => {
    expect(judge({ ...look, emptyRoot: "#root", text: 30 })?.strong).toBe(true);
    expect(judge({ ...look, emptyRoot: "#app", text: 5_000 })).toBeUndefined();
  });
  test("a loader with little text is undrawn; beside real text it is one part still loading", () => {
    expect(judge({ ...look, loading: true, text: 40 })?.strong).toBe(true);
    expect(judge({ ...look, loading: true, text: 2_000 })?.strong).toBe(false);
  });
  test("a page without scripts is what it is; scripts and no text at all is undrawn", () => {
    expect(judge({ ...look, scripts: 0, emptyRoot: "#root" })).toBeUndefined();
    expect(judge({ ...look, text: 0 })?.strong).toBe(true);
    expect(judge({ ...look, text: 12 })).toBeUndefined();
  });
});

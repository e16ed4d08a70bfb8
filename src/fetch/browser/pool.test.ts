import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Browser, Page } from "puppeteer-core";
import { loadConfig } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { findChromium, processesWith } from "./launch.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";

const BROWSER_TEST_MS = 30_000;
const CONCURRENCY = 2;
const RECYCLE_AFTER = 4;
const config = loadConfig(
  { SIPHON_HOME: "/nonexistent/siphon-test-home" },
  { disableSsrfProtection: true, browserConcurrency: CONCURRENCY, browserRecycleAfter: RECYCLE_AFTER },
);

let pool: BrowserPool;
let server: ReturnType<typeof Bun.serve>;
let open = 0;
let mostOpen = 0;
/** Every profile folder a browser of the pool used, to prove none outlives close(). */
const profiles = new Set<string>();

beforeAll(() => {
  pool = createBrowserPool(config);
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const html = (body: string, headers: Record<string, string> = {}) =>
        new Response(`<!DOCTYPE html><html><body>${body}</body></html>`, {
          headers: { "content-type": "text/html", ...headers },
        });
      if (url.pathname === "/set") return html("set", { "set-cookie": "session=secret; Path=/" });
      if (url.pathname === "/get") return html(`<p id="cookie">${request.headers.get("cookie") ?? ""}</p>`);
      if (url.pathname === "/slow") {
        open++;
        mostOpen = Math.max(mostOpen, open);
        await Bun.sleep(Number(url.searchParams.get("ms") ?? "400"));
        open--;
        return html("<p>slow page</p>");
      }
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(async () => {
  await pool.close();
  server.stop(true);
});

function profileOf(browser: Browser): string {
  const arg = browser.process()?.spawnargs.find((a) => a.startsWith("--user-data-dir="));
  if (!arg) throw new Error("the browser was not launched with --user-data-dir");
  const dir = arg.slice("--user-data-dir=".length);
  profiles.add(dir);
  return dir;
}

/** Opens `path` on a pooled page and returns the body text. */
function visit(path: string, signal?: AbortSignal): Promise<string> {
  return pool.withPage(
    async (page: Page) => {
      profileOf(page.browser());
      await page.goto(`http://127.0.0.1:${server.port}${path}`, { waitUntil: "load" });
      return page.evaluate(() => document.body.textContent ?? "");
    },
    { signal },
  );
}

describe("browser pool", () => {
  test(
    "a request never sees the cookies of an earlier one (isolation.test.ts covers the rest)",
    async () => {
      await visit("/set");
      const seen = await pool.withPage(async (page) => {
        await page.goto(`http://127.0.0.1:${server.port}/get`);
        return page.$eval("#cookie", (el) => el.textContent);
      });
      expect(seen).toBe("");
      // Control: within one context the cookie does come back.
      const sameContext = await pool.withPage(async (page) => {
        await page.goto(`http://127.0.0.1:${server.port}/set`);
        await page.goto(`http://127.0.0.1:${server.port}/get`);
        return page.$eval("#cookie", (el) => el.textContent);
      });
      expect(sameContext).toBe("session=secret");
    },
    BROWSER_TEST_MS,
  );

  test("SIPHON_BROWSER_CONTEXT_USES=1 gives every request a fresh incognito context", async () => {
    const strict = createBrowserPool(
      loadConfig(
        { SIPHON_HOME: "/nonexistent/siphon-test-home", SIPHON_BROWSER_CONTEXT_USES: "1" },
        { browserConcurrency: 1, browserRecycleAfter: 0 },
      ),
    );
    try {
      const contexts: unknown[] = [];
      for (let i = 0; i < 3; i++) contexts.push(await strict.withPage(async (_page, lease) => lease.context));
      expect(new Set(contexts).size).toBe(3);
      expect(strict.stats().contextsOpened).toBeGreaterThanOrEqual(3);
    } finally {
      await strict.close();
    }
  }, 60_000);

  // One slot and no browser recycling, so only the slot's own limits open contexts.
  const singleConfig = loadConfig(
    { SIPHON_HOME: "/nonexistent/siphon-test-home" },
    { browserConcurrency: 1, browserRecycleAfter: 0 },
  );
  const SLOT_MAX_USES = singleConfig.browserContextUses;
  test(
    `a context serves at most ${SLOT_MAX_USES} requests, and none after a request that failed`,
    async () => {
      const single = createBrowserPool(singleConfig);
      try {
        const contexts: unknown[] = [];
        for (let i = 0; i < SLOT_MAX_USES + 1; i++) {
          contexts.push(await single.withPage(async (_page, lease) => lease.context));
        }
        expect(new Set(contexts).size).toBe(2);
        expect(contexts.lastIndexOf(contexts[0])).toBe(SLOT_MAX_USES - 1);
        let failedIn: unknown;
        const failed = await single
          .withPage(async (_page, lease) => {
            failedIn = lease.context;
            throw new Error("the request failed");
          })
          .catch((error: Error) => error.message);
        expect(failed).toBe("the request failed");
        expect(failedIn).toBe(contexts.at(-1));
        const next = await single.withPage(async (_page, lease) => lease.context);
        expect(next).not.toBe(failedIn);
        expect(single.stats().contextsOpened).toBe(3);
      } finally {
        await single.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "never more pages at once than browserConcurrency; the rest wait in line",
    async () => {
      mostOpen = 0;
      let mostWaiting = 0;
      const watch = setInterval(() => {
        mostWaiting = Math.max(mostWaiting, pool.stats().waiting);
      }, 20);
      const bodies = await Promise.all(Array.from({ length: 5 }, () => visit("/slow?ms=1500")));
      clearInterval(watch);
      expect(bodies.every((body) => body.includes("slow page"))).toBe(true);
      expect(mostOpen).toBe(CONCURRENCY);
      expect(mostWaiting).toBeGreaterThan(0);
      expect(pool.stats().inFlight).toBeLessThanOrEqual(CONCURRENCY);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a caller that gives up while waiting leaves the line without running",
    async () => {
      const busy = [visit("/slow?ms=800"), visit("/slow?ms=800")];
      const controller = new AbortController();
      let ran = false;
      const waiting = pool.withPage(
        async () => {
          ran = true;
        },
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(new Error("caller gave up")), 100);
      await expect(waiting).rejects.toThrow("caller gave up");
      await Promise.all(busy);
      expect(ran).toBe(false);
    },
    BROWSER_TEST_MS,
  );

  test(
    `after ${RECYCLE_AFTER} pages the browser is relaunched and the old one goes away`,
    async () => {
      const before = pool.stats().launches;
      const used = new Set<string>();
      for (let i = 0; i < RECYCLE_AFTER; i++) {
        used.add(await pool.withPage(async (page) => profileOf(page.browser())));
      }
      expect(pool.stats().launches).toBe(before + 1);
      expect(used.size).toBe(2);
      await Bun.sleep(1_000);
      const live = [...used].filter((dir) => processesWith(dir).length > 0);
      expect(live).toHaveLength(1);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a browser crash mid-request is retried once on a relaunched browser",
    async () => {
      const before = pool.stats().launches;
      let attempts = 0;
      const body = await pool.withPage(async (page) => {
        attempts++;
        profileOf(page.browser());
        if (attempts === 1) setTimeout(() => page.browser().process()?.kill("SIGKILL"), 300);
        await page.goto(`http://127.0.0.1:${server.port}/slow?ms=1500`, { waitUntil: "load" });
        return page.evaluate(() => document.body.textContent ?? "");
      });
      expect(attempts).toBe(2);
      expect(body).toContain("slow page");
      expect(pool.stats().launches).toBe(before + 1);
    },
    BROWSER_TEST_MS,
  );

  test(
    "close() leaves no Chromium process and no profile folder behind",
    async () => {
      await visit("/get");
      const running = [...profiles].flatMap((dir) => processesWith(dir));
      expect(running.length).toBeGreaterThan(0);
      await pool.close();
      expect([...profiles].flatMap((dir) => processesWith(dir))).toEqual([]);
      expect([...profiles].filter((dir) => existsSync(dir))).toEqual([]);
      const error = await pool.withPage(async () => "never").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SiphonError);
      expect((error as SiphonError).type).toBe("browser_unavailable");
    },
    BROWSER_TEST_MS,
  );
});

test(
  "plain pages run on Chromium's headless shell, stealth pages on full Chromium; SIPHON_CHROMIUM_PATH puts both on one",
  async () => {
    const page = (on: BrowserPool, browser: "browser" | "stealth") =>
      on.withPage(async (p) => ({ version: await p.browser().version(), profile: profileOf(p.browser()) }), {
        browser,
        partition: browser,
      });
    const kinds = createBrowserPool(config);
    let seen: { version: string; profile: string }[];
    try {
      seen = [await page(kinds, "browser"), await page(kinds, "stealth"), await page(kinds, "browser")];
      expect(kinds.stats().launches).toBe(2);
    } finally {
      await kinds.close();
    }
    const [plain, stealth, again] = seen;
    expect(plain!.version).toStartWith("HeadlessChrome/");
    expect(stealth!.version).toStartWith("Chrome/");
    expect(stealth!.profile).not.toBe(plain!.profile);
    expect(again!.profile).toBe(plain!.profile);
    expect([plain!.profile, stealth!.profile].flatMap((dir) => processesWith(dir))).toEqual([]);

    const one = createBrowserPool({ ...config, chromiumPath: findChromium(config, "stealth") });
    try {
      const both = [await page(one, "browser"), await page(one, "stealth")];
      expect(both.map((p) => p.version.split("/")[0])).toEqual(["Chrome", "Chrome"]);
      expect(both[1]!.profile).toBe(both[0]!.profile);
      expect(one.stats().launches).toBe(1);
    } finally {
      await one.close();
    }
  },
  BROWSER_TEST_MS,
);

test("a missing Chromium is browser_unavailable with a hint", async () => {
  const broken = createBrowserPool(
    loadConfig({ SIPHON_HOME: "/nonexistent/siphon-test-home" }, { chromiumPath: "/nonexistent/chromium" }),
  );
  const error = await broken.withPage(async () => "never").catch((e: unknown) => e);
  await broken.close();
  expect(error).toBeInstanceOf(SiphonError);
  expect((error as SiphonError).type).toBe("browser_unavailable");
  expect((error as SiphonError).hint).toContain("SIPHON_CHROMIUM_PATH");
});

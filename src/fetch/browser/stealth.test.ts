import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { BOTCHECK_CHECKS, type FixtureSite, startFixtureSite } from "../../../test/helpers/fixture-site.ts";
import { CHROMIUM_ARGS } from "./launch.ts";
import { applyStealth, STEALTH_LAUNCH_ARGS, stealthClientHints, stealthUserAgent } from "./stealth.ts";

// The measured flags (STACK.md) without any stealth flag: plain headless is what must fail the checks.
const BASE_ARGS = CHROMIUM_ARGS;
const BROWSER_TEST_MS = 30_000;
const LANGUAGES = ["en-GB", "en"];

interface Launched {
  browser: Browser;
  close(): Promise<void>;
}

async function launch(extraArgs: string[], defaultViewport?: null): Promise<Launched> {
  const userDataDir = await mkdtemp(join(tmpdir(), "siphon-stealth-test-"));
  const browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [...BASE_ARGS, ...extraArgs, `--user-data-dir=${userDataDir}`],
    ...(defaultViewport === null ? { defaultViewport } : {}),
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

interface Botcheck {
  verdict: string;
  results: Record<string, string>;
}

async function runBotcheck(page: Page): Promise<Botcheck> {
  await page.goto(`${site.url}/botcheck`, { waitUntil: "load" });
  await page.waitForSelector("#verdict", { timeout: 10_000 });
  return page.evaluate(() => ({
    verdict: document.getElementById("verdict")!.textContent ?? "",
    results: Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>("li[data-check]")].map((li) => [
        li.dataset.check!,
        li.dataset.result!,
      ]),
    ),
  }));
}

const failed = (check: Botcheck) =>
  Object.entries(check.results)
    .filter(([, result]) => result !== "pass")
    .map(([name]) => name);

async function stealthPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await applyStealth(page, { userAgent: stealthUserAgent(await browser.version()), languages: LANGUAGES });
  return page;
}

let site: FixtureSite;
let plain: Launched;
let stealthy: Launched;
beforeAll(async () => {
  site = await startFixtureSite();
  // Plain: what puppeteer gives with no help. Stealthy: the flags and window the browser engine uses.
  plain = await launch([]);
  stealthy = await launch(STEALTH_LAUNCH_ARGS, null);
}, BROWSER_TEST_MS);
afterAll(async () => {
  await Promise.all([plain?.close(), stealthy?.close()]);
  await site?.stop();
}, BROWSER_TEST_MS);

describe("user agent and client hints", () => {
  test("the user agent is a reduced desktop Chrome one, without Headless", () => {
    expect(stealthUserAgent("HeadlessChrome/156.0.8078.79")).toBe(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    );
    expect(stealthUserAgent("Chrome/120.0.6099.71", "macOS")).toContain(
      "(Macintosh; Intel Mac OS X 10_15_7)",
    );
    expect(stealthUserAgent("120.0.1", "linux")).toContain("(X11; Linux x86_64)");
  });

  test("brands follow Chrome's GREASE rule for the major version", () => {
    const names = (major: string) =>
      stealthClientHints(stealthUserAgent(major), major)!.brands!.map((b) => `${b.brand};${b.version}`);
    // As real Chrome 120 and 124 send them in Sec-CH-UA.
    expect(names("120")).toEqual(["Not_A Brand;8", "Chromium;120", "Google Chrome;120"]);
    expect(names("124")).toEqual(["Chromium;124", "Google Chrome;124", "Not-A.Brand;99"]);
  });

  test("client hints agree with the user agent, and a non-Chrome agent gets none", () => {
    const hints = stealthClientHints(stealthUserAgent("156", "Linux"), "Chrome/156.0.8078.79", "Windows")!;
    expect(hints.platform).toBe("Linux");
    expect(hints.mobile).toBe(false);
    expect(hints.fullVersionList).toContainEqual({ brand: "Google Chrome", version: "156.0.8078.79" });
    expect(
      stealthClientHints("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "156"),
    ).toBe(undefined);
  });
});

describe("against the bot-detection page", () => {
  test(
    "plain headless is caught: webdriver, HeadlessChrome, SwiftShader, window size, iframe, worker",
    async () => {
      const page = await plain.browser.newPage();
      const check = await runBotcheck(page);
      await page.close();
      expect(Object.keys(check.results)).toEqual([...BOTCHECK_CHECKS]);
      expect(check.verdict).toBe("BOT");
      expect(failed(check)).toEqual(["webdriver", "user-agent", "webgl", "window-size", "iframe", "worker"]);
    },
    BROWSER_TEST_MS,
  );

  test(
    "stealth passes every check",
    async () => {
      const page = await stealthPage(stealthy.browser);
      const check = await runBotcheck(page);
      await page.close();
      expect(failed(check)).toEqual([]);
      expect(check.verdict).toBe("HUMAN");
    },
    BROWSER_TEST_MS,
  );

  test(
    "the page script alone covers a browser launched without the stealth flags",
    async () => {
      const page = await stealthPage(plain.browser);
      const check = await runBotcheck(page);
      await page.close();
      expect(failed(check)).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  test(
    "the fallbacks repair an old-headless profile: no plugins, no window.chrome, contradictory permissions",
    async () => {
      const page = await stealthy.browser.newPage();
      // Registered first, so it runs before the evasions, as the old headless defaults would.
      await page.evaluateOnNewDocument(() => {
        Object.defineProperty(Navigator.prototype, "plugins", {
          get: () => ({ length: 0 }),
          configurable: true,
        });
        delete (window as { chrome?: unknown }).chrome;
        Object.defineProperty(Notification, "permission", { get: () => "denied", configurable: true });
      });
      await applyStealth(page, {
        userAgent: stealthUserAgent(await stealthy.browser.version()),
        languages: LANGUAGES,
      });
      const check = await runBotcheck(page);
      const plugins = await page.evaluate(() => [...navigator.plugins].map((plugin) => plugin.name));
      await page.close();
      expect(failed(check)).toEqual([]);
      expect(plugins).toHaveLength(5);
      expect(plugins[0]).toBe("PDF Viewer");
    },
    BROWSER_TEST_MS,
  );
});

describe("how the evasions are installed", () => {
  test(
    "page scripts see the evasions from their first line, in the page and in an iframe",
    async () => {
      // The plain browser lacks the AutomationControlled flag: only the page script can hide webdriver.
      const page = await stealthPage(plain.browser);
      const probe =
        "[navigator.webdriver, navigator.languages.join(), WebGLRenderingContext.prototype.getParameter.name]";
      const html = `<script>window.early = ${probe};</script>
        <iframe srcdoc="<script>parent.inFrame = ${probe};</script>"></iframe>`;
      await page.goto(`data:text/html,${encodeURIComponent(html)}`, { waitUntil: "load" });
      const seen = await page.evaluate(() => {
        const win = window as unknown as { early: unknown; inFrame: unknown };
        return { early: win.early, inFrame: win.inFrame };
      });
      await page.close();
      const expected = [false, LANGUAGES.join(), "getParameter"];
      expect(seen).toEqual({ early: expected, inFrame: expected });
    },
    BROWSER_TEST_MS,
  );

  test(
    "headers carry the stealth user agent and matching client hints",
    async () => {
      const page = await stealthPage(stealthy.browser);
      const response = await page.goto(`${site.url}/headers`);
      const headers = (await response!.json()) as Record<string, string>;
      const platform = await page.evaluate(() => navigator.platform);
      await page.close();
      expect(headers["user-agent"]).toBe(stealthUserAgent(await stealthy.browser.version()));
      expect(headers["sec-ch-ua"]).toContain('"Google Chrome"');
      expect(headers["sec-ch-ua"]).not.toContain("Headless");
      expect(headers["sec-ch-ua-platform"]).toBe('"Windows"');
      expect(headers["accept-language"]).toBe("en-GB,en;q=0.9");
      expect(platform).toBe("Win32");
    },
    BROWSER_TEST_MS,
  );
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { type LaunchedBrowser, launchBrowser } from "../../src/fetch/browser/launch.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";

/**
 * The API reference at /docs in real Chromium, with every request that would leave the server's
 * own origin refused (as on a machine without internet): it must render every operation anyway,
 * with no request elsewhere, no script error and no CSP refusal.
 */
const BROWSER_TEST_MS = 60_000;
let chromium: LaunchedBrowser;
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startTestApp();
  base = app.listen();
  chromium = await launchBrowser(loadConfig({}, { disableSsrfProtection: true }));
}, BROWSER_TEST_MS);
afterAll(async () => {
  await chromium?.close();
  await app?.close();
});

test(
  "/docs renders the operations offline: nothing is requested from anywhere but the server",
  async () => {
    const context = await chromium.browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const elsewhere: string[] = [];
      const problems: string[] = [];
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        const url = request.url();
        if (url.startsWith(base) || url.startsWith("data:")) void request.continue();
        else {
          elsewhere.push(url);
          void request.abort("internetdisconnected");
        }
      });
      page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`));
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to|Failed to load/i.test(message.text()))
          problems.push(message.text());
      });
      const response = await page.goto(`${base}/docs`, { waitUntil: "networkidle0" });
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
      await page.waitForSelector(".opblock", { timeout: 20_000 });
      const operations = await page.$$eval(".opblock .opblock-summary-path", (nodes) =>
        nodes.map((node) => node.textContent?.trim() ?? ""),
      );
      expect(operations).toEqual(expect.arrayContaining(["/v1/fetch", "/v1/crawl", "/v1/llmstxt"]));
      expect(operations.length).toBeGreaterThan(40);
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  },
  BROWSER_TEST_MS,
);

test("GET / answers a browser with links, and an API client with JSON", async () => {
  const html = await fetch(`${base}/`, { headers: { accept: "text/html,application/xhtml+xml" } });
  expect(html.headers.get("content-type")).toStartWith("text/html");
  const text = await html.text();
  for (const href of ["/dashboard", "/docs", "/health"]) expect(text).toContain(`href="${href}"`);
  const json = await fetch(`${base}/`, { headers: { accept: "application/json" } });
  expect(await json.json()).toMatchObject({
    name: "siphon",
    links: { dashboard: "/dashboard", docs: "/docs", openapi: "/docs/json", health: "/health" },
  });
  const asset = await fetch(`${base}/docs/assets/nothing.js`);
  expect(asset.status).toBe(404);
});

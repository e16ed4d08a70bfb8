import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "puppeteer-core";
import { loadConfig } from "../../src/config.ts";
import { type LaunchedBrowser, launchBrowser } from "../../src/fetch/browser/launch.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import {
  ARTICLE_TITLE,
  type FixtureSite,
  setWatchPlans,
  startFixtureSite,
  WATCH_PLANS,
} from "../helpers/fixture-site.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * The dashboard end to end in real Chromium (puppeteer-core, launched as siphon launches it):
 * keys made and revoked through the pages and checked against the API, a crawl followed live
 * to 100%, the playground on the fixture site, sign-in cookies, cross-site forms, keyboard-only
 * use. Each page is screenshotted (into .tmp/, ignored by git) once its main landmark is laid
 * out with visible text and the stylesheet applied.
 */

const BROWSER_TEST_MS = 60_000;
const SCREENSHOTS = join(import.meta.dir, "../../.tmp/dashboard-screenshots");

let chromium: LaunchedBrowser;
let site: FixtureSite;
let local: TestApp;
let localUrl: string;
let hosted: TestApp;
let hostedUrl: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  site = await startFixtureSite();
  local = await startTestApp();
  localUrl = local.listen();
  hosted = await startTestApp({ auth: "required", host: "0.0.0.0" });
  hostedUrl = hosted.listen();
  chromium = await launchBrowser(loadConfig({}, { disableSsrfProtection: true }));
}, BROWSER_TEST_MS);

afterAll(async () => {
  await chromium?.close();
  await local?.close();
  await hosted?.close();
  await site?.stop();
});

/** A fresh browser profile (its own cookies) with one page; script errors and CSP refusals are collected. */
async function openPage(): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const context = await chromium.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`));
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  return { page, context, problems };
}

/**
 * Checks that the page is laid out (main landmark with a size, visible text, the dashboard's
 * stylesheet applied) and saves its screenshot.
 */
async function capture(page: Page, name: string): Promise<void> {
  const layout = await page.$eval("main", (main) => {
    const box = main.getBoundingClientRect();
    const header = document.querySelector("header.site");
    return {
      width: box.width,
      height: box.height,
      // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what counts here
      text: (main as HTMLElement).innerText.trim(),
      headerColour: header ? getComputedStyle(header).backgroundColor : "",
    };
  });
  expect(layout.width).toBeGreaterThan(300);
  expect(layout.height).toBeGreaterThan(80);
  expect(layout.text.length).toBeGreaterThan(20);
  // The stylesheet was loaded (not refused by the CSP): the header is dark.
  expect(layout.headerColour).toBe("rgb(27, 31, 36)");
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  expect(statSync(file).size).toBeGreaterThan(10_000);
}

/** The text of an element as a person sees it (rendered, hidden parts left out). */
const text = (page: Page, selector: string) =>
  // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what counts here
  page.$eval(selector, (element) => (element as HTMLElement).innerText.trim());

async function keyStatus(app: TestApp, key: string): Promise<number> {
  return (await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${key}` } })).status;
}

describe("keys", () => {
  test(
    "a key created in the dashboard works against the API; revoked there, the API refuses it",
    async () => {
      const { page, context, problems } = await openPage();
      try {
        await context.overridePermissions(localUrl, [
          "clipboard-read",
          "clipboard-write",
          "clipboard-sanitized-write",
        ]);
        await page.goto(`${localUrl}/dashboard/keys`);
        await capture(page, "keys");
        await page.type("#key-name", "laptop");
        await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
        const key = await text(page, "#new-key");
        expect(key).toMatch(/^sph_live_[0-9A-Za-z]{32}$/);
        expect(await text(page, "main")).toContain("it will not be shown again");
        // The copy button puts the key on the clipboard.
        await page.click("button[data-copy=new-key]");
        await page.waitForFunction(
          () => document.querySelector("button[data-copy]")?.textContent === "Copied",
        );
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
        await capture(page, "key-created");

        expect(await keyStatus(local, key)).toBe(200);

        const id = (await local.store.accounts.listKeys()).find((k) => k.prefix === key.slice(0, 13))!.id;
        await page.goto(`${localUrl}/dashboard/keys`);
        await Promise.all([page.waitForNavigation(), page.click(`a[href="/dashboard/keys/${id}/revoke"]`)]);
        expect(await text(page, "main")).toContain("cannot be undone");
        await capture(page, "key-revoke-confirm");
        await Promise.all([page.waitForNavigation(), page.click("button.danger")]);
        expect(await text(page, "[role=status]")).toContain("is revoked");
        expect(await text(page, `tr[data-key-id="${id}"] .state-revoked`)).toStartWith("revoked");
        expect(await keyStatus(local, key)).toBe(401);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "a key is created with the keyboard alone, with a visible focus on every stop",
    async () => {
      const { page, context, problems } = await openPage();
      try {
        await page.goto(`${localUrl}/dashboard/keys`);
        const focused = () =>
          page.evaluate(() => {
            const element = document.activeElement as HTMLElement | null;
            const style = element ? getComputedStyle(element) : null;
            return {
              id: element?.id ?? "",
              tag: element?.tagName ?? "",
              text: element?.textContent?.trim() ?? "",
              outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : "",
            };
          });
        // The first stop is the skip link; from there, Tab reaches the name field.
        await page.keyboard.press("Tab");
        expect((await focused()).text).toBe("Skip to content");
        let stops = 0;
        while ((await focused()).id !== "key-name" && stops++ < 30) {
          await page.keyboard.press("Tab");
          const now = await focused();
          expect(now.outline).not.toMatch(/^none/);
        }
        expect((await focused()).id).toBe("key-name");
        await page.keyboard.type("keyboard only");
        // The kind radios are one stop, then the button.
        await page.keyboard.press("Tab");
        expect((await focused()).id).toBe("kind-live");
        await page.keyboard.press("Tab");
        expect(await focused()).toMatchObject({ tag: "BUTTON", text: "Create key" });
        expect((await focused()).outline).toMatch(/^solid 3px/);
        await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
        const key = await text(page, "#new-key");
        expect(key).toMatch(/^sph_live_/);
        expect(await keyStatus(local, key)).toBe(200);
        const listed = (await local.store.accounts.listKeys()).find((k) => k.prefix === key.slice(0, 13));
        expect(listed?.name).toBe("keyboard only");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

describe("jobs", () => {
  let gen: GeneratedSite;
  beforeAll(() => {
    gen = startGeneratedSite(40, { latencyMs: 120 });
  });
  afterAll(() => gen?.stop());

  test(
    "a crawl's progress is followed live to 100% (server-sent events), then its pages and their markdown",
    async () => {
      const { page, context, problems } = await openPage();
      try {
        const start = await local.request("/v1/crawl", {
          method: "POST",
          body: JSON.stringify({
            url: `${gen.url}/g/0`,
            limit: 12,
            maxDepth: 20,
            ignoreSitemap: true,
            maxConcurrency: 1,
          }),
        });
        const { id } = (await start.json()) as { id: string };
        let navigations = 0;
        page.on("framenavigated", (frame) => {
          if (frame === page.mainFrame()) navigations++;
        });
        await page.goto(`${localUrl}/dashboard/jobs/${id}`);
        const progress = () =>
          page.$eval("#job-progress progress", (bar) => (bar as HTMLProgressElement).value);
        const first = await progress();
        expect(first).toBeLessThan(100);
        await capture(page, "job-running");
        // Seen rising on the page without a reload, then reaching 100%.
        const seen = new Set<number>([first]);
        for (let i = 0; i < 400 && (await progress()) < 100; i++) {
          seen.add(await progress());
          await Bun.sleep(25);
        }
        expect(await progress()).toBe(100);
        expect([...seen].some((value) => value > first && value < 100)).toBe(true);
        await page.waitForSelector("#job-progress[data-finished=completed]");
        expect(await text(page, "#job-progress [data-percent]")).toBe("100%");
        expect(await text(page, "#job-progress [data-status]")).toBe("completed");
        expect(await page.$$eval("#live-pages li", (items) => items.length)).toBeGreaterThan(0);
        expect(await page.$eval("#live-pages", (list) => (list.parentElement as HTMLElement).hidden)).toBe(
          false,
        );
        expect(navigations).toBe(1);

        // Reloaded: the pages and their markdown.
        await page.goto(`${localUrl}/dashboard/jobs/${id}`);
        const pages = await page.$$("ol.pages > li");
        expect(pages.length).toBe(12);
        await page.click("ol.pages > li:first-child summary");
        expect(await text(page, "ol.pages > li:first-child .rendered")).not.toBe("");
        expect(await text(page, "ol.pages > li:first-child pre")).toContain("enough prose to be content");
        await capture(page, "job-done");
        await page.goto(`${localUrl}/dashboard/jobs`);
        expect(await text(page, `tr[data-job-id="${id}"] [data-percent]`)).toBe("100%");
        await capture(page, "jobs");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

describe("watches", () => {
  test(
    "the list shows each watch's last check, and the diff of the last change opens from it",
    async () => {
      const { page, context, problems } = await openPage();
      try {
        setWatchPlans("browser", WATCH_PLANS);
        const created = await local.request("/v1/watch", {
          method: "POST",
          body: JSON.stringify({
            url: `${site.url}/watch/pricing/browser`,
            selector: "#plans",
            name: "Harbour prices",
          }),
        });
        const { id } = ((await created.json()) as { watch: { id: string } }).watch;
        const check = () => local.request(`/v1/watch/${id}/check`, { method: "POST" });
        await check();
        setWatchPlans("browser", [{ name: "Starter", price: "$12 per month" }, WATCH_PLANS[1]!]);
        await check();
        await page.goto(`${localUrl}/dashboard/watches`);
        expect(await text(page, `tr[data-watch-id="${id}"]`)).toContain("Harbour prices");
        expect(await text(page, `tr[data-watch-id="${id}"] td:nth-child(4)`)).toMatch(
          /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
        );
        // The change is folded away until opened (keyboard: Tab to it, Enter).
        expect(
          await page.$eval(`details[data-watch-change="${id}"]`, (d) => (d as HTMLDetailsElement).open),
        ).toBe(false);
        await page.focus(`details[data-watch-change="${id}"] summary`);
        await page.keyboard.press("Enter");
        const added = await text(page, `details[data-watch-change="${id}"] .diff .add`);
        expect(added).toContain("$12 per month");
        expect(await text(page, `details[data-watch-change="${id}"] .diff .del`)).toContain("$9 per month");
        await capture(page, "watches");
        await Promise.all([page.waitForNavigation(), page.click(`tr[data-watch-id="${id}"] a`)]);
        expect(await text(page, "main h1")).toBe("Harbour prices");
        expect(await text(page, "#diff .add")).toContain("$12 per month");
        await capture(page, "watch");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

describe("playground", () => {
  test(
    "fetches a page of the fixture site: rendered and raw markdown side by side, JSON, curl and siphon",
    async () => {
      const { page, context, problems } = await openPage();
      try {
        await page.goto(`${localUrl}/dashboard/playground`);
        const url = `${site.url}/article`;
        await page.type("#pg-url", url);
        await page.click("#pg-main");
        await Promise.all([
          page.waitForNavigation(),
          page.click("form[aria-label='Fetch a page'] button[type=submit]"),
        ]);
        const rendered = await page.$eval("[data-rendered]", (el) => ({
          // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what counts here
          text: (el as HTMLElement).innerText,
          paragraphs: el.querySelectorAll("p").length,
          box: el.getBoundingClientRect().width,
        }));
        expect(rendered.text).toContain("City Council");
        expect(rendered.paragraphs).toBeGreaterThan(2);
        const raw = await text(page, "[data-raw]");
        expect(raw).toContain("City Council");
        // Side by side: the raw column starts right of the rendered one.
        const [left, right] = await page.$$eval("[data-rendered], [data-raw]", (els) =>
          els.map((el) => el.getBoundingClientRect().left),
        );
        expect(right!).toBeGreaterThan(left! + rendered.box / 2);
        const json = JSON.parse((await page.$eval("#json-result", (el) => el.textContent)) ?? "{}");
        expect(json).toMatchObject({ url, method: "simple", statusCode: 200 });
        expect(json.title).toStartWith(ARTICLE_TITLE);
        expect(await text(page, "#cmd-curl")).toBe(
          `curl -s ${localUrl}/v1/fetch -d '{"url":"${url}","onlyMainContent":true}'`,
        );
        expect(await text(page, "#cmd-siphon")).toBe(`siphon fetch ${url} --only-main-content`);
        // The form keeps what was asked.
        expect(await page.$eval("#pg-main", (el) => (el as HTMLInputElement).checked)).toBe(true);
        await capture(page, "playground");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

describe("signed in to a hosted server", () => {
  async function signIn(page: Page, key: string): Promise<void> {
    await page.goto(`${hostedUrl}/dashboard/usage`);
    expect(page.url()).toStartWith(`${hostedUrl}/dashboard/sign-in`);
    await page.type("#key", key);
    await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")]);
    expect(page.url()).toBe(`${hostedUrl}/dashboard/usage`);
  }

  test(
    "the session cookie is HttpOnly, SameSite=Strict and scoped to /dashboard; usage and the demo playground render",
    async () => {
      const { page, context, problems } = await openPage();
      try {
        await page.goto(`${hostedUrl}/dashboard/playground`);
        expect(await text(page, "main")).toContain("POST /v1/demo");
        await capture(page, "playground-demo");
        await page.goto(`${hostedUrl}/dashboard/sign-in`);
        await capture(page, "sign-in");
        const { key } = await hosted.createKey("free");
        await hosted.request(`/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await signIn(page, key);
        const cookies = await context.cookies();
        const session = cookies.find((c) => c.name === "siphon_session");
        expect(session).toMatchObject({
          httpOnly: true,
          sameSite: "Strict",
          path: "/dashboard",
          secure: false,
        });
        // Script cannot read it.
        expect(await page.evaluate(() => document.cookie)).not.toContain("siphon_session");
        expect(await text(page, "[data-plan]")).toBe("free");
        expect(await page.$eval("meter#weekly", (m) => (m as HTMLMeterElement).value)).toBe(1);
        const bars = await page.$$eval("svg rect.bar", (rects) =>
          rects.map((r) => Number(r.getAttribute("height"))),
        );
        expect(bars).toHaveLength(30);
        expect(bars.at(-1)).toBeGreaterThan(0);
        await capture(page, "usage");
        await page.goto(`${hostedUrl}/dashboard/watches`);
        await capture(page, "watches-empty");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );

  test(
    "a form another site posts is refused: cross-site (no cookie) and same-site from another origin",
    async () => {
      const { page, context } = await openPage();
      const { key, accountId } = await hosted.createKey("free");
      const attacker = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        fetch: () =>
          new Response(
            `<!doctype html><html><body><form id="f" method="post" action="${hostedUrl}/dashboard/keys">` +
              `<input name="name" value="planted"><input name="csrf" value="guess"></form>` +
              `<script>document.getElementById("f").submit()</script></body></html>`,
            { headers: { "content-type": "text/html" } },
          ),
      });
      try {
        await signIn(page, key);
        const keysOf = async () =>
          (await hosted.store.accounts.listKeys())
            .filter((k) => k.accountId === accountId)
            .map((k) => k.name);
        const before = await keysOf();
        // localhost is another site than 127.0.0.1; 127.0.0.1 on another port is the same site, another origin.
        for (const origin of [`http://localhost:${attacker.port}`, `http://127.0.0.1:${attacker.port}`]) {
          const answered = page.waitForResponse(
            (r) => r.url() === `${hostedUrl}/dashboard/keys` && r.request().method() === "POST",
          );
          await page.goto(origin);
          const response = await answered;
          expect(response.status()).toBe(403);
          await page.waitForFunction(() => document.title.startsWith("Form refused"));
          expect(await text(page, "main")).toContain("nothing was changed");
        }
        await capture(page, "form-refused");
        expect(await keysOf()).toEqual(before);
        // Still signed in: the refusal did not end the session.
        await page.goto(`${hostedUrl}/dashboard/keys`);
        expect(page.url()).toBe(`${hostedUrl}/dashboard/keys`);
      } finally {
        attacker.stop(true);
        await context.close();
      }
    },
    BROWSER_TEST_MS,
  );
});

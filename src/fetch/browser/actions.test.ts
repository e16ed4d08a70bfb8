import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  DELAYED_TEXT,
  type FixtureSite,
  FORM_RESULT_PREFIX,
  SCROLL_INITIAL_ITEMS,
  startFixtureSite,
} from "../../../test/helpers/fixture-site.ts";
import { loadConfig } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { type PageAction, parseActions } from "../../schemas/actions.ts";
import type { FetchEngine } from "../types.ts";
import { runActions } from "./actions.ts";
import { createBrowserEngine } from "./engine.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";
import { trackActivity } from "./settle.ts";

const BROWSER_TEST_MS = 30_000;
const text = (body: Uint8Array) => new TextDecoder().decode(body);
const config = loadConfig({ SIPHON_HOME: "/nonexistent/siphon-test-home" }, { disableSsrfProtection: true });

let site: FixtureSite;
let pool: BrowserPool;
let engine: FetchEngine;

beforeAll(async () => {
  site = await startFixtureSite();
  pool = createBrowserPool(config);
  engine = createBrowserEngine(config, pool, { stealth: false });
});
afterAll(async () => {
  await pool.close();
  await site.stop();
});

/** Renders `path` with the actions (given in request form, validated like a request). */
async function render(path: string, actions: unknown[], timeoutMs?: number): Promise<string> {
  const page = await engine.fetch(`${site.url}${path}`, { actions: parseActions(actions), timeoutMs });
  return text(page.body);
}

async function actionError(path: string, actions: unknown[], timeoutMs?: number): Promise<SiphonError> {
  try {
    await render(path, actions, timeoutMs);
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected the actions to fail");
}

describe("page actions through the engine", () => {
  test(
    "type then click reveals the search result",
    async () => {
      const html = await render("/form", [
        { type: "type", selector: "#q", text: "kettles" },
        { type: "click", selector: "#go" },
      ]);
      expect(html).toContain(`${FORM_RESULT_PREFIX}kettles`);
    },
    BROWSER_TEST_MS,
  );

  test(
    "fill sets the value at once",
    async () => {
      const html = await render("/form", [
        { type: "fill", selector: "#q", value: "teapots" },
        { type: "click", selector: "#go" },
      ]);
      expect(html).toContain(`${FORM_RESULT_PREFIX}teapots`);
    },
    BROWSER_TEST_MS,
  );

  test(
    "select picks an option by value and fires change",
    async () => {
      const html = await render("/select", [{ type: "select", selector: "#size", value: "M" }]);
      expect(html).toContain('<span id="chosen">M</span>');
    },
    BROWSER_TEST_MS,
  );

  test(
    "scrolling down loads more items on an infinite feed",
    async () => {
      const before = (await render("/scroll", [])).match(/class="item"/g)?.length ?? 0;
      expect(before).toBe(SCROLL_INITIAL_ITEMS);
      const html = await render("/scroll", [
        { type: "scroll", direction: "down", amount: 5_000 },
        { type: "scroll", direction: "down" },
      ]);
      expect(html.match(/class="item"/g)?.length ?? 0).toBeGreaterThan(SCROLL_INITIAL_ITEMS);
    },
    BROWSER_TEST_MS,
  );

  test(
    "waitForSelector waits for late content",
    async () => {
      const html = await render("/delayed", [
        { type: "waitForSelector", selector: "#delayed", timeout: 5_000 },
      ]);
      expect(html).toContain(DELAYED_TEXT);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a selector that never appears is invalid_request naming index, type and selector",
    async () => {
      const error = await actionError("/form", [
        { type: "fill", selector: "#q", value: "x" },
        { type: "waitForSelector", selector: "#never", timeout: 300 },
      ]);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toBe(
        "actions[1] (waitForSelector #never): no element matches the selector after 300 ms",
      );
    },
    BROWSER_TEST_MS,
  );

  test(
    "a click on a missing element fails before the overall timeout, naming the action",
    async () => {
      const error = await actionError("/form", [{ type: "click", selector: "#buy" }], 2_000);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toStartWith("actions[0] (click #buy): no element matches the selector");
    },
    BROWSER_TEST_MS,
  );

  test(
    "an invalid selector or an unknown key is invalid_request",
    async () => {
      const selector = await actionError("/form", [{ type: "click", selector: "##" }]);
      expect(selector.message).toContain("actions[0] (click ##): ");
      expect(selector.message).toContain("not a valid CSS selector");
      const key = await actionError("/keys", [{ type: "press", key: "Bogus" }]);
      expect(key.type).toBe("invalid_request");
      expect(key.message).toStartWith("actions[0] (press Bogus)");
    },
    BROWSER_TEST_MS,
  );

  test(
    "press Enter submits what was typed",
    async () => {
      const html = await render("/keys", [
        { type: "type", selector: "#box", text: "hello there" },
        { type: "press", key: "Enter" },
      ]);
      expect(html).toMatch(/<p id="entered">hello there<\/p>/);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a screenshot action returns a PNG with the page",
    async () => {
      const page = await engine.fetch(`${site.url}/form`, {
        actions: parseActions([{ type: "screenshot" }, { type: "screenshot", fullPage: true }]),
      });
      expect(page.actionOutputs?.screenshots).toHaveLength(2);
      const png = page.actionOutputs?.screenshots[0];
      expect(
        Buffer.from(png?.data ?? [])
          .subarray(0, 8)
          .toString("hex"),
      ).toBe("89504e470d0a1a0a");
      expect(png?.width).toBe(1280);
      expect(png?.height).toBe(720);
    },
    BROWSER_TEST_MS,
  );
});

describe("actions that return something: executeJavascript, scrape, pdf", () => {
  test(
    "a script's return value comes back with its type, awaited; what it changes is in the page read",
    async () => {
      const page = await engine.fetch(`${site.url}/form`, {
        actions: parseActions([
          { type: "executeJavascript", script: "return document.querySelectorAll('input').length;" },
          {
            type: "executeJavascript",
            script:
              "await new Promise((r) => setTimeout(r, 50)); document.body.insertAdjacentHTML('beforeend', '<p id=added>added by a script</p>'); return {title: document.title, list: [1, 'two', null]};",
          },
          { type: "executeJavascript", script: "document.title;" },
          { type: "executeJavascript", script: "return null" },
        ]),
      });
      const returns = page.actionOutputs?.javascriptReturns;
      expect(returns?.[0]).toEqual({ type: "number", value: 1 });
      expect(returns?.[1]?.type).toBe("object");
      expect(returns?.[1]?.value).toMatchObject({ list: [1, "two", null] });
      // No return statement: undefined, carried as null.
      expect(returns?.[2]).toEqual({ type: "undefined", value: null });
      expect(returns?.[3]).toEqual({ type: "null", value: null });
      expect(text(page.body)).toContain("added by a script");
    },
    BROWSER_TEST_MS,
  );

  test(
    "a script that throws, does not parse, returns a cycle or never ends is a 400 naming the action",
    async () => {
      const thrown = await actionError("/form", [
        { type: "wait", ms: 1 },
        { type: "executeJavascript", script: "throw new Error('no basket on this page')" },
      ]);
      expect(thrown.type).toBe("invalid_request");
      expect(thrown.message).toStartWith("actions[1] (executeJavascript): the script threw Error: no basket");
      const syntax = await actionError("/form", [{ type: "executeJavascript", script: "return (;" }]);
      expect(syntax.message).toStartWith("actions[0] (executeJavascript): the script did not run");
      const cycle = await actionError("/form", [
        { type: "executeJavascript", script: "const a = {}; a.self = a; return a;" },
      ]);
      expect(cycle.message).toContain("its return value is not JSON");
      const started = Date.now();
      const forever = await actionError(
        "/form",
        [{ type: "executeJavascript", script: "await new Promise(() => {});" }],
        3000,
      );
      expect(forever.message).toContain("the script did not finish within");
      expect(Date.now() - started).toBeLessThan(6000);
    },
    BROWSER_TEST_MS,
  );

  test(
    "scrape keeps the page as it was at that moment; pdf prints it in the asked size and orientation",
    async () => {
      const page = await engine.fetch(`${site.url}/form`, {
        actions: parseActions([
          { type: "scrape" },
          { type: "type", selector: "#q", text: "kettles" },
          { type: "click", selector: "#go" },
          { type: "scrape" },
          { type: "pdf" },
          { type: "pdf", format: "A4", landscape: true, scale: 0.5 },
        ]),
      });
      const scrapes = page.actionOutputs?.scrapes ?? [];
      expect(scrapes).toHaveLength(2);
      expect(scrapes[0]?.html).not.toContain(`${FORM_RESULT_PREFIX}kettles`);
      expect(scrapes[1]?.html).toContain(`${FORM_RESULT_PREFIX}kettles`);
      expect(scrapes[0]?.url).toStartWith(`${site.url}/form`);
      const pdfs = page.actionOutputs?.pdfs ?? [];
      expect(pdfs).toHaveLength(2);
      const header = (pdf: Uint8Array | undefined) =>
        Buffer.from(pdf ?? [])
          .subarray(0, 5)
          .toString();
      expect(header(pdfs[0])).toBe("%PDF-");
      // The page's media box: Letter portrait is 612 x 792 points, A4 landscape 842 x 595.
      const box = (pdf: Uint8Array | undefined) =>
        /MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)/
          .exec(Buffer.from(pdf ?? []).toString("latin1"))
          ?.slice(1)
          .map(Number);
      const near = (got: number[] | undefined, want: number[]) =>
        want.every((side, i) => Math.abs((got?.[i] ?? 0) - side) <= 2);
      expect(near(box(pdfs[0]), [612, 792])).toBe(true);
      expect(near(box(pdfs[1]), [842, 595])).toBe(true);
    },
    BROWSER_TEST_MS,
  );
});

describe("runActions on a page", () => {
  test(
    "hover shows what only shows under the pointer",
    async () => {
      const visible = await pool.withPage(async (page) => {
        await page.setViewport({ width: 1280, height: 720 });
        const tracker = trackActivity(page);
        await page.goto(`${site.url}/hover`, { waitUntil: "load" });
        const shown = () => page.$eval("#submenu", (el) => getComputedStyle(el).display);
        const before = await shown();
        const actions: PageAction[] = [{ type: "hover", selector: "#menu" }];
        await runActions(page, actions, {
          deadline: Date.now() + 10_000,
          viewport: { width: 1280, height: 720 },
          tracker,
          maxBytes: config.maxBodyBytes,
        });
        return [before, await shown()];
      });
      expect(visible).toEqual(["none", "block"]);
    },
    BROWSER_TEST_MS,
  );
});

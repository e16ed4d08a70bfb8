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
      expect(page.actionScreenshots).toHaveLength(2);
      const png = page.actionScreenshots?.[0];
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
        });
        return [before, await shown()];
      });
      expect(visible).toEqual(["none", "block"]);
    },
    BROWSER_TEST_MS,
  );
});

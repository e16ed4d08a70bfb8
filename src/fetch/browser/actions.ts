import type { ElementHandle, KeyInput, Page } from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import type { PageAction } from "../../schemas/actions.ts";
import type { Capture } from "../types.ts";
import { capture } from "./capture.ts";
import { settle } from "./readiness.ts";
import type { ActivityTracker } from "./settle.ts";

/** How long an action waits for its element to appear before failing (waitForSelector sets its own). */
const SELECTOR_WAIT_MS = 5_000;
/** How long a click or key press may take to start a navigation before we assume it did not. */
const NAVIGATION_START_MS = 150;
/** Time left to report a failed action before the overall timeout fires. */
const DEADLINE_MARGIN_MS = 250;
/** Upper bound on waiting for what an action set off (navigation, lazy loading) to finish. */
const AFTER_ACTION_MS = 5_000;

/** What actions need from the engine running them. */
export interface ActionContext {
  /** Epoch ms by which the whole fetch must be done; no action waits past it. */
  deadline: number;
  /** Viewport in CSS pixels; a scroll of amount 0 moves one viewport. */
  viewport: { width: number; height: number };
  /** Open requests and navigations of the page, to wait for what an action set off. */
  tracker: ActivityTracker;
}

function describe(action: PageAction, index: number): string {
  const detail =
    "selector" in action
      ? ` ${action.selector}`
      : action.type === "press"
        ? ` ${action.key}`
        : action.type === "scroll"
          ? ` ${action.direction}`
          : "";
  return `actions[${index}] (${action.type}${detail})`;
}

function failure(action: PageAction, index: number, message: string, cause?: unknown): SiphonError {
  return new SiphonError("invalid_request", `${describe(action, index)}: ${message}`, {
    hint: "Check the selector against the rendered page (not the page source), or raise its timeout.",
    cause,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Puppeteer's own selector syntaxes (::-p-text, aria/, xpath/...) that the CSS parser does not know. */
const PUPPETEER_SELECTOR = /::-p-|^(aria|pierce|text|xpath)\//;

/** Puppeteer keeps polling a selector the CSS parser rejects; ask the parser once instead. */
async function isValidSelector(page: Page, selector: string): Promise<boolean> {
  if (PUPPETEER_SELECTOR.test(selector)) return true;
  return page.evaluate((css) => {
    try {
      document.createDocumentFragment().querySelector(css);
      return true;
    } catch {
      return false;
    }
  }, selector);
}

/** Waits for the element; a bad selector or one that never matches is the caller's error. */
async function element(
  page: Page,
  action: PageAction & { selector: string },
  index: number,
  ctx: ActionContext,
  waitMs = SELECTOR_WAIT_MS,
): Promise<ElementHandle> {
  if (!(await isValidSelector(page, action.selector))) {
    throw failure(action, index, `"${action.selector}" is not a valid CSS selector`);
  }
  // Give up a little before the fetch's deadline, so the answer names the action, not a timeout.
  const timeout = Math.max(1, Math.min(waitMs, ctx.deadline - Date.now() - DEADLINE_MARGIN_MS));
  try {
    const found = await page.waitForSelector(action.selector, { timeout });
    if (found) return found;
  } catch (error) {
    if ((error as Error | null)?.name !== "TimeoutError") throw error;
    throw failure(action, index, `no element matches the selector after ${timeout} ms`, error);
  }
  throw failure(action, index, `no element matches the selector after ${timeout} ms`);
}

/** After a click or key press: if it started a navigation, wait for the new document (best effort). */
async function afterInteraction(page: Page, ctx: ActionContext): Promise<void> {
  const until = Math.min(ctx.deadline, Date.now() + AFTER_ACTION_MS);
  const startedBy = Date.now() + NAVIGATION_START_MS;
  while (!ctx.tracker.navigating && ctx.tracker.pending === 0 && Date.now() < startedBy) await sleep(15);
  if (ctx.tracker.navigating || ctx.tracker.pending > 0) await settle(page, ctx.tracker, until);
}

/** Sets a field's value the way a framework notices: the native setter, then input and change events. */
function setValue(el: Element, text: string): void {
  const field = el as HTMLInputElement;
  if (field.isContentEditable) {
    field.textContent = text;
  } else {
    const proto = Object.getPrototypeOf(field) as object;
    const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
    if (setter) setter.call(field, text);
    else field.value = text;
  }
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
}

/** Picks the option whose value, else whose visible label, equals `wanted`; returns its value or null. */
function chooseOption(el: Element, wanted: string): string | null {
  const select = el as HTMLSelectElement;
  if (!select.options) return null;
  const options = [...select.options];
  const option =
    options.find((o) => o.value === wanted) ?? options.find((o) => o.label.trim() === wanted.trim());
  if (!option) return null;
  select.value = option.value;
  select.dispatchEvent(new Event("input", { bubbles: true }));
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return option.value;
}

async function runOne(
  page: Page,
  action: PageAction,
  index: number,
  ctx: ActionContext,
  captures: Capture[],
): Promise<void> {
  switch (action.type) {
    case "click": {
      const el = await element(page, action, index, ctx);
      await el.click();
      await afterInteraction(page, ctx);
      return;
    }
    case "type": {
      const el = await element(page, action, index, ctx);
      await el.focus();
      await page.keyboard.type(action.text);
      return;
    }
    case "fill": {
      const el = await element(page, action, index, ctx);
      await el.evaluate(setValue, action.text);
      return;
    }
    case "select": {
      const el = await element(page, action, index, ctx);
      const chosen = await el.evaluate(chooseOption, action.value);
      if (chosen === null) throw failure(action, index, `no option has the value or label "${action.value}"`);
      return;
    }
    case "scroll": {
      const horizontal = action.direction === "left" || action.direction === "right";
      const step = action.amount || (horizontal ? ctx.viewport.width : ctx.viewport.height);
      const sign = action.direction === "up" || action.direction === "left" ? -1 : 1;
      await page.evaluate(
        (x, y) => window.scrollBy({ left: x, top: y, behavior: "instant" }),
        horizontal ? sign * step : 0,
        horizontal ? 0 : sign * step,
      );
      // Infinite scroll loads on the scroll event: give it the chance to fetch and render.
      await settle(page, ctx.tracker, Math.min(ctx.deadline, Date.now() + AFTER_ACTION_MS));
      return;
    }
    case "wait":
      await sleep(Math.min(action.ms, ctx.deadline - Date.now()));
      return;
    case "waitForSelector":
      await element(page, action, index, ctx, action.timeout);
      return;
    case "press":
      try {
        await page.keyboard.press(action.key as KeyInput);
      } catch (error) {
        if (/Unknown key/i.test(String((error as Error | null)?.message))) {
          throw failure(
            action,
            index,
            `"${action.key}" is not a key name (try Enter, Tab, ArrowDown)`,
            error,
          );
        }
        throw error;
      }
      await afterInteraction(page, ctx);
      return;
    case "hover": {
      const el = await element(page, action, index, ctx);
      await el.hover();
      return;
    }
    case "screenshot":
      captures.push(await capture(page, { fullPage: action.fullPage, format: "png" }));
      return;
  }
}

/**
 * Runs validated page actions in order and returns the images of `screenshot` actions.
 * @throws SiphonError invalid_request naming the action's index, type and selector when its
 *   element never appears, its selector is invalid, its option or key does not exist;
 *   otherwise what puppeteer throws (browser gone, page closed by the engine's timeout)
 */
export async function runActions(page: Page, actions: PageAction[], ctx: ActionContext): Promise<Capture[]> {
  const captures: Capture[] = [];
  for (const [index, action] of actions.entries()) {
    await runOne(page, action, index, ctx, captures);
  }
  return captures;
}

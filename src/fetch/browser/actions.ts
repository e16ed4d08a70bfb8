import type { ElementHandle, KeyInput, Page } from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import type { PageAction } from "../../schemas/actions.ts";
import type { ActionOutputs } from "../types.ts";
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
/** Most a script's return value may weigh, as JSON (characters). */
const MAX_RETURN_CHARS = 1_000_000;

/** What actions need from the engine running them. */
export interface ActionContext {
  /** Epoch ms by which the whole fetch must be done; no action waits past it. */
  deadline: number;
  /** Viewport in CSS pixels; a scroll of amount 0 moves one viewport. */
  viewport: { width: number; height: number };
  /** Open requests and navigations of the page, to wait for what an action set off. */
  tracker: ActivityTracker;
  /** Most bytes a printed PDF or a scraped page may hold (the fetch's body limit). */
  maxBytes: number;
}

function describe(action: PageAction, index: number): string {
  const detail =
    "selector" in action
      ? ` ${action.selector}`
      : action.type === "press"
        ? ` ${action.key}`
        : action.type === "scroll"
          ? ` ${action.direction}`
          : action.type === "pdf"
            ? ` ${action.format}`
            : "";
  return `actions[${index}] (${action.type}${detail})`;
}

function failure(
  action: PageAction,
  index: number,
  message: string,
  cause?: unknown,
  hint = "Check the selector against the rendered page (not the page source), or raise its timeout.",
): SiphonError {
  return new SiphonError("invalid_request", `${describe(action, index)}: ${message}`, { hint, cause });
}

const SCRIPT_HINT =
  "The script runs in the page as the body of an async function: use return for a value (JSON-serialisable).";

/**
 * The page-side wrapper of a script: its body in an async function, the value it returns as
 * JSON with its typeof, or the message of what it threw. Evaluated over CDP, so the page's
 * Content-Security-Policy does not stop it, as it does not stop the page's own devtools.
 */
function wrapScript(script: string): string {
  return `(async () => {
  let value;
  try {
    value = await (async () => {
${script}
    })();
  } catch (error) {
    return { thrown: String(error && error.stack ? error.stack.split("\\n")[0] : error) };
  }
  try {
    const json = JSON.stringify(value === undefined ? null : value);
    return { type: value === null ? "null" : typeof value, json: json === undefined ? "null" : json };
  } catch (error) {
    return { unserialisable: String(error) };
  }
})()`;
}

type ScriptOutcome = { thrown: string } | { unserialisable: string } | { type: string; json: string };

/** Runs an executeJavascript action: its return value, or a 400 naming the action and what went wrong. */
async function runScript(
  page: Page,
  action: PageAction & { type: "executeJavascript" },
  index: number,
  ctx: ActionContext,
): Promise<{ type: string; value: unknown }> {
  const left = ctx.deadline - Date.now() - DEADLINE_MARGIN_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), Math.max(1, left));
  });
  let outcome: ScriptOutcome | "late";
  try {
    outcome = await Promise.race([page.evaluate(wrapScript(action.script)) as Promise<ScriptOutcome>, late]);
  } catch (error) {
    // A script that does not parse is refused by the page before it runs.
    const message = String((error as Error | null)?.message ?? error).split("\n")[0];
    throw failure(action, index, `the script did not run: ${message}`, error, SCRIPT_HINT);
  } finally {
    clearTimeout(timer);
  }
  if (outcome === "late") {
    throw failure(
      action,
      index,
      `the script did not finish within ${Math.max(1, left)} ms`,
      undefined,
      SCRIPT_HINT,
    );
  }
  if ("thrown" in outcome)
    throw failure(action, index, `the script threw ${outcome.thrown}`, undefined, SCRIPT_HINT);
  if ("unserialisable" in outcome) {
    throw failure(
      action,
      index,
      `its return value is not JSON: ${outcome.unserialisable}`,
      undefined,
      SCRIPT_HINT,
    );
  }
  if (outcome.json.length > MAX_RETURN_CHARS) {
    throw failure(
      action,
      index,
      `its return value is ${outcome.json.length} characters of JSON, more than ${MAX_RETURN_CHARS}`,
      undefined,
      SCRIPT_HINT,
    );
  }
  return { type: outcome.type, value: JSON.parse(outcome.json) };
}

/** Runs a pdf action: the page printed with its backgrounds, within the fetch's body limit. */
async function printPdf(
  page: Page,
  action: PageAction & { type: "pdf" },
  index: number,
  ctx: ActionContext,
): Promise<Uint8Array> {
  const pdf = await page.pdf({
    format: action.format,
    landscape: action.landscape,
    scale: action.scale,
    printBackground: true,
    timeout: Math.max(1, ctx.deadline - Date.now() - DEADLINE_MARGIN_MS),
  });
  if (pdf.byteLength > ctx.maxBytes) {
    throw failure(
      action,
      index,
      `the printed page is ${pdf.byteLength} bytes, more than the ${ctx.maxBytes}-byte limit`,
      undefined,
      "Print a smaller part of the page (a lower scale), or raise SIPHON_MAX_BODY_BYTES on a self-hosted server.",
    );
  }
  return new Uint8Array(pdf);
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
  outputs: ActionOutputs,
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
      outputs.screenshots.push(await capture(page, { fullPage: action.fullPage, format: "png" }));
      return;
    case "executeJavascript":
      outputs.javascriptReturns.push(await runScript(page, action, index, ctx));
      // A script may click, navigate or load more, as a click does.
      await afterInteraction(page, ctx);
      return;
    case "pdf":
      outputs.pdfs.push(await printPdf(page, action, index, ctx));
      return;
    case "scrape":
      outputs.scrapes.push({ url: page.url(), html: await page.content() });
      return;
  }
}

/**
 * Runs validated page actions in order and returns what they made: the images of `screenshot`
 * actions, the pages of `scrape` actions, the return values of `executeJavascript` actions and
 * the prints of `pdf` actions, each in order.
 * @throws SiphonError invalid_request naming the action's index, type and selector when its
 *   element never appears, its selector is invalid, its option or key does not exist, its
 *   script throws, returns what JSON cannot hold or outlives the fetch, or its PDF is over the
 *   body limit; otherwise what puppeteer throws (browser gone, page closed by the engine's timeout)
 */
export async function runActions(
  page: Page,
  actions: PageAction[],
  ctx: ActionContext,
): Promise<ActionOutputs> {
  const outputs: ActionOutputs = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    await runOne(page, action, index, ctx, outputs);
  }
  return outputs;
}

/** Whether actions made anything to return. */
export const madeOutputs = (outputs: ActionOutputs) =>
  outputs.screenshots.length +
    outputs.scrapes.length +
    outputs.javascriptReturns.length +
    outputs.pdfs.length >
  0;

import { Type as T } from "@sinclair/typebox";
import { SiphonError } from "../errors.ts";

/** A page action after validation, with SPEC's field aliases folded into one name. */
export type PageAction =
  | { type: "click"; selector: string }
  | { type: "type"; selector: string; text: string }
  | { type: "fill"; selector: string; text: string }
  | { type: "select"; selector: string; value: string }
  | { type: "scroll"; direction: "up" | "down" | "left" | "right"; amount: number }
  | { type: "wait"; ms: number }
  | { type: "waitForSelector"; selector: string; timeout: number }
  | { type: "press"; key: string }
  | { type: "hover"; selector: string }
  | { type: "screenshot"; fullPage: boolean }
  | { type: "executeJavascript"; script: string }
  | { type: "pdf"; format: PaperFormat; landscape: boolean; scale: number }
  | { type: "scrape" };

/** Paper sizes a pdf action prints on (Chromium's and Firecrawl's names). */
export const PAPER_FORMATS = [
  "A0",
  "A1",
  "A2",
  "A3",
  "A4",
  "A5",
  "A6",
  "Letter",
  "Legal",
  "Tabloid",
  "Ledger",
] as const;
export type PaperFormat = (typeof PAPER_FORMATS)[number];
/** Longest script an executeJavascript action may carry (characters). */
export const MAX_SCRIPT_CHARS = 100_000;
/** Print scale of a pdf action: Chromium accepts 0.1 to 2. */
const MIN_SCALE = 0.1;
const MAX_SCALE = 2;

export const ACTION_TYPES = [
  "click",
  "type",
  "fill",
  "select",
  "scroll",
  "wait",
  "waitForSelector",
  "press",
  "hover",
  "screenshot",
  "executeJavascript",
  "pdf",
  "scrape",
] as const;

export const MAX_ACTIONS = 50;
const MAX_WAIT_MS = 60_000;
const DEFAULT_SELECTOR_TIMEOUT_MS = 10_000;

/** OpenAPI description of one action (validation is `parseActions`, which names the failing index). */
export const PageActionDoc = T.Object(
  {
    type: T.Union(
      ACTION_TYPES.map((t) => T.Literal(t)),
      { description: "Action type" },
    ),
    selector: T.Optional(
      T.String({ description: "CSS selector (click, type, fill, select, hover, waitForSelector)" }),
    ),
    value: T.Optional(
      T.String({ description: "Text to type or fill, or the option to select (alias: text)" }),
    ),
    text: T.Optional(T.String({ description: "Alias of value for type and fill" })),
    direction: T.Optional(
      T.Union([T.Literal("up"), T.Literal("down"), T.Literal("left"), T.Literal("right")]),
    ),
    amount: T.Optional(
      T.Integer({ minimum: 1, maximum: 100_000, description: "Pixels to scroll (default one viewport)" }),
    ),
    ms: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: MAX_WAIT_MS,
        description: "wait: milliseconds (alias: milliseconds)",
      }),
    ),
    milliseconds: T.Optional(T.Integer({ minimum: 0, maximum: MAX_WAIT_MS })),
    timeout: T.Optional(
      T.Integer({ minimum: 0, maximum: MAX_WAIT_MS, description: "waitForSelector: ms, default 10000" }),
    ),
    key: T.Optional(T.String({ description: "press: a key name such as Enter, Tab, ArrowDown" })),
    fullPage: T.Optional(T.Boolean({ description: "screenshot: capture the whole page" })),
    script: T.Optional(
      T.String({
        maxLength: MAX_SCRIPT_CHARS,
        description:
          "executeJavascript: JavaScript run in the page as the body of an async function; what it returns (JSON-serialisable) comes back in actions.javascriptReturns",
      }),
    ),
    format: T.Optional(
      T.Union(
        PAPER_FORMATS.map((f) => T.Literal(f)),
        { description: "pdf: paper size, default Letter" },
      ),
    ),
    landscape: T.Optional(T.Boolean({ description: "pdf: landscape orientation" })),
    scale: T.Optional(
      T.Number({ minimum: MIN_SCALE, maximum: MAX_SCALE, description: "pdf: print scale, default 1" }),
    ),
  },
  { additionalProperties: false },
);

function fail(index: number, message: string): never {
  throw new SiphonError("invalid_request", `actions[${index}]: ${message}`, {
    hint: `Each action is an object with a type: ${ACTION_TYPES.join(", ")}.`,
  });
}

function str(a: Record<string, unknown>, index: number, key: string, type: string): string {
  const value = a[key];
  if (typeof value !== "string" || value.trim() === "")
    fail(index, `${type} needs a non-empty "${key}" string`);
  return value;
}

function int(a: Record<string, unknown>, index: number, key: string, fallback: number, max: number): number {
  const value = a[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    fail(index, `"${key}" must be an integer from 0 to ${max}`);
  }
  return value;
}

function textOf(a: Record<string, unknown>, index: number, type: string): string {
  const value = a.value ?? a.text;
  if (typeof value !== "string") fail(index, `${type} needs "value" (or "text") as a string`);
  return value;
}

function parseOne(raw: unknown, index: number): PageAction {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) fail(index, "must be an object with a type");
  const a = raw as Record<string, unknown>;
  const type = a.type;
  switch (type) {
    case "click":
    case "hover":
      return { type, selector: str(a, index, "selector", type) };
    case "type":
    case "fill":
      return { type, selector: str(a, index, "selector", type), text: textOf(a, index, type) };
    case "select":
      return { type, selector: str(a, index, "selector", type), value: textOf(a, index, type) };
    case "scroll": {
      const direction = a.direction ?? "down";
      if (direction !== "up" && direction !== "down" && direction !== "left" && direction !== "right") {
        fail(index, 'scroll "direction" must be up, down, left or right');
      }
      // 0 means "one viewport": the engine knows the viewport, the schema does not.
      return { type, direction, amount: int(a, index, "amount", 0, 100_000) };
    }
    case "wait": {
      const key = a.ms !== undefined ? "ms" : "milliseconds";
      if (a[key] === undefined) fail(index, 'wait needs "ms" (or "milliseconds")');
      return { type, ms: int(a, index, key, 0, MAX_WAIT_MS) };
    }
    case "waitForSelector":
      return {
        type,
        selector: str(a, index, "selector", type),
        timeout: int(a, index, "timeout", DEFAULT_SELECTOR_TIMEOUT_MS, MAX_WAIT_MS),
      };
    case "press":
      return { type, key: str(a, index, "key", type) };
    case "screenshot":
      return { type, fullPage: a.fullPage === true };
    case "executeJavascript": {
      const script = str(a, index, "script", type);
      if (script.length > MAX_SCRIPT_CHARS)
        fail(index, `"script" must be at most ${MAX_SCRIPT_CHARS} characters`);
      return { type, script };
    }
    case "pdf": {
      const format = a.format ?? "Letter";
      if (!PAPER_FORMATS.includes(format as PaperFormat)) {
        fail(index, `pdf "format" must be one of ${PAPER_FORMATS.join(", ")}`);
      }
      if (a.landscape !== undefined && typeof a.landscape !== "boolean") {
        fail(index, 'pdf "landscape" must be true or false');
      }
      const scale = a.scale ?? 1;
      if (typeof scale !== "number" || !(scale >= MIN_SCALE && scale <= MAX_SCALE)) {
        fail(index, `pdf "scale" must be a number from ${MIN_SCALE} to ${MAX_SCALE}`);
      }
      return { type, format: format as PaperFormat, landscape: a.landscape === true, scale };
    }
    case "scrape":
      return { type };
    default:
      return fail(index, typeof type === "string" ? `unknown action type "${type}"` : 'missing "type"');
  }
}

/**
 * Validates page actions up front, before any browser work: an unknown type
 * or a missing field is invalid_request naming the action's index.
 */
export function parseActions(raw: unknown): PageAction[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    throw new SiphonError("invalid_request", "actions must be an array of action objects");
  }
  if (raw.length > MAX_ACTIONS) {
    throw new SiphonError("invalid_request", `actions may hold at most ${MAX_ACTIONS} actions`);
  }
  return raw.map(parseOne);
}

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
  | { type: "screenshot"; fullPage: boolean };

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

import { readFileSync } from "node:fs";
import { SiphonError } from "../src/errors.ts";

/** Flags shared by the commands that drive the browser. */
export const browserArgs = {
  actions: {
    type: "string",
    description: "Page actions: a JSON array, or a file holding one",
    valueHint: "json|file",
  },
  stealth: { type: "boolean", description: "Use the stealth browser (bot-detection evasions)" },
  headers: {
    type: "string",
    description: 'Custom headers as a JSON object, e.g. \'{"X-Token":"1"}\'',
    valueHint: "json",
  },
  cookies: { type: "string", description: 'Cookies as "a=1; b=2"', valueHint: "list" },
} as const;

/**
 * The browser options as schemaFlags derives them from a request schema (FetchBody,
 * ScreenshotBody, a crawl's scrapeOptions): the same flags as browserArgs, read the same way.
 */
export const browserFlagOptions = {
  actions: {
    description: browserArgs.actions.description,
    valueHint: browserArgs.actions.valueHint,
    parse: (text: string) => actionsFlag(text),
  },
  stealth: true,
  headers: { description: browserArgs.headers.description, parse: (text: string) => headersFlag(text) },
  cookies: {
    description: browserArgs.cookies.description,
    valueHint: browserArgs.cookies.valueHint,
    parse: (text: string) => cookiesFlag(text),
  },
} as const;

function parseJson(text: string, flag: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SiphonError("invalid_request", `--${flag} must be ${what}`);
  }
}

/** --actions: inline JSON when it looks like JSON, else a file to read. */
export function actionsFlag(value: unknown): unknown {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (text.startsWith("[") || text.startsWith("{"))
    return parseJson(text, "actions", "a JSON array of page actions");
  let file: string;
  try {
    file = readFileSync(text, "utf8");
  } catch {
    throw new SiphonError("invalid_request", `--actions: cannot read the file "${text}"`, {
      hint: "Pass a JSON array inline or the path of a file holding one.",
    });
  }
  return parseJson(file, "actions", `a JSON array of page actions (in ${text})`);
}

/** --headers: a JSON object of strings. */
export function headersFlag(value: unknown): unknown {
  return typeof value === "string"
    ? parseJson(value, "headers", "a JSON object of header names to values")
    : undefined;
}

/** --cookies: "a=1; b=2" to ["a=1", "b=2"]. */
export function cookiesFlag(value: unknown): string[] | undefined {
  if (typeof value !== "string") return undefined;
  return value
    .split(";")
    .map((c) => c.trim())
    .filter(Boolean);
}

/** Parses a numeric flag, naming it when it is not a number. */
export function numberFlag(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (String(value).trim() === "" || !Number.isFinite(n)) {
    throw new SiphonError("invalid_request", `--${flag} must be a number, got "${value}"`);
  }
  return n;
}

/** Drops undefined keys so schema defaults apply. */
export function defined(input: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input;
}

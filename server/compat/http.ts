import { Elysia } from "elysia";
import type { Admission } from "../../src/auth/meter.ts";
import { type ErrorType, SiphonError } from "../../src/errors.ts";
import { type Guard, metered } from "../guard.ts";

/**
 * The HTTP side of siphon's Firecrawl-compatible API, shared by every compat route (scrape and
 * the team endpoints here; crawl, batch, map, search, extract and agent build on it):
 *
 * - `compatPlugin(name)`: an Elysia plugin whose routes answer errors Firecrawl's way. Routes
 *   just throw (SiphonError, or anything: the app's error handler logs the unexpected); the
 *   plugin turns the app's answer into `{success: false, error, code, details?}` with
 *   Firecrawl's status (`firecrawlStatus`), keeping every header (X-Request-Id, Retry-After,
 *   the usage headers). Body parse failures (malformed JSON, too large) are covered too.
 * - `readFirecrawlBody(body, fields)`: the body normaliser. Keys Firecrawl clients send that
 *   change nothing here (`origin`, `integration`, …) are accepted and dropped; keys of features
 *   siphon lacks are refused (400 not_implemented) unless they hold their no-op value; unknown
 *   keys are refused (400), as Firecrawl's strict schemas do.
 * - `compatMetered(...)`: guard.ts's `metered` (auth, burst window, weekly quota, credits and
 *   usage headers) with Firecrawl clients' way of sending no key (`Bearer ` and nothing).
 *
 * Success answers are HTTP 200 with `success: true`, job starts included; build them in the
 * route.
 */

/** A Firecrawl error body. */
export interface FirecrawlErrorBody {
  success: false;
  /** What went wrong and, when siphon has one, what to do about it. */
  error: string;
  /** siphon's error type (the same names as the native API's error.type). */
  code?: string;
  details?: unknown;
}

/**
 * Firecrawl's HTTP status for each siphon error type. Firecrawl answers a bad request 400, a
 * key problem 401, a blocked or forbidden target 403, an unknown id 404, a scrape past its
 * timeout 408 and a rate limit 429 (with Retry-After); a scrape that fails upstream (DNS,
 * connection, an unreadable or oversized answer) is its 500 (SCRAPE_ALL_ENGINES_FAILED and
 * the like), never 502/504: the JS SDK retries a 502 three times and the v1 SDK only reads the
 * message of 400, 402, 403, 408, 409 and 500. A feature siphon lacks is a 400, as Firecrawl's
 * own "actions not supported" is. 402 (credits) never happens: siphon's weekly quota is soft.
 */
export const FIRECRAWL_STATUS: Record<ErrorType, number> = {
  invalid_request: 400,
  invalid_url: 400,
  not_implemented: 400,
  method_not_allowed: 405,
  payload_too_large: 413,
  unauthorized: 401,
  invalid_token: 401,
  forbidden_url: 403,
  forbidden_host: 403,
  blocked: 403,
  not_found: 404,
  timeout: 408,
  rate_limited: 429,
  unsupported_content: 500,
  network_error: 500,
  content_too_large: 500,
  internal_error: 500,
  search_failed: 500,
  answer_failed: 500,
  browser_unavailable: 500,
  store_unavailable: 500,
};

/** The Firecrawl error body and status of a SiphonError; the hint, when there is one, goes in details. */
export function firecrawlError(error: SiphonError): { status: number; body: FirecrawlErrorBody } {
  return {
    status: FIRECRAWL_STATUS[error.type],
    body: errorBody(error.type, error.message, error.hint),
  };
}

function errorBody(type: ErrorType, message: string, hint?: string): FirecrawlErrorBody {
  const body: FirecrawlErrorBody = { success: false, error: message, code: type };
  if (hint) body.details = { hint };
  return body;
}

interface FormatB {
  success?: unknown;
  error?: { type?: unknown; message?: unknown; hint?: unknown };
}

const isErrorType = (type: unknown): type is ErrorType =>
  typeof type === "string" && Object.hasOwn(FIRECRAWL_STATUS, type);

/**
 * Rewrites the app's error answer (SPEC format B, built once by the app's error handler with
 * the request id, usage headers and Retry-After) into Firecrawl's shape and status.
 */
/**
 * The app's format-B error answer as Firecrawl's `{success: false, error, code, details?}` with
 * Firecrawl's status, every header kept; undefined for anything else (it passes untouched).
 */
export async function rewriteError({ response }: { response: unknown }): Promise<Response | undefined> {
  if (!(response instanceof Response) || response.status < 400) return undefined;
  let parsed: FormatB;
  try {
    parsed = (await response.clone().json()) as FormatB;
  } catch {
    return undefined;
  }
  const type = parsed.error?.type;
  if (parsed.success !== false || !isErrorType(type) || typeof parsed.error?.message !== "string")
    return undefined;
  const hint = typeof parsed.error.hint === "string" ? parsed.error.hint : undefined;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(errorBody(type, parsed.error.message, hint)), {
    status: FIRECRAWL_STATUS[type],
    headers,
  });
}

/** An Elysia plugin for Firecrawl-shaped routes: errors on its routes answer Firecrawl's way. */
export function compatPlugin(name: string) {
  return new Elysia({ name }).mapResponse(rewriteError);
}

/** How a body's keys are read: the ones mapped, the ones dropped, the ones refused unless no-op. */
export interface BodyFields {
  /** Keys the route maps onto siphon. */
  accepted: readonly string[];
  /** Keys that change nothing in siphon: dropped (IGNORED_KEYS are always dropped). */
  ignored?: readonly string[];
  /** Keys of features siphon lacks, with the test of their no-op value (refused otherwise). */
  unsupported?: Readonly<Record<string, (value: unknown) => boolean>>;
}

/** Keys every Firecrawl client may send that never change what siphon does. */
export const IGNORED_KEYS = [
  "origin",
  "integration",
  "__experimental_cache",
  "__searchPreviewToken",
] as const;

const isNoValue = (value: unknown) => value === undefined || value === null || value === false;

/** The no-op test for an unsupported flag: absent, null or false. */
export const offOnly = isNoValue;

/**
 * Reads a Firecrawl request body: an object whose accepted keys are returned as they are (the
 * route maps and validates them), ignored keys dropped, unsupported ones refused with
 * not_implemented unless their value is a no-op, and anything else refused with
 * invalid_request naming the key.
 */
export function readFirecrawlBody(body: unknown, fields: BodyFields): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new SiphonError("invalid_request", "The request body must be a JSON object");
  }
  const accepted = new Set(fields.accepted);
  const ignored = new Set<string>([...IGNORED_KEYS, ...(fields.ignored ?? [])]);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (accepted.has(key)) out[key] = value;
    else if (ignored.has(key)) continue;
    else if (fields.unsupported && Object.hasOwn(fields.unsupported, key)) {
      if (!fields.unsupported[key]?.(value)) {
        throw new SiphonError("not_implemented", `${key} is not supported by siphon`, {
          hint: `Leave ${key} out; see docs/firecrawl.md for what siphon does instead.`,
        });
      }
    } else {
      throw new SiphonError("invalid_request", `Unrecognized key in body: "${key}"`, {
        hint: "Check the spelling against Firecrawl's API reference; siphon refuses keys it does not know.",
      });
    }
  }
  return out;
}

/**
 * The request as auth reads it: Firecrawl's v1 client sends `Authorization: Bearer ` (no key)
 * when it has none, which means "no key" here too (the local account in optional auth mode).
 */
export function authRequest(request: Request): Request {
  const authorization = request.headers.get("authorization");
  if (authorization === null || !/^Bearer\s*$/i.test(authorization)) return request;
  const headers = new Headers(request.headers);
  headers.delete("authorization");
  return new Request(request.url, { method: "GET", headers });
}

/** guard.ts's `metered` for compat routes (see `authRequest`). */
export function compatMetered<T>(
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
  route: string,
  run: (
    admission: Admission | null,
  ) => Promise<{ body: T; credits: number; degraded?: string; tokens?: number }>,
): Promise<T> {
  return metered(guard, authRequest(request), set, route, run);
}

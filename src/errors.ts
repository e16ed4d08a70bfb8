/**
 * The one error type of siphon and the one table that maps each error type to
 * an HTTP status, a CLI exit code, retryability and what it means (docs/reference/errors.md is made of it). The server and the CLI map
 * errors here and nowhere else; retry loops ask `isRetryable`, never the message.
 */

export const ERROR_TABLE = {
  invalid_request: {
    status: 400,
    exit: 2,
    retryable: false,
    meaning:
      "The request is malformed: a missing or bad field, an unknown option, a refused combination (the message names it)",
  },
  invalid_url: {
    status: 400,
    exit: 2,
    retryable: false,
    meaning: "The URL is not an http(s) URL siphon can fetch",
  },
  forbidden_url: {
    status: 403,
    exit: 2,
    retryable: false,
    meaning:
      "The URL resolves to an address the SSRF guard refuses (private, loopback, link-local, metadata)",
  },
  unauthorized: { status: 401, exit: 3, retryable: false, meaning: "No API key where one is needed" },
  invalid_token: {
    status: 401,
    exit: 3,
    retryable: false,
    meaning: "The API key is unknown, revoked or malformed",
  },
  not_found: {
    status: 404,
    exit: 1,
    retryable: false,
    meaning: "No such job, watch, key, session or cached page (or not the caller's)",
  },
  method_not_allowed: {
    status: 405,
    exit: 2,
    retryable: false,
    meaning: "The path exists but not for this HTTP method",
  },
  payload_too_large: {
    status: 413,
    exit: 2,
    retryable: false,
    meaning: "The request body (or an uploaded document) is over the limit",
  },
  unsupported_content: {
    status: 422,
    exit: 5,
    retryable: false,
    meaning: "The page is a type siphon cannot turn into text (an image, audio, video, an archive)",
  },
  rate_limited: {
    status: 429,
    exit: 4,
    retryable: true,
    meaning: "The burst window or a vendor's rate limit is full; Retry-After says when to try again",
  },
  blocked: { status: 403, exit: 5, retryable: true, meaning: "The site answered with a bot-detection page" },
  network_error: {
    status: 502,
    exit: 5,
    retryable: true,
    meaning: "The site could not be reached (DNS, refused, reset, TLS, a redirect loop)",
  },
  content_too_large: {
    status: 502,
    exit: 5,
    retryable: false,
    meaning: "The page is larger than the fetch body limit (SIPHON_MAX_BODY_BYTES)",
  },
  timeout: {
    status: 504,
    exit: 5,
    retryable: true,
    meaning: "The request did not finish within its timeout",
  },
  internal_error: {
    status: 500,
    exit: 1,
    retryable: true,
    meaning: "Something unexpected failed; the request can be retried",
  },
  search_failed: { status: 500, exit: 1, retryable: true, meaning: "Every search provider asked failed" },
  answer_failed: {
    status: 500,
    exit: 1,
    retryable: true,
    meaning: "The LLM failed or nothing could be found or fetched to answer from",
  },
  not_implemented: {
    status: 501,
    exit: 1,
    retryable: false,
    meaning: "An option of a compatible API (Firecrawl's) siphon does not offer",
  },
  browser_unavailable: {
    status: 503,
    exit: 1,
    retryable: true,
    meaning: "Chromium could not be started or is saturated",
  },
  store_unavailable: {
    status: 503,
    exit: 1,
    retryable: true,
    meaning: "The database (SQLite, PostgreSQL) or Redis did not answer",
  },
  forbidden_host: {
    status: 403,
    exit: 3,
    retryable: false,
    meaning:
      "A request to the loopback daemon named a host other than a loopback one (DNS-rebinding defence)",
  },
} as const satisfies Record<string, { status: number; exit: number; retryable: boolean; meaning: string }>;

export type ErrorType = keyof typeof ERROR_TABLE;

export interface SiphonErrorOptions {
  /** What the caller can do about it. */
  hint?: string;
  /** Link to documentation. */
  docs?: string;
  cause?: unknown;
  /** Response headers the answer must carry (Retry-After and rate-limit headers on a 429). */
  headers?: Record<string, string>;
}

/** An expected failure with a SPEC format-B type; anything else is an internal_error. */
export class SiphonError extends Error {
  readonly type: ErrorType;
  readonly hint?: string;
  readonly docs?: string;
  readonly headers: Record<string, string>;

  constructor(type: ErrorType, message: string, options: SiphonErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SiphonError";
    this.type = type;
    this.hint = options.hint;
    this.docs = options.docs;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_TABLE[this.type].status;
  }

  get exitCode(): number {
    return ERROR_TABLE[this.type].exit;
  }
}

/** Turns anything thrown into a SiphonError; unknown failures become internal_error without leaking internals. */
export function toSiphonError(error: unknown): SiphonError {
  if (error instanceof SiphonError) return error;
  return new SiphonError("internal_error", "An unexpected error occurred; the request can be retried.", {
    cause: error,
  });
}

export function isRetryable(type: ErrorType): boolean {
  return ERROR_TABLE[type].retryable;
}

/** SPEC format B error body (without metadata, which the transport adds). */
export interface ErrorBody {
  type: ErrorType;
  message: string;
  hint?: string;
  docs?: string;
}

export function errorBody(error: SiphonError): ErrorBody {
  const body: ErrorBody = { type: error.type, message: error.message };
  if (error.hint) body.hint = error.hint;
  if (error.docs) body.docs = error.docs;
  return body;
}

/**
 * The one error type of siphon and the one table that maps each error type to
 * an HTTP status, a CLI exit code and retryability. The server and the CLI map
 * errors here and nowhere else; retry loops ask `isRetryable`, never the message.
 */

export const ERROR_TABLE = {
  invalid_request: { status: 400, exit: 2, retryable: false },
  invalid_url: { status: 400, exit: 2, retryable: false },
  forbidden_url: { status: 403, exit: 2, retryable: false },
  unauthorized: { status: 401, exit: 3, retryable: false },
  invalid_token: { status: 401, exit: 3, retryable: false },
  not_found: { status: 404, exit: 1, retryable: false },
  method_not_allowed: { status: 405, exit: 2, retryable: false },
  payload_too_large: { status: 413, exit: 2, retryable: false },
  unsupported_content: { status: 422, exit: 5, retryable: false },
  rate_limited: { status: 429, exit: 4, retryable: true },
  blocked: { status: 403, exit: 5, retryable: true },
  network_error: { status: 502, exit: 5, retryable: true },
  content_too_large: { status: 502, exit: 5, retryable: false },
  timeout: { status: 504, exit: 5, retryable: true },
  internal_error: { status: 500, exit: 1, retryable: true },
  search_failed: { status: 500, exit: 1, retryable: true },
  answer_failed: { status: 500, exit: 1, retryable: true },
  not_implemented: { status: 501, exit: 1, retryable: false },
  browser_unavailable: { status: 503, exit: 1, retryable: true },
  store_unavailable: { status: 503, exit: 1, retryable: true },
  forbidden_host: { status: 403, exit: 3, retryable: false },
} as const satisfies Record<string, { status: number; exit: number; retryable: boolean }>;

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

import { NotFoundError, ParseError, ValidationError } from "elysia";
import { errorBody, SiphonError, toSiphonError } from "../src/errors.ts";
import { describeValueError } from "../src/schemas/validate.ts";

/**
 * Maps anything an Elysia app throws to a SiphonError: our own errors as they
 * are, validation and parse failures to invalid_request, unknown routes to
 * not_found, and everything else to internal_error (logged, never shown).
 */
export function toApiError(code: unknown, error: unknown): SiphonError {
  if (error instanceof SiphonError) return error;
  if (error instanceof ValidationError || code === "VALIDATION") {
    const valueError = (error as ValidationError).valueError;
    const message = valueError ? describeValueError(valueError) : "Invalid request";
    return new SiphonError("invalid_request", message);
  }
  if (error instanceof ParseError || code === "PARSE") {
    // Elysia wraps what our body parser throws (payload_too_large, malformed JSON).
    const cause = (error as Error).cause;
    if (cause instanceof SiphonError) return cause;
    return new SiphonError(
      "invalid_request",
      "Malformed JSON body: the request body could not be parsed as JSON",
    );
  }
  if (error instanceof NotFoundError || code === "NOT_FOUND") {
    return new SiphonError("not_found", "No such endpoint; see /docs/json for the API reference");
  }
  return toSiphonError(error);
}

/** SPEC format B body. */
export function formatB(error: SiphonError, requestId: string) {
  return { success: false as const, error: errorBody(error), metadata: { requestId } };
}

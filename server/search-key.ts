/**
 * The caller's search key as a header (x-search-api-key), for the routes that search: it keeps the
 * key out of URLs and so out of access logs. The body's searchApiKey wins when both are given.
 */

/** The header as an OpenAPI parameter. */
export const SEARCH_KEY_HEADER = {
  name: "x-search-api-key",
  in: "header",
  required: false,
  description: "Key for brave (instead of searchApiKey)",
  schema: { type: "string" },
};

/**
 * The body with the x-search-api-key header as its searchApiKey when it has none; anything
 * but an object is left as it is, for validation to refuse.
 */
export function withSearchKeyHeader(body: unknown, request: Request): unknown {
  const header = request.headers.get("x-search-api-key");
  if (!header || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const raw = body as Record<string, unknown>;
  return raw.searchApiKey === undefined ? { ...raw, searchApiKey: header } : raw;
}

import { SiphonError } from "../src/errors.ts";

/**
 * Reads a request body as JSON whatever its Content-Type (curl -d sends
 * form-encoded headers with JSON bodies), refusing bodies over `limit` bytes.
 * An empty body is undefined; malformed JSON is invalid_request.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const text = await request.text();
  if (text.length > limit) throw tooLarge(limit);
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SiphonError("invalid_request", `Malformed JSON body: ${(error as Error).message}`, {
      hint: 'Send a JSON object, e.g. {"url":"https://example.com"}',
    });
  }
  if (depthOver(value, MAX_JSON_DEPTH)) {
    throw new SiphonError("invalid_request", `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
      hint: 'Send a JSON object, e.g. {"url":"https://example.com"}',
    });
  }
  return value;
}

/** Deeper than any request siphon documents (JSON schemas for extraction included) ever needs. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects or arrays deeper than `max`. Walked with an explicit stack:
 * validators and serialisers recurse, and a body of 200,000 brackets would overflow theirs.
 */
function depthOver(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

function tooLarge(limit: number): SiphonError {
  return new SiphonError("payload_too_large", `The request body is larger than ${limit} bytes`);
}

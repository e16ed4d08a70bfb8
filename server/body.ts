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
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SiphonError("invalid_request", `Malformed JSON body: ${(error as Error).message}`, {
      hint: 'Send a JSON object, e.g. {"url":"https://example.com"}',
    });
  }
}

function tooLarge(limit: number): SiphonError {
  return new SiphonError("payload_too_large", `The request body is larger than ${limit} bytes`);
}

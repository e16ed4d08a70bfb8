import type { Config } from "../src/config.ts";
import { ERROR_TABLE, type ErrorType, SiphonError } from "../src/errors.ts";

/** Flags that point a command at a siphon server instead of the local pipeline. */
export const remoteArgs = {
  "api-url": { type: "string", description: "Call this siphon server (or SIPHON_API_URL)", valueHint: "url" },
  "api-key": { type: "string", description: "Key for --api-url (or SIPHON_API_KEY)", valueHint: "key" },
} as const;

export interface Remote {
  url: string;
  key: string;
}

/** The server to call, from flags or the environment; null runs the local pipeline. */
export function remoteOf(
  args: Record<string, unknown>,
  config: Pick<Config, "apiUrl" | "apiKey">,
): Remote | null {
  const url = (typeof args["api-url"] === "string" ? args["api-url"] : "") || config.apiUrl;
  if (!url) return null;
  const key = (typeof args["api-key"] === "string" ? args["api-key"] : "") || config.apiKey;
  return { url: url.replace(/\/+$/, ""), key };
}

/**
 * Calls a siphon server and returns the JSON body (`extraHeaders` carry what
 * must stay out of the URL, such as a search key); a format-B error answer
 * becomes the same SiphonError the local pipeline would have thrown, so the
 * CLI prints and exits alike either way.
 */
export async function callApi<T>(
  remote: Remote,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders, accept: "application/json" };
  if (remote.key) headers.authorization = `Bearer ${remote.key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`${remote.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new SiphonError("network_error", `Cannot reach ${remote.url}: ${(error as Error).message}`, {
      hint: "Check --api-url / SIPHON_API_URL and that the server is running.",
    });
  }
  return readJson<T>(remote, response);
}

/** A server's JSON answer, or its format-B error as the SiphonError the local pipeline would throw. */
async function readJson<T>(remote: Remote, response: Response): Promise<T> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SiphonError(
      "network_error",
      `${remote.url} answered HTTP ${response.status} with something other than JSON`,
    );
  }
  if (response.ok) return json as T;
  const error = (json as { error?: { type?: string; message?: string; hint?: string } }).error;
  const type = (error?.type && error.type in ERROR_TABLE ? error.type : "internal_error") as ErrorType;
  throw new SiphonError(type, error?.message ?? `HTTP ${response.status}`, { hint: error?.hint });
}

/**
 * POSTs to a siphon route that answers server-sent events and yields each event's JSON as it
 * arrives. An error answer (JSON, before any event) throws like callApi.
 */
export async function* streamApi(
  remote: Remote,
  path: string,
  body: unknown,
  extraHeaders: Record<string, string> = {},
  signal?: AbortSignal,
): AsyncGenerator<unknown> {
  const headers: Record<string, string> = {
    ...extraHeaders,
    accept: "text/event-stream",
    "content-type": "application/json",
  };
  if (remote.key) headers.authorization = `Bearer ${remote.key}`;
  let response: Response;
  try {
    response = await fetch(`${remote.url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw new SiphonError("network_error", `Cannot reach ${remote.url}: ${(error as Error).message}`, {
      hint: "Check --api-url / SIPHON_API_URL and that the server is running.",
    });
  }
  if (!response.ok || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
    yield await readJson<unknown>(remote, response);
    return;
  }
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) yield JSON.parse(data);
      end = buffer.indexOf("\n\n");
    }
  }
}

import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { createHttpClient } from "../fetch/http-client.ts";

/** A provider's answer, read whole. */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface ProviderCall {
  /** The engine as users know it, for messages. */
  label: string;
  /** The setting holding its base URL, for hints. */
  setting: string;
  timeoutMs: number;
  signal?: AbortSignal;
  config: Pick<Config, "disableSsrfProtection" | "ssrfAllow" | "maxRedirects" | "maxBodyBytes">;
  /** Headers holding the caller's key (X-Subscription-Token): dropped if the engine redirects to another origin. */
  credentialHeaders?: readonly string[];
}

/** `text` with every occurrence of `secret` masked, so a key echoed by an engine never reaches a message. */
export function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.replaceAll(secret, "[redacted]") : text;
}

/** A connection the engine closed while it was idle in the pool, before any answer came on it. */
const STALE_CONNECTION = /ECONNRESET|closed unexpectedly|socket hang up/i;

/**
 * Sends the request, and once more when the first try met a connection the engine had just
 * closed (a kept-alive socket reused as the server dropped it): a search is a read, safe to send
 * again, and no answer came back to be lost.
 */
async function fetchOnce(send: () => Promise<Response>, signal: AbortSignal): Promise<Response> {
  try {
    return await send();
  } catch (error) {
    if (
      signal.aborted ||
      error instanceof SiphonError ||
      !STALE_CONNECTION.test(String((error as Error)?.message))
    ) {
      throw error;
    }
    return send();
  }
}

/**
 * Calls a search engine and reads its answer whatever the status (each provider judges the
 * status itself). The engine's URL is operator configuration, so its own origin is exempt from
 * the SSRF ranges (tests point it at loopback); a redirect anywhere else goes through the guard
 * like any fetch, and the caller's key never follows a redirect to another origin. Throws
 * search_failed naming the engine when it cannot be reached, redirects somewhere refused,
 * answers more than SIPHON_MAX_BODY_BYTES or nothing within the timeout, and timeout when the
 * caller went away.
 */
export async function callProvider(
  call: ProviderCall,
  url: string,
  init: RequestInit,
): Promise<ProviderAnswer> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const http = createHttpClient({
    config: call.config,
    trusted: [url],
    maxBodyBytes: call.config.maxBodyBytes,
    credentialHeaders: call.credentialHeaders,
  });
  try {
    const response = await fetchOnce(() => http.fetch(url, { ...init, signal }), signal);
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    if (call.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
    if (timeout.aborted) {
      throw new SiphonError(
        "search_failed",
        `${call.label} did not answer within ${Math.round(call.timeoutMs / 1000)} s`,
        { hint: "Try again later, or another provider.", cause: error },
      );
    }
    const origin = URL.canParse(url) ? new URL(url).origin : url;
    if (error instanceof SiphonError) {
      // The guard's and the client's own words (a refused redirect, too large, too many hops).
      throw new SiphonError("search_failed", `${call.label} at ${origin}: ${error.message}`, {
        hint: `Check ${call.setting}.`,
      });
    }
    throw new SiphonError(
      "search_failed",
      `Could not reach ${call.label} at ${origin}: ${(error as Error)?.message ?? String(error)}`,
      { hint: `Check ${call.setting} and the network.`, cause: error },
    );
  }
}

/** Parses a provider's JSON answer; throws search_failed naming the provider when it is not JSON. */
export function parseJson(call: ProviderCall, answer: ProviderAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new SiphonError(
      "search_failed",
      `${call.label} answered HTTP ${answer.status} with something other than JSON`,
      { hint: `Check that ${call.setting} points at ${call.label}'s API.` },
    );
  }
}

/** Plain text of an engine's HTML-ish snippet: tags dropped, entities decoded, spaces collapsed. */
export function plainText(html: unknown): string {
  if (typeof html !== "string") return "";
  const decoded = html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|#39);/gi, (_, entity: string) => {
      const e = entity.toLowerCase();
      if (e.startsWith("#")) {
        const code = e.startsWith("#x") ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
      return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " }[e] ?? "";
    });
  return decoded.replace(/\s+/g, " ").trim();
}

/** Whether `url` is an absolute http(s) URL: results that are not cannot be opened or fetched. */
export function isWebUrl(url: unknown): url is string {
  if (typeof url !== "string" || !URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === "http:" || protocol === "https:";
}

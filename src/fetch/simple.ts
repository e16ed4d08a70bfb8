import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { HTML_ACCEPT } from "./accept.ts";
import { createHttpClient } from "./http-client.ts";
import type { Resolver } from "./ssrf.ts";
import type { EngineFetchOptions, FetchEngine, FetchedPage } from "./types.ts";
import { parseTargetUrl, resolveRedirectUrl } from "./url.ts";

/** Replaceable collaborators of the simple engine. */
export interface SimpleEngineDeps {
  /** Replaces the system DNS resolver (tests map made-up names to loopback addresses). */
  resolver?: Resolver;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Bun decodes these transparently; their headers no longer describe the body we return.
const DECODED_ENCODINGS = new Set(["gzip", "x-gzip", "deflate", "br", "zstd"]);
// Credentials meant for the first origin must not leak to another one through a redirect.
const ORIGIN_BOUND_HEADERS = ["authorization", "proxy-authorization", "cookie"];

/** Headers a desktop Chrome sends on a navigation; sites serve their normal page to these. */
function browserHeaders(userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {
    "user-agent": userAgent,
    accept: HTML_ACCEPT,
    "accept-language": "en-US,en;q=0.9",
    "accept-encoding": "gzip, deflate, br",
    "upgrade-insecure-requests": "1",
    "sec-fetch-dest": "document",
    "sec-fetch-mode": "navigate",
    "sec-fetch-site": "none",
    "sec-fetch-user": "?1",
  };
  // Client hints that contradict the User-Agent are a bot signal, so send them only when they match it.
  const chrome = /Chrome\/(\d+)/.exec(userAgent);
  if (chrome && !/Edg\/|OPR\//.test(userAgent)) {
    const platform = /Windows/.test(userAgent) ? "Windows" : /Mac OS X/.test(userAgent) ? "macOS" : "Linux";
    headers["sec-ch-ua"] =
      `"Google Chrome";v="${chrome[1]}", "Chromium";v="${chrome[1]}", "Not_A Brand";v="24"`;
    headers["sec-ch-ua-mobile"] = /Mobile/.test(userAgent) ? "?1" : "?0";
    headers["sec-ch-ua-platform"] = `"${platform}"`;
  }
  return headers;
}

/** A minimal per-host cookie jar: many sites set a cookie and redirect to themselves. */
class RedirectCookies {
  private readonly byHost = new Map<string, Map<string, string>>();

  store(hostname: string, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const jar = this.byHost.get(hostname) ?? new Map<string, string>();
      this.byHost.set(hostname, jar);
      if (attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a))) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
  }

  header(hostname: string): string {
    const jar = this.byHost.get(hostname);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join("; ") : "";
  }
}

function buildHeaders(
  url: URL,
  base: Record<string, string>,
  caller: Record<string, string>,
  sameOrigin: boolean,
  jarCookies: string,
): Headers {
  const headers = new Headers(base);
  for (const [name, value] of Object.entries(caller)) {
    const lower = name.toLowerCase();
    // Host must name the real site while we connect to its address; a caller value would break that.
    if (lower === "host") continue;
    if (!sameOrigin && ORIGIN_BOUND_HEADERS.includes(lower)) continue;
    headers.set(name, value);
  }
  if ((url.username || url.password) && !headers.has("authorization")) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.set("authorization", `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`);
  }
  if (jarCookies) {
    const existing = headers.get("cookie");
    headers.set("cookie", existing ? `${existing}; ${jarCookies}` : jarCookies);
  }
  return headers;
}

function lowerCaseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  });
  const encoding = out["content-encoding"]?.trim().toLowerCase();
  if (encoding && DECODED_ENCODINGS.has(encoding)) {
    delete out["content-encoding"];
    delete out["content-length"];
  }
  return out;
}

function tooLarge(url: URL, limit: number): SiphonError {
  return new SiphonError(
    "content_too_large",
    `${url.href} is larger than the ${limit}-byte limit; the download was stopped.`,
    { hint: "Fetch a smaller page, or raise SIPHON_MAX_BODY_BYTES on a self-hosted server." },
  );
}

/** Reads the body as a stream, stopping as soon as it passes the limit instead of buffering it all. */
async function readBody(response: Response, url: URL, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(url, limit);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(url, limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Turns a failure of fetch() or of the body stream into the error a user can act on. */
function toFetchError(error: unknown, url: URL): SiphonError {
  if (error instanceof SiphonError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const detail = `${code} ${(error as Error | null)?.message ?? ""}`;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  let message: string;
  if (/CERT|TLS|SSL|HANDSHAKE|ALTNAME/i.test(detail)) {
    message = `TLS with ${url.hostname} failed (${code || "handshake error"}): its certificate is invalid, expired or for another name.`;
  } else if (/ECONNREFUSED|ConnectionRefused/i.test(detail)) {
    message = `${url.hostname} refused the connection on port ${port}; the site may be down.`;
  } else if (/ECONNRESET|ConnectionClosed|EPIPE|socket hang up|closed/i.test(detail)) {
    message = `The connection to ${url.hostname} was closed before the page was received; try again.`;
  } else if (/ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/i.test(detail)) {
    message = `${url.hostname} could not be reached (${code}); the site may be down or blocking this network.`;
  } else {
    message = `Fetching ${url.href} failed${code ? ` (${code})` : ""}; the site may be down or unreachable.`;
  }
  return new SiphonError("network_error", message, { cause: error });
}

/** Maps the reason of an aborted fetch: our own timer, the caller's signal, or a caller timeout. */
function abortError(reason: unknown): SiphonError {
  if (reason instanceof SiphonError) return reason;
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return new SiphonError("timeout", "The fetch timed out.", { cause: reason });
  }
  return new SiphonError("network_error", "The fetch was cancelled before it finished.", { cause: reason });
}

/**
 * Creates the plain-HTTP engine ("simple"). Every hop is checked by the SSRF guard and the
 * connection goes to the address that was checked; redirects are followed by hand.
 * Non-2xx answers are returned as pages, not thrown: the pipeline decides what they mean.
 *
 * fetch() throws SiphonError: invalid_request/invalid_url/forbidden_url (URL rules, SSRF,
 * also for each redirect hop), timeout (whole fetch including redirects and body),
 * network_error (DNS, refused, reset, TLS, redirect loop or too many redirects),
 * content_too_large (body over config.maxBodyBytes).
 */
export function createSimpleEngine(config: Config, deps: SimpleEngineDeps = {}): FetchEngine {
  const http = createHttpClient({ config, resolver: deps.resolver });
  const defaults = browserHeaders(config.userAgent);

  async function follow(start: URL, options: EngineFetchOptions, signal: AbortSignal): Promise<FetchedPage> {
    const cookies = new RedirectCookies();
    const redirects: string[] = [];
    const seen = new Set<string>();
    let url = start;
    for (;;) {
      const jarCookies = cookies.header(url.hostname);
      const visit = `${url.href}\n${jarCookies}`;
      if (seen.has(visit)) {
        throw new SiphonError(
          "network_error",
          `Redirect loop: ${redirects.at(-1) ?? start.href} redirects back to ${url.href}.`,
        );
      }
      seen.add(visit);

      const init = {
        method: "GET",
        signal,
        headers: buildHeaders(url, defaults, options.headers ?? {}, url.origin === start.origin, jarCookies),
      };

      let response: Response;
      try {
        response = await http.hop(url, init);
      } catch (error) {
        if (signal.aborted) throw abortError(signal.reason);
        throw toFetchError(error, url);
      }

      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || !location) {
        try {
          const body = await readBody(response, url, config.maxBodyBytes);
          return {
            url: url.href,
            status: response.status,
            headers: lowerCaseHeaders(response.headers),
            body,
            redirects,
          };
        } catch (error) {
          if (signal.aborted) throw abortError(signal.reason);
          throw toFetchError(error, url);
        }
      }

      await response.body?.cancel().catch(() => {});
      cookies.store(url.hostname, response.headers.getSetCookie());
      if (redirects.length >= config.maxRedirects) {
        throw new SiphonError(
          "network_error",
          `Too many redirects: ${start.href} redirected more than ${config.maxRedirects} times.`,
          { hint: "Open the URL in a browser to see where it leads, and fetch the final address." },
        );
      }
      redirects.push(url.href);
      url = resolveRedirectUrl(location, url);
    }
  }

  return {
    name: "simple",
    async fetch(rawUrl, options = {}) {
      const start = parseTargetUrl(rawUrl);
      const timeoutMs = options.timeoutMs ?? config.fetchTimeoutMs;
      const timer = new AbortController();
      const handle = setTimeout(() => {
        timer.abort(
          new SiphonError("timeout", `${start.href} did not finish loading within ${timeoutMs} ms.`, {
            hint: "The site may be slow or down; try again later or with a longer timeout.",
          }),
        );
      }, timeoutMs);
      const signal = options.signal ? AbortSignal.any([timer.signal, options.signal]) : timer.signal;
      try {
        if (signal.aborted) throw abortError(signal.reason);
        return await follow(start, options, signal);
      } catch (error) {
        if (signal.aborted && !(error instanceof SiphonError && error.type !== "timeout")) {
          throw abortError(signal.reason);
        }
        throw error;
      } finally {
        clearTimeout(handle);
      }
    },
  };
}

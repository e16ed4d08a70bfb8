import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { pinnedFetch } from "./pinned.ts";
import { createSsrfGuard, effectivePort, parseAllowList, type Resolver } from "./ssrf.ts";
import { resolveRedirectUrl } from "./url.ts";

/**
 * The one HTTP client of every request the server makes: pages (through the simple engine),
 * LLM vendors, search engines, YouTube, webhooks, robots.txt, sitemaps and stylesheets.
 *
 * Every hop goes through the SSRF guard and connects to the address the guard checked (so a
 * DNS answer cannot change between the check and the connection). Redirects are followed by
 * hand, each new address checked again, with fetch's rules for methods and bodies, and the
 * credentials of one origin (Authorization, Cookie) never sent to another.
 */

/** How a client is set up. */
export interface HttpClientOptions {
  config: Pick<Config, "disableSsrfProtection" | "ssrfAllow" | "maxRedirects">;
  /**
   * Base URLs whose origin is exempt from the range checks on any hop, as if listed in
   * SIPHON_SSRF_ALLOW: a service the operator configured (SIPHON_SEARXNG_URL, a vendor's base
   * URL) or, for a person running the CLI on their own machine, their own llmApiBase. A
   * redirect from one of them to anywhere else is checked like any other hop.
   */
  trusted?: readonly string[];
  /** Replaces the system DNS resolver (tests map made-up names to loopback addresses). */
  resolver?: Resolver;
  /** Redirect hops `fetch` follows before failing; 0 returns a 3xx as it is. Default: config.maxRedirects. */
  maxRedirects?: number;
  /** Largest response body, counted as it arrives (after decompression); past it the body fails with content_too_large. */
  maxBodyBytes?: number;
  /** Headers that carry a credential besides Authorization and Cookie (X-Subscription-Token): never sent to another origin. */
  credentialHeaders?: readonly string[];
}

/** A guarded client: one checked hop, or a fetch-compatible function following redirects. */
export interface HttpClient {
  /**
   * Sends one request to `url`'s checked address and returns the answer as it is (a 3xx is
   * not followed). `init.headers` is used as given, with Host set to the URL's host.
   *
   * @throws SiphonError forbidden_url (the guard refused the address), network_error (it does
   *   not resolve); whatever fetch throws when the connection fails or the signal aborts
   */
  hop(url: URL, init: RequestInit & { headers: Headers }): Promise<Response>;
  /**
   * A drop-in for global fetch (the openai SDK and youtubei.js take one). Follows redirects
   * unless `redirect` is "manual" or maxRedirects is 0.
   *
   * @throws SiphonError forbidden_url (any hop refused, or a redirect to a non-HTTP scheme),
   *   network_error (unresolvable host, too many redirects, unparseable Location),
   *   content_too_large (while the body is read); what fetch throws otherwise
   */
  fetch: typeof fetch;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Fetch's "CORS non-wildcard request-header names" that carry one origin's credentials.
const ORIGIN_BOUND_HEADERS = ["authorization", "proxy-authorization", "cookie"];
// Fetch's "request-body-header names": they describe a body that is dropped when the method becomes GET.
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

/** The "host:port" a URL would be matched by in an allow list. */
function allowEntry(base: string): string | null {
  if (!URL.canParse(base)) return null;
  const url = new URL(base);
  return `${url.hostname.toLowerCase()}:${effectivePort(url)}`;
}

function tooLarge(url: URL, limit: number): SiphonError {
  return new SiphonError(
    "content_too_large",
    `The answer from ${url.origin} is larger than the ${limit}-byte limit; the download was stopped.`,
  );
}

/** The answer with its body counted as it arrives, failing past `limit` bytes. */
function bounded(response: Response, url: URL, limit: number): Response {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit && !response.headers.has("content-encoding")) {
    void response.body?.cancel().catch(() => {});
    throw tooLarge(url, limit);
  }
  if (!response.body) return response;
  let total = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) controller.error(tooLarge(url, limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(out, "url", { value: response.url });
  return out;
}

/** Creates a guarded client; see the module comment for what it guarantees. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const allow = parseAllowList(options.config.ssrfAllow);
  for (const base of options.trusted ?? []) {
    const entry = allowEntry(base);
    if (entry) allow.push(entry);
  }
  const guard = createSsrfGuard({
    enabled: !options.config.disableSsrfProtection,
    allow,
    resolver: options.resolver,
  });
  const maxRedirects = options.maxRedirects ?? options.config.maxRedirects;
  const originBound = [...ORIGIN_BOUND_HEADERS, ...(options.credentialHeaders ?? [])];

  async function hop(url: URL, init: RequestInit & { headers: Headers }): Promise<Response> {
    const address = await guard.check(url, init.signal ?? undefined);
    if ((url.username || url.password) && !init.headers.has("authorization")) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      init.headers.set("authorization", `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`);
    }
    return pinnedFetch(url, address, init);
  }

  async function guardedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    let url = new URL(request.url);
    let method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    let body: ArrayBuffer | undefined =
      request.body && method !== "GET" && method !== "HEAD" ? await request.arrayBuffer() : undefined;
    const signal = init?.signal ?? request.signal;
    const follow = (init?.redirect ?? request.redirect) === "follow" && maxRedirects > 0;

    for (let hops = 0; ; hops++) {
      let response: Response;
      try {
        response = await hop(url, { method, headers, body, signal });
      } catch (error) {
        if (hops > 0 && error instanceof SiphonError && error.type === "forbidden_url") {
          throw new SiphonError("forbidden_url", `A redirect led to ${url.origin}: ${error.message}`, {
            hint: error.hint,
          });
        }
        throw error;
      }
      const location = response.headers.get("location");
      if (!follow || !REDIRECT_STATUSES.has(response.status) || !location) {
        return options.maxBodyBytes === undefined ? response : bounded(response, url, options.maxBodyBytes);
      }
      await response.body?.cancel().catch(() => {});
      if (hops >= maxRedirects) {
        throw new SiphonError(
          "network_error",
          `Too many redirects: ${new URL(request.url).origin} redirected more than ${maxRedirects} times.`,
        );
      }
      const next = resolveRedirectUrl(location, url);
      // Fetch's rules: 303 turns anything but GET/HEAD into GET, and 301/302 turn POST into GET.
      const toGet =
        (response.status === 303 && method !== "GET" && method !== "HEAD") ||
        ((response.status === 301 || response.status === 302) && method === "POST");
      if (toGet) {
        method = "GET";
        body = undefined;
        for (const name of BODY_HEADERS) headers.delete(name);
      }
      if (next.origin !== url.origin) for (const name of originBound) headers.delete(name);
      url = next;
    }
  }

  return { hop, fetch: guardedFetch as typeof fetch };
}

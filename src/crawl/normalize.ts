/**
 * One spelling per page: crawl and map deduplicate on what normalizeUrl returns,
 * so two links that a server answers with the same page must normalise alike,
 * and two that may differ must not. Only rewrites that RFC 3986 or common web
 * practice treat as equivalent are applied.
 */

/** Query parameters that only track where a visitor came from; they never change the page. */
const TRACKING_PARAMS = new Set([
  "gclid",
  "fbclid",
  "mc_cid",
  "mc_eid",
  "msclkid",
  "yclid",
  "_ga",
  "ref_src",
  "igshid",
]);

function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("utm_") || TRACKING_PARAMS.has(lower);
}

/** %XX of ALPHA / DIGIT / "-" / "." / "_" / "~" is the character itself (RFC 3986 §2.3); other escapes get upper-case hex. */
function normalizeEscapes(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function keyOf(pair: string): string {
  const eq = pair.indexOf("=");
  return eq === -1 ? pair : pair.slice(0, eq);
}

function decodedKey(pair: string): string {
  try {
    return decodeURIComponent(keyOf(pair).replace(/\+/g, " "));
  } catch {
    return keyOf(pair);
  }
}

/**
 * Works on the raw pairs rather than URLSearchParams, whose serialiser re-encodes
 * "/", ":" and spaces and would change URLs the server reads byte for byte.
 */
function normalizeQuery(search: string): string {
  const pairs = search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && !isTrackingParam(decodedKey(pair)))
    .map(normalizeEscapes);
  // Array.prototype.sort is stable, so repeated keys keep their relative order (a=2&a=1 differs from a=1&a=2).
  pairs.sort((x, y) => {
    const a = keyOf(x);
    const b = keyOf(y);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return pairs.length ? `?${pairs.join("&")}` : "";
}

/**
 * The canonical spelling of an http(s) URL used for deduplication: lower-case scheme
 * and host (a trailing dot on the host removed), default port dropped, fragment
 * dropped, tracking parameters (utm_*, gclid, fbclid, mc_cid, mc_eid, msclkid, yclid,
 * _ga, ref_src, igshid) removed, remaining parameters sorted by name, duplicate
 * slashes collapsed, dot segments resolved, trailing slash removed except for "/",
 * escapes of unreserved characters decoded and other escapes upper-cased.
 * Returns null for unparseable or non-http(s) URLs; never throws.
 */
export function normalizeUrl(url: string | URL): string | null {
  let parsed: URL;
  try {
    parsed = new URL(typeof url === "string" ? url.trim() : url.href);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  parsed.hash = "";
  if (parsed.hostname.endsWith(".") && parsed.hostname.length > 1) {
    parsed.hostname = parsed.hostname.slice(0, -1);
  }
  // Setting pathname re-runs WHATWG path parsing, which resolves dot segments that
  // decoding "%2E" or collapsing "//" may have just formed.
  parsed.pathname = normalizeEscapes(parsed.pathname).replace(/\/{2,}/g, "/");
  if (parsed.pathname.length > 1 && parsed.pathname.endsWith("/")) {
    parsed.pathname = parsed.pathname.replace(/\/+$/, "") || "/";
  }
  parsed.search = normalizeQuery(parsed.search);
  return parsed.href;
}

function siteHost(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host.startsWith("www.") ? host.slice(4) : host;
}

/**
 * Whether `url` belongs to the site of `base`: the same host name (ports and scheme
 * ignored, a leading "www." ignored on both), or, with allowSubdomains, a subdomain
 * of the base host (blog.example.com for example.com, not the other way round).
 */
export function sameSite(url: URL, base: URL, options: { allowSubdomains: boolean }): boolean {
  const host = siteHost(url);
  const baseHost = siteHost(base);
  if (host === baseHost) return true;
  return options.allowSubdomains && host.endsWith(`.${baseHost}`);
}

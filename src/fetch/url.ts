import { SiphonError } from "../errors.ts";

/** SPEC "Request bounds": url is at most 2048 characters. */
export const MAX_URL_LENGTH = 2048;

const HINT = "Send an absolute http:// or https:// URL, percent-encoding special characters.";

// WHATWG URL parsing silently drops tabs and newlines and trims control characters, so
// "http://127.0.0.1\t/" would parse; refusing them keeps what we check equal to what was sent.
// Backslash is refused because special schemes read it as "/", a classic host-confusion trick.
const UNSAFE_CHARACTER =
  /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff\\<>"]/u;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const HTTP_PREFIX = /^https?:\/\//i;
const HOST_PORT = /^[^:/?#]+:\d+([/?#]|$)/;

function invalid(message: string): SiphonError {
  return new SiphonError("invalid_url", message, { hint: HINT });
}

function describeCharacter(ch: string): string {
  if (ch === " ") return "a space";
  if (ch === "\\") return 'a backslash "\\"';
  if (/\s|[\u0000-\u001f\u007f-\u009f]/u.test(ch)) {
    return `a whitespace or control character (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
  }
  return `"${ch}"`;
}

/**
 * Applies siphon's URL rules to a caller-supplied target URL and returns it parsed.
 *
 * Classification (kept consistent everywhere): a missing or empty value is
 * invalid_request; an unparseable URL, a missing scheme, a scheme not followed by "//",
 * more than 2048 characters, whitespace/control/unencoded special characters or a
 * `#` fragment are invalid_url; a URL with any other scheme (file:, ftp:, javascript:,
 * data:, gopher: ...) is forbidden_url whatever follows it, as SPEC's error reference
 * lists non-HTTP(S) schemes under SSRF protection.
 *
 * @throws SiphonError invalid_request, invalid_url or forbidden_url
 */
export function parseTargetUrl(raw: string | undefined | null): URL {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    throw new SiphonError("invalid_request", "The url parameter is required.", {
      hint: "Pass the page to fetch, e.g. url=https://example.com/",
    });
  }
  if (typeof raw !== "string") {
    throw new SiphonError("invalid_request", "The url parameter must be a string.");
  }
  if (raw.length > MAX_URL_LENGTH) {
    throw invalid(`URL is ${raw.length} characters long; the limit is ${MAX_URL_LENGTH}.`);
  }
  if (raw !== raw.trim()) {
    throw invalid("URL starts or ends with whitespace; remove it.");
  }
  // "example.com:8080/x" looks like scheme "example.com:" to WHATWG; it is a host without a scheme.
  if (!HAS_SCHEME.test(raw) || HOST_PORT.test(raw)) {
    throw invalid("URL has no scheme; it must start with http:// or https://");
  }
  const scheme = HAS_SCHEME.exec(raw)![0].toLowerCase();
  if (scheme !== "http:" && scheme !== "https:") {
    throw new SiphonError(
      "forbidden_url",
      `The ${scheme} scheme is not allowed; only http:// and https:// URLs can be fetched.`,
    );
  }
  const unsafe = UNSAFE_CHARACTER.exec(raw);
  if (unsafe) {
    throw invalid(
      `URL contains ${describeCharacter(unsafe[0])} at position ${unsafe.index}; percent-encode it.`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid("URL could not be parsed; check the host name and port.");
  }

  // WHATWG accepts "http:example.com" and "http:/example.com"; we ask for the usual spelling
  // so that what the caller typed and what we fetch cannot disagree.
  if (!HTTP_PREFIX.test(raw)) {
    throw invalid("URL must start with http:// or https://");
  }
  if (raw.includes("#")) {
    throw invalid(
      "URL contains a # fragment; remove the part from # on (fragments are never sent to servers).",
    );
  }
  return url;
}

/**
 * Resolves a redirect's Location header against the URL that sent it and applies the
 * URL rules a target must pass. The fragment is dropped (servers may legitimately send
 * one; it is never requested).
 *
 * @throws SiphonError forbidden_url for a non-HTTP(S) target; network_error when the
 *   Location cannot be parsed or breaks the URL rules (the target site's fault, not the caller's)
 */
export function resolveRedirectUrl(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location.trim(), base);
  } catch (error) {
    throw new SiphonError(
      "network_error",
      `${base.href} redirected to an unparseable URL: ${location.slice(0, 200)}`,
      {
        cause: error,
      },
    );
  }
  next.hash = "";
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw new SiphonError(
      "forbidden_url",
      `${base.href} redirected to a ${next.protocol} URL; only http:// and https:// can be followed.`,
    );
  }
  if (next.href.length > MAX_URL_LENGTH) {
    throw new SiphonError(
      "network_error",
      `${base.href} redirected to a URL longer than ${MAX_URL_LENGTH} characters.`,
    );
  }
  return next;
}

import robotsParser from "robots-parser";
import { SiphonError } from "../errors.ts";
import { decodeBody } from "../fetch/decode.ts";
import type { FetchEngine } from "../fetch/types.ts";

/** The rules of one origin's robots.txt, as a crawler needs them. */
export interface Robots {
  /** Whether the rules let `url` be fetched; URLs of another origin are not governed here and are allowed. */
  isAllowed(url: string): boolean;
  /** The Crawl-delay for our user agent (or "*"), in ms; undefined when none is set. */
  crawlDelayMs: number | undefined;
  /** Absolute URLs of the Sitemap: lines, in file order. */
  sitemaps: string[];
}

/** Google reads only the first 500 KiB of a robots.txt; rules past that are not meant for crawlers. */
const MAX_ROBOTS_CHARS = 500 * 1024;
const ROBOTS_TIMEOUT_MS = 10_000;

function allowAll(): Robots {
  return { isAllowed: () => true, crawlDelayMs: undefined, sitemaps: [] };
}

/**
 * robots-parser matches the User-agent token before the first "/", so a browser-like
 * string would be read as "mozilla"; the first product token is what robots.txt groups name.
 */
function robotsToken(userAgent: string): string {
  return userAgent.trim().split(/[\s/;(]/)[0] || "*";
}

/** A soft-404 HTML page or a JSON error is not a robots.txt, even when it answers 200. */
function isRobotsText(contentType: string | undefined, text: string): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "" && !type.startsWith("text/")) return false;
  return !/^\s*</.test(text);
}

function parseRobots(robotsUrl: string, text: string, userAgent: string): Robots {
  const parsed = robotsParser(robotsUrl, text.slice(0, MAX_ROBOTS_CHARS));
  const token = robotsToken(userAgent);
  const delay = parsed.getCrawlDelay(token);
  const sitemaps: string[] = [];
  for (const entry of parsed.getSitemaps()) {
    try {
      sitemaps.push(new URL(entry, robotsUrl).href);
    } catch {
      // A malformed Sitemap: line is the site's typo; the other lines still count.
    }
  }
  return {
    isAllowed: (url) => parsed.isAllowed(url, token) ?? true,
    crawlDelayMs: typeof delay === "number" && Number.isFinite(delay) && delay > 0 ? delay * 1000 : undefined,
    sitemaps,
  };
}

/**
 * Fetches and parses `origin`/robots.txt (with the maintained robots-parser: longest
 * match wins, Allow wins a tie, * and $ wildcards). `userAgent` is matched by its first
 * product token ("siphon" of "siphon/1.0"), falling back to the "*" group.
 *
 * Anything but a readable 2xx text answer means "allow all, no sitemaps": 4xx (the
 * site has no rules), an unreachable host or timeout (the page fetch itself will fail
 * and report it), a non-text body, and also 5xx. Google treats 5xx as "disallow all"
 * for a while; siphon is user-driven, fetches few pages and honours Crawl-delay, so a
 * broken robots endpoint should not make a whole site unreadable.
 * Never throws, except that an aborted `signal` rethrows its SiphonError reason.
 */
export async function loadRobots(
  origin: string,
  engine: FetchEngine,
  userAgent: string,
  options: { signal?: AbortSignal } = {},
): Promise<Robots> {
  let robotsUrl: string;
  try {
    robotsUrl = new URL("/robots.txt", origin).href;
  } catch {
    return allowAll();
  }
  try {
    const page = await engine.fetch(robotsUrl, { signal: options.signal, timeoutMs: ROBOTS_TIMEOUT_MS });
    if (page.status < 200 || page.status >= 300) return allowAll();
    const { text } = decodeBody(page.body, page.headers["content-type"]);
    if (!isRobotsText(page.headers["content-type"], text)) return allowAll();
    // Rules apply to the origin asked about even when robots.txt redirected elsewhere.
    return parseRobots(robotsUrl, text, userAgent);
  } catch {
    if (options.signal?.aborted && options.signal.reason instanceof SiphonError) throw options.signal.reason;
    return allowAll();
  }
}

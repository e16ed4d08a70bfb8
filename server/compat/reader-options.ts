import { SiphonError } from "../../src/errors.ts";

/**
 * Jina Reader's request headers, as siphon's fetch options and the reader's output options.
 * Every header Jina documents is either honoured here or refused by name (a 400): none is
 * silently dropped. Headers Jina does not define are left alone.
 */

/** What the reader answers with: a content format of the page, and images of it. */
export type ReaderContent = "markdown" | "html" | "text";

export interface ReaderOptions {
  /** POST /v1/fetch fields (url aside). */
  fetch: Record<string, unknown>;
  /** The content format (Jina's content and markdown are the main content as markdown). */
  content: ReaderContent;
  /** Whether the answer carries the content at all (X-Respond-With naming only images leaves it out). */
  withContent: boolean;
  /** A screenshot of the viewport (screenshot) and of the whole page (pageshot). */
  screenshot: boolean;
  pageshot: boolean;
  linksSummary: boolean;
  imagesSummary: boolean;
  /** Images in the content: all (as they are), none, or alt (their alt text in place of each). */
  retainImages: "all" | "none" | "alt";
  /** Refuse the answer (400) past this many tokens. */
  tokenBudget?: number;
  /** Cut the content to about this many tokens. */
  maxOutputTokens?: number;
  timeoutMs: number;
}

const DEFAULT_TIMEOUT_S = 30;
const CONTENT: Record<string, ReaderContent> = {
  content: "markdown",
  markdown: "markdown",
  html: "html",
  text: "text",
};

/** Markdown options siphon writes one way: a header asking for that way is fine, another is refused. */
const MARKDOWN_STYLE: Record<string, string[]> = {
  "x-md-heading-style": ["atx"],
  "x-md-bullet-list-marker": ["-"],
  "x-md-em-delimiter": ["*"],
  "x-md-strong-delimiter": ["**"],
  "x-md-link-style": ["inlined"],
};

/** Headers Jina defines that siphon cannot honour, and why. */
const CANNOT: Record<string, string> = {
  "x-with-generated-alt": "it needs a vision model to caption images",
  "x-proxy": "siphon has no proxy servers of its own to route through",
  "x-proxy-url": "siphon does not route requests through a caller's proxy",
  "x-with-iframe": "siphon does not inline iframes",
  "x-with-shadow-dom": "siphon does not inline shadow DOM",
  "x-robots-txt": "a single page's fetch does not read robots.txt (a crawl does)",
  "x-keep-img-data-url": "siphon's markdown leaves data: images out",
  "x-md-hr": "siphon writes rules one way",
  "x-md-link-reference-style": "siphon writes links inline",
};

const truthy = (value: string | null) => value !== null && !/^(0|false|no|)$/i.test(value.trim());

function refuse(header: string, why: string): SiphonError {
  return new SiphonError("invalid_request", `${header} is not supported by siphon: ${why}`, {
    hint: "Leave the header out; see docs/jina.md for the headers siphon honours.",
  });
}

function positiveInt(headers: Headers, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = headers.get(name);
  if (raw === null) return undefined;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new SiphonError("invalid_request", `${name} must be a whole number from 0 to ${max}`);
  }
  return value;
}

/** Set-Cookie syntax, one or several (comma-separated), as name=value pairs; attributes dropped. */
function cookiesOf(header: string | null): string[] | undefined {
  if (!header) return undefined;
  const cookies = header
    .split(/,(?=\s*[^;,=\s]+=)/)
    .map((cookie) => cookie.split(";")[0]?.trim() ?? "")
    .filter((pair) => /^[^=\s]+=/.test(pair));
  return cookies.length ? cookies : undefined;
}

const list = (headers: Headers, name: string) =>
  headers
    .get(name)
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Reads Jina Reader's headers: what to fetch and how (selectors, waiting, engine, cookies,
 * locale, user agent, referer, cache), and what to answer with (format, screenshots, summaries,
 * images, token limits, timeout). Throws invalid_request naming a header with a bad value, or one
 * Jina defines that siphon cannot honour.
 */
export function readerOptions(headers: Headers): ReaderOptions {
  for (const [name, why] of Object.entries(CANNOT)) {
    const value = headers.get(name);
    if (value === null) continue;
    // A proxy of "none" asks for none; anything else asks for what siphon does not have.
    if (name === "x-proxy" && /^(none|false|)$/i.test(value.trim())) continue;
    if (name === "x-keep-img-data-url" && !truthy(value)) continue;
    throw refuse(name, why);
  }
  for (const [name, allowed] of Object.entries(MARKDOWN_STYLE)) {
    const value = headers.get(name)?.trim();
    if (value !== undefined && !allowed.includes(value))
      throw refuse(name, `siphon writes ${allowed.join(" or ")}`);
  }

  const asked = (list(headers, "x-respond-with") ?? list(headers, "x-return-format") ?? ["content"]).map(
    (v) => v.toLowerCase(),
  );
  const contents = asked.filter((v) => CONTENT[v]);
  for (const value of asked) {
    if (CONTENT[value] || value === "screenshot" || value === "pageshot") continue;
    if (value === "vlm" || value === "readerlm-v2")
      throw refuse("X-Respond-With", `${value} needs a model siphon does not run`);
    throw new SiphonError(
      "invalid_request",
      `X-Respond-With must be content, markdown, html, text, screenshot or pageshot, not "${value}"`,
    );
  }
  const content = CONTENT[contents[0] ?? "content"] as ReaderContent;

  const retain = (headers.get("x-retain-images") ?? "all").trim().toLowerCase();
  if (retain === "all_p" || retain === "alt_p")
    throw refuse("X-Retain-Images", `${retain} needs a vision model for alt text`);
  if (retain !== "all" && retain !== "none" && retain !== "alt") {
    throw new SiphonError("invalid_request", "X-Retain-Images must be all, none or alt");
  }

  const timeout = Number(headers.get("x-timeout") ?? DEFAULT_TIMEOUT_S);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 180) {
    throw new SiphonError("invalid_request", "X-Timeout is seconds, from 1 to 180");
  }

  const fetch: Record<string, unknown> = {
    format: content,
    onlyMainContent: true,
    includeTags: list(headers, "x-target-selector"),
    excludeTags: list(headers, "x-remove-selector"),
  };
  const tolerance = positiveInt(headers, "x-cache-tolerance", 2_592_000);
  if (truthy(headers.get("x-no-cache"))) fetch.maxAge = 0;
  else if (tolerance !== undefined) fetch.maxAge = tolerance * 1000;
  if (headers.get("dnt")?.trim() === "1") fetch.storeInCache = false;

  const engine = headers.get("x-engine")?.trim().toLowerCase();
  if (engine === "browser") fetch.render = true;
  else if (engine === "cf-browser-rendering")
    throw refuse("X-Engine", "cf-browser-rendering is Cloudflare's; use browser");
  else if (engine !== undefined && engine !== "auto" && engine !== "direct" && engine !== "curl") {
    throw new SiphonError("invalid_request", "X-Engine must be auto, browser, direct or curl");
  }
  const timing = headers.get("x-respond-timing")?.trim().toLowerCase();
  if (timing !== undefined && timing !== "html") fetch.render = true;

  const waitFor = list(headers, "x-wait-for-selector");
  if (waitFor?.length) fetch.actions = waitFor.map((selector) => ({ type: "waitForSelector", selector }));
  const cookies = cookiesOf(headers.get("x-set-cookie"));
  if (cookies) fetch.cookies = cookies;
  const locale = headers.get("x-locale")?.trim();
  if (locale) fetch.languages = [locale];
  const sent: Record<string, string> = {};
  const agent = headers.get("x-user-agent")?.trim();
  if (agent) sent["user-agent"] = agent;
  const referer = headers.get("x-referer")?.trim();
  if (referer) sent.referer = referer;
  if (Object.keys(sent).length) fetch.headers = sent;

  const base = headers.get("x-base")?.trim().toLowerCase();
  if (base !== undefined && base !== "final")
    throw refuse("X-Base", "relative links resolve against the final URL (final)");

  return {
    fetch,
    content,
    withContent: contents.length > 0 || !asked.some((v) => v === "screenshot" || v === "pageshot"),
    screenshot: asked.includes("screenshot"),
    pageshot: asked.includes("pageshot"),
    linksSummary: truthy(headers.get("x-with-links-summary")),
    imagesSummary: truthy(headers.get("x-with-images-summary")),
    retainImages: retain,
    tokenBudget: positiveInt(headers, "x-token-budget"),
    maxOutputTokens: positiveInt(headers, "x-max-output-tokens"),
    timeoutMs: timeout * 1000,
  };
}

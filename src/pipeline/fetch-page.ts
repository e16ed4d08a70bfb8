import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { ExtractOptions } from "../extract/types.ts";
import { HTML_ACCEPT, MARKDOWN_AWARE_ACCEPT } from "../fetch/accept.ts";
import { acceptLanguage } from "../fetch/locale.ts";
import type { EngineFetchOptions, EngineName, FetchedPage } from "../fetch/types.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { parseActions } from "../schemas/actions.ts";
import type { FetchInput, FetchResult } from "../schemas/fetch.ts";
import type { Store } from "../store/types.ts";
import { cacheKey } from "./cache-key.ts";
import { cacheOnlyWindow, nothingCached } from "./cache-only.ts";
import { blockedError, convertPage } from "./convert.ts";
import type { Engines } from "./engines.ts";
import { type Attempt, type EscalationPlan, fetchEscalating, mainTextLength } from "./escalate.ts";
import { type ResolvedFormats, resolveFormats } from "./formats.ts";
import { holdWrite } from "./holdback.ts";
import { renderResult } from "./result.ts";
import {
  announcedTwin,
  fetchTwin,
  markdownBody,
  needsPageBeyondMarkdown,
  readableLength,
  type SiteMarkdown,
  saneSiteMarkdown,
  TRUSTED_LENGTH,
  TWIN_TIMEOUT_MS,
  withSiteMarkdown,
} from "./site-markdown.ts";

/** What fetchPage needs from its caller. */
export interface FetchDeps {
  config: Config;
  store: Store;
  engines: Engines;
  signal?: AbortSignal;
  now?: () => number;
  /** Over the weekly quota: simple HTTP only, no browser or stealth, whatever the request asks. */
  httpOnly?: boolean;
  /**
   * The browsing session of a job's pages (its id): rendered pages of one job share cookies,
   * storage and the HTTP cache, and skip the browser's wipe between them (EngineFetchOptions.session).
   */
  browserSession?: string;
  /**
   * Called with the plain HTTP answer when the page goes on to the browser (it needs
   * JavaScript): a lesser answer the caller may show while the render runs (Jina's stream).
   */
  onPartial?: (result: FetchResult) => void;
  /**
   * The markdown twin a site's llms.txt lists for a page URL (a crawl reads it once per site):
   * used as an announced twin when the page announces none itself.
   */
  markdownTwin?: (url: string) => string | undefined;
}

export interface CacheInfo {
  hit: boolean;
  /** Age of the cached entry in seconds, on a hit. */
  ageSeconds?: number;
}

export interface FetchOutcome {
  result: FetchResult;
  cache: CacheInfo;
  /** Set when the answer is less than it could have been, and why (X-Degraded). */
  degraded?: string;
}

/** Request headers for every engine: caller headers, Accept-Language, cookies. */
function requestHeaders(input: FetchInput): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const language = acceptLanguage(input.location, input.languages);
  if (language && !headers["accept-language"]) headers["accept-language"] = language;
  if (input.cookies?.length) headers.cookie = input.cookies.join("; ");
  return Object.keys(headers).length ? headers : undefined;
}

/** A fetch attempt as the cache keeps it: the page's description; its bytes are stored beside. */
interface CachedAttempt {
  url: string;
  status: number;
  headers: Record<string, string>;
  redirects: string[];
  engine: EngineName;
  /** The site's own markdown of the page, when the fetch found a sane twin (site-markdown.ts). */
  siteMarkdown?: SiteMarkdown;
}

/**
 * Fetches one URL and returns the SPEC Fetch result. Two halves: "fetch and escalate" makes one
 * attempt (final URL, status, headers, body, engine) or finds it in the cache, and "render the
 * formats" turns that one attempt into every format asked for. Order: validation of what the
 * schema cannot express (actions, formats, features not built) -> URL rules -> cache lookup of
 * the attempt -> engine fetch with escalation (simple -> browser -> stealth; SSRF checked at
 * every hop; the best stage wins) -> conversion by content type, in every format -> result
 * fields -> cache write of the attempt. Throws SiphonError for every expected failure.
 */
/** What fetchPage reads from a request before anything is fetched: a function of it and the configuration. */
interface FetchLayout {
  config: Config;
  actions: ReturnType<typeof parseActions>;
  formats: ReturnType<typeof resolveFormats>;
  target: URL;
  extract: ExtractOptions;
  wantsBrowser: boolean;
  requested: EngineName;
  cacheable: boolean;
  key: string;
  /** The output options in a render memo key. */
  output: string;
  /**
   * Whether the site's own markdown is looked for: on (siteMarkdown), and some markdown asked for
   * (the content's format or a markdown field) or the answer kept in the cache, whose entry then
   * answers any format. A request for text or HTML alone that the cache does not keep neither
   * states markdown in its Accept nor fetches an announced twin: it would change nothing returned.
   */
  twin: boolean;
  /** The render memo key of the attempt last looked up: one string, whose hash is worked out once. */
  rendered?: { createdAt: number; key: string };
}

/**
 * Layouts of frozen inputs, which are shared by the requests that send the same thing (a
 * route's memoised query, a memoised scrape plan): a cached page asked for again and again skips
 * parsing its URL, actions and formats, hashing its cache key and serialising its output options.
 */
const layouts = new WeakMap<FetchInput, FetchLayout>();

/** How a request's page is extracted: the formats it renders and the content options. */
export function extractOptionsOf(input: FetchInput, formats: ResolvedFormats): ExtractOptions {
  return {
    format: formats.format,
    formats: formats.contents.length ? formats.contents : undefined,
    onlyMainContent: input.onlyMainContent,
    includeTags: input.includeTags,
    excludeTags: input.excludeTags,
    images: formats.images,
  };
}

/** Lays a request out (see FetchLayout); throws invalid_request for what it gets wrong. */
function layOut(input: FetchInput, config: Config): FetchLayout {
  const known = layouts.get(input);
  if (known?.config === config) return known;
  const actions = parseActions(input.actions);
  const formats = resolveFormats(input);
  const target = parseTargetUrl(input.url);
  const extract = extractOptionsOf(input, formats);
  const forcesBrowser =
    input.render || input.wait > 0 || actions.length > 0 || formats.screenshot !== undefined;
  const requested: EngineName = input.stealth ? "stealth" : forcesBrowser ? "browser" : "simple";
  // Actions, captures, custom headers and cookies make an answer particular to this request.
  const cacheable =
    config.cacheEnabled &&
    actions.length === 0 &&
    !formats.screenshot &&
    !input.headers &&
    !input.cookies?.length;
  const wantsMarkdown = formats.format === "markdown" || formats.contents.includes("markdown");
  const layout: FetchLayout = {
    config,
    actions,
    formats,
    target,
    extract,
    wantsBrowser: forcesBrowser || input.stealth,
    requested,
    cacheable,
    key: cacheKey(target.href, input, requested, !config.disableSsrfProtection),
    output: JSON.stringify([extract, formats.rawHtml, formats.images, input.siteMarkdown]),
    twin: input.siteMarkdown && (wantsMarkdown || (cacheable && input.storeInCache)),
  };
  if (Object.isFrozen(input)) layouts.set(input, layout);
  return layout;
}

export async function fetchPage(input: FetchInput, deps: FetchDeps): Promise<FetchOutcome> {
  const now = deps.now ?? Date.now;
  const started = performance.now();
  const layout = layOut(input, deps.config);
  const { actions, formats, target, extract, wantsBrowser, requested, cacheable, key, output, twin } = layout;
  const start: EngineName = deps.httpOnly ? "simple" : requested;
  const skipped =
    deps.httpOnly && wantsBrowser
      ? "rendering, stealth, actions and screenshots were skipped (HTTP only)"
      : undefined;

  // The same attempt rendered with the same output options gives the same result.
  const renderKey = (createdAt: number) => {
    if (layout.rendered?.createdAt !== createdAt)
      layout.rendered = { createdAt, key: `${key}|${createdAt}|${output}` };
    return layout.rendered.key;
  };
  const cacheOnly = cacheOnlyWindow(input, cacheable);
  const youngest = cacheOnly?.youngest ?? 0;
  const oldest = cacheOnly?.oldest ?? input.maxAge;
  if (cacheable && oldest > 0) {
    const entry = await deps.store.cache.get<CachedAttempt>(key, now());
    const age = entry ? now() - entry.createdAt : -1;
    if (entry && age <= oldest && age >= youngest) {
      const cache = { hit: true, ageSeconds: Math.max(0, Math.floor((now() - entry.createdAt) / 1000)) };
      const memoKey = renderKey(entry.createdAt);
      // Looked up before the entry's bytes and description are read: a store may make those only
      // when asked (SQLite's copy of a page's bytes cost more than the rest of a cached request).
      const rendered = deps.engines.renders?.get(memoKey);
      if (rendered)
        return { result: { ...rendered, elapsed: Math.round(performance.now() - started) }, cache };
      const body = entry.body;
      if (body) {
        const { engine, siteMarkdown, ...described } = entry.value;
        const page: FetchedPage = { ...described, body };
        const converted = await convertPage(page, extract, deps.engines.extract);
        if (converted.blocked) throw blockedError(converted.blocked);
        let result = renderResult({ page, converted, engine }, formats, performance.now() - started);
        if (siteMarkdown && input.siteMarkdown) result = withSiteMarkdown(result, formats, siteMarkdown);
        deps.engines.renders?.set(memoKey, result);
        return { result, cache };
      }
    }
  }

  if (cacheOnly) throw nothingCached(target.href, cacheOnly);

  const headers = requestHeaders(input);
  // A page fetched for site markdown states markdown in its Accept, below HTML (the simple engine
  // sends HTML's alone to everyone else: maps, sitemaps, robots.txt); a caller's own Accept wins,
  // and the browser sends its own.
  const plan = (accept = twin ? MARKDOWN_AWARE_ACCEPT : HTML_ACCEPT): EscalationPlan => ({
    start,
    allowed: deps.config.escalation && !deps.httpOnly,
    extract,
    options: (engine): EngineFetchOptions => {
      const sent = accept && !headers?.accept ? { ...headers, accept } : headers;
      return engine === "simple"
        ? { headers: sent, signal: deps.signal }
        : {
            headers,
            signal: deps.signal,
            wait: input.wait,
            actions,
            cookies: input.cookies,
            location: input.location,
            languages: input.languages,
            screenshot: formats.screenshot
              ? { fullPage: formats.screenshot.fullPage, format: "png" }
              : undefined,
            session: deps.browserSession,
          };
    },
    onEscalate: deps.onPartial
      ? (earlier) => deps.onPartial?.(renderResult(earlier, formats, performance.now() - started))
      : undefined,
  });
  const found = await fetchWithSiteMarkdown(target.href, input, formats, twin, deps, plan, headers);
  const { attempt, siteMarkdown } = found;
  if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
  let result = renderResult(attempt, formats, performance.now() - started);
  if (siteMarkdown) result = withSiteMarkdown(result, formats, siteMarkdown);

  // Only a good answer is cached: an error page, a degraded or partial answer, or an empty one
  // should be fetched again next time.
  const { page } = attempt;
  const good =
    page.status >= 200 &&
    page.status < 300 &&
    !attempt.degraded &&
    !attempt.warning &&
    result.content.trim() !== "";
  if (cacheable && input.storeInCache && good) {
    const value: CachedAttempt = {
      url: page.url,
      status: page.status,
      headers: page.headers,
      redirects: page.redirects,
      engine: attempt.engine,
      siteMarkdown,
    };
    const createdAt = now();
    // Held until a metered request is paid for (src/pipeline/holdback.ts).
    await holdWrite(async () => {
      await deps.store.cache.set(key, page.url, { value, body: page.body, createdAt });
      deps.engines.renders?.set(renderKey(createdAt), result);
    });
  }
  const degraded = [skipped, attempt.degraded].filter(Boolean).join("; ") || undefined;
  return { result, cache: { hit: false }, degraded };
}

/**
 * The page's attempt, with the site's own markdown when it offers a sane one (siteMarkdown):
 * a negotiated markdown answer serves alone when the request asks for nothing beyond markdown,
 * else the page is fetched again as HTML (an Accept without markdown) and the markdown kept
 * beside it when it holds at least half the page's main text; an HTML page's announced twin
 * (Link header, <link rel=alternate>, a crawl's llms.txt) is fetched and kept the same way.
 * Only when the request `looks` for it (see FetchLayout.twin).
 */
async function fetchWithSiteMarkdown(
  url: string,
  input: FetchInput,
  formats: ResolvedFormats,
  looks: boolean,
  deps: FetchDeps,
  plan: (accept?: string) => EscalationPlan,
  headers: Record<string, string> | undefined,
): Promise<{ attempt: Attempt; siteMarkdown?: SiteMarkdown }> {
  const attempt = await fetchEscalating(url, plan(), deps.engines);
  if (!looks || attempt.page.status < 200 || attempt.page.status >= 300) return { attempt };
  if (attempt.converted.markdown) {
    const markdown = attempt.converted.raw ?? "";
    const alone =
      saneSiteMarkdown(markdown) &&
      readableLength(markdownBody(markdown)) >= TRUSTED_LENGTH &&
      !needsPageBeyondMarkdown(formats, input);
    if (alone) return { attempt };
    const page = await fetchEscalating(url, plan(HTML_ACCEPT), deps.engines);
    // A site that answers markdown to every Accept: its markdown is the page.
    if (page.converted.markdown) return { attempt: page };
    const sane = saneSiteMarkdown(markdown, await mainTextLength(page, deps.engines));
    return { attempt: page, siteMarkdown: sane ? { url: attempt.page.url, markdown } : undefined };
  }
  if (attempt.converted.html === undefined || input.includeTags?.length || input.excludeTags?.length)
    return { attempt };
  const twin = announcedTwin(attempt.page, attempt.converted.html, deps.markdownTwin);
  if (!twin) return { attempt };
  // The page's main text is measured while the twin is fetched.
  const measuring = mainTextLength(attempt, deps.engines);
  measuring.catch(() => {});
  const siteMarkdown = await fetchTwin(
    twin,
    await deps.engines.get("simple"),
    {
      headers,
      signal: deps.signal,
      timeoutMs: Math.min(TWIN_TIMEOUT_MS, Math.max(1, Math.floor(deps.config.fetchTimeoutMs / 2))),
    },
    measuring,
  );
  return { attempt, siteMarkdown };
}

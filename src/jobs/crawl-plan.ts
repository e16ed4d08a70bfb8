import { type LlmsTxt, loadLlmsTxt, twinLookup } from "../crawl/llms-txt.ts";
import { normalizeUrl, sameSite } from "../crawl/normalize.ts";
import { loadRobots } from "../crawl/robots.ts";
import { collectSitemapUrls, sitemapUse } from "../crawl/sitemap.ts";
import { SiphonError } from "../errors.ts";
import type { FetchEngine } from "../fetch/types.ts";
import type { CrawlInput } from "../schemas/jobs.ts";

// Assets no extraction can use; documents (PDF, DOCX) are content and stay in.
const ASSET =
  /\.(?:jpe?g|png|gif|webp|svg|ico|bmp|avif|mp[34]|webm|mov|avi|wav|ogg|css|js|woff2?|ttf|eot|zip|gz|tgz|rar|7z|exe|dmg|iso)$/i;
const MAX_PATTERN_COST = 500;
/** Link spellings whose follow verdict a crawl remembers (cleared when full). */
const FOLLOW_MEMO = 50_000;

/** Compiles include/exclude path patterns up front: a bad one is a 400 at submit, not a failed job. */
export function compilePatterns(patterns: string[] | undefined, field: string): RegExp[] {
  return (patterns ?? []).map((pattern, index) => {
    if (pattern.length > MAX_PATTERN_COST)
      throw new SiphonError("invalid_request", `${field}[${index}] is too long`);
    try {
      return new RegExp(pattern);
    } catch (error) {
      throw new SiphonError(
        "invalid_request",
        `${field}[${index}] is not a valid regular expression: ${(error as Error).message}`,
      );
    }
  });
}

/** Which discovered URLs a crawl follows, and how politely. */
export interface CrawlPlan {
  start: URL;
  /** Normalised URL when the crawl should follow it, else null. */
  follow(url: string): string | null;
  /** Sitemap URLs to seed the frontier with (empty with ignoreSitemap or sitemap skip). */
  seeds(limit: number, signal?: AbortSignal): Promise<string[]>;
  /** False with sitemap "only": the sitemaps' URLs are the crawl, and no page's links join it. */
  followsLinks: boolean;
  /** Crawl-delay of the start origin's robots.txt, in ms. */
  delayMs: number | undefined;
  /** The markdown twin the start origin's llms.txt lists for a page (site markdown on); else none. */
  markdownTwin?: (url: string) => string | undefined;
}

/**
 * Builds a crawl's frontier rules: same site by default (subdomains or other
 * sites when allowed), includePaths/excludePaths as regular expressions on the
 * URL path, robots.txt disallows and Crawl-delay unless ignoreRobotsTxt, no
 * fragments, tracking parameters or duplicate spellings (normalizeUrl).
 */
export async function planCrawl(
  input: CrawlInput,
  engine: FetchEngine,
  userAgent: string,
  signal?: AbortSignal,
  /** The start origin's llms.txt when the caller read it already (null: it has none). */
  knownLlms?: LlmsTxt | null,
): Promise<CrawlPlan> {
  const start = new URL(input.url);
  const use = sitemapUse(input);
  const include = compilePatterns(input.includePaths, "includePaths");
  const exclude = compilePatterns(input.excludePaths, "excludePaths");
  const [robots, llms] = await Promise.all([
    input.ignoreRobotsTxt ? undefined : loadRobots(start.origin, engine, userAgent, { signal }),
    // The pages' markdown twins, when the site lists them and the crawl takes site markdown.
    // A known llms.txt (null: the site has none) is not read again.
    input.scrapeOptions?.siteMarkdown === false
      ? undefined
      : knownLlms === undefined
        ? loadLlmsTxt(start.origin, engine, signal)
        : (knownLlms ?? undefined),
  ]);
  const decide = (raw: string): string | null => {
    const normal = normalizeUrl(raw);
    if (!normal) return null;
    const url = new URL(normal);
    if (!input.allowExternalLinks && !sameSite(url, start, { allowSubdomains: input.allowSubdomains }))
      return null;
    if (ASSET.test(url.pathname)) return null;
    if (include.length && !include.some((re) => re.test(url.pathname))) return null;
    if (exclude.some((re) => re.test(url.pathname))) return null;
    // Robots rules are the start origin's; other origins are only reached with allowExternalLinks.
    if (robots && url.origin === start.origin && !robots.isAllowed(normal)) return null;
    return normal;
  };
  // Pages of a site repeat most of their links (navigation, footers): each spelling is decided once.
  const decided = new Map<string, string | null>();
  const follow = (raw: string): string | null => {
    let verdict = decided.get(raw);
    if (verdict === undefined) {
      verdict = decide(raw);
      if (decided.size >= FOLLOW_MEMO) decided.clear();
      decided.set(raw, verdict);
    }
    return verdict;
  };
  return {
    start,
    follow,
    delayMs: robots?.crawlDelayMs,
    markdownTwin: llms ? twinLookup(llms) : undefined,
    followsLinks: use !== "only",
    async seeds(limit, seedSignal) {
      if (use === "skip") return [];
      const sitemaps = [...(robots?.sitemaps ?? []), `${start.origin}/sitemap.xml`];
      return collectSitemapUrls(sitemaps, engine, {
        limit,
        signal: seedSignal,
        accept: (url) => follow(url) !== null,
      });
    },
  };
}

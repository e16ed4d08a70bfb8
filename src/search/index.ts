import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { FetchDeps } from "../pipeline/fetch-page.ts";
import {
  SEARCH_PROVIDERS,
  type SearchInput,
  type SearchProviderName,
  type SearchResponse,
  type SearchSource,
  type WebResult,
} from "../schemas/search.ts";
import { createBrave } from "./brave.ts";
import { allowedByDomains, type DomainRule, normalizeDomain } from "./domains.ts";
import { createDuckDuckGo } from "./duckduckgo.ts";
import { resolveRegion } from "./regions.ts";
import { scrapeHits, scrapeTally } from "./scrape.ts";
import { createSearxng } from "./searxng.ts";
import { type ProviderQuery, type SearchProvider, supports } from "./types.ts";

export type { SearchProvider } from "./types.ts";

/** Every provider by name: a name without one is a compile error. */
export const PROVIDERS: Record<SearchProviderName, (config: Config) => SearchProvider> = {
  duckduckgo: createDuckDuckGo,
  brave: createBrave,
  searxng: createSearxng,
};

/** What a search needs: the fetch pipeline's deps (scrapeResults fetches through it). */
export type SearchDeps = FetchDeps;

/** A search's answer, plus what the transport meters and reports. */
export interface SearchOutcome {
  response: SearchResponse;
  provider: SearchProviderName;
  /** Result pages fetched from their sites for scrapeResults (cache hits and failures not counted). */
  pagesFetched: number;
  /** Set when scraping ran with less than it could (over the weekly quota: HTTP only). */
  degraded?: string;
}

const FRESHNESS = { "qdr:d": "d", "qdr:w": "w", "qdr:m": "m", "qdr:y": "y" } as const;

/** The provider a request names, else the operator's default; refuses one that cannot run here. */
function providerFor(input: SearchInput, config: Config): SearchProvider {
  const name = input.provider ?? config.searchProvider;
  if (!(SEARCH_PROVIDERS as readonly string[]).includes(name)) {
    throw new SiphonError(
      "invalid_request",
      `SIPHON_SEARCH_PROVIDER must be one of ${SEARCH_PROVIDERS.join(", ")}, got "${name}"`,
    );
  }
  if (name === "searxng" && !config.searxngUrl) {
    throw new SiphonError("invalid_request", "provider searxng is not set up on this server", {
      hint: "Set SIPHON_SEARXNG_URL to a SearXNG instance with its JSON format enabled, or use duckduckgo.",
    });
  }
  return PROVIDERS[name as SearchProviderName](config);
}

/** The caller's key, else the operator's; refuses a keyed provider without one. */
function keyFor(provider: SearchProvider, input: SearchInput, config: Config): string | undefined {
  if (!provider.needsKey) return undefined;
  const key = input.searchApiKey || config.braveApiKey;
  if (!key) {
    throw new SiphonError("invalid_request", `${provider.label} needs an API key and none was given`, {
      hint: "Pass searchApiKey or the x-search-api-key header (or set SIPHON_BRAVE_API_KEY on the server).",
    });
  }
  return key;
}

/** includeDomains and excludeDomains as a rule; a 400 naming an entry that is no domain, or a domain in both. */
function domainRule(input: SearchInput): DomainRule {
  const read = (field: "includeDomains" | "excludeDomains") =>
    (input[field] ?? []).map((raw, index) => {
      const domain = normalizeDomain(raw);
      if (!domain) {
        throw new SiphonError("invalid_request", `${field}.${index}: "${raw}" is not a domain`, {
          hint: 'Give host names such as "example.com" (subdomains are included).',
        });
      }
      return domain;
    });
  const rule = {
    include: [...new Set(read("includeDomains"))],
    exclude: [...new Set(read("excludeDomains"))],
  };
  const both = rule.include.find((domain) => rule.exclude.includes(domain));
  if (both) throw new SiphonError("invalid_request", `${both} is in both includeDomains and excludeDomains`);
  return rule;
}

/**
 * Searches the web with one provider and returns the SPEC Search response.
 * Order: what the schema cannot check (provider set up here, key, sources the
 * provider has, region, domains) -> the sources asked for, in parallel (includeDomains and
 * excludeDomains as the engine's site: operators where it has them) -> results outside the
 * domain rule dropped, on every engine -> with
 * scrapeResults, every web result fetched in parallel through fetchPage.
 * Throws invalid_request for what the provider cannot do and search_failed
 * with the provider's reason (rate limit, captcha, refused key, unreadable
 * answer) when it fails. The key is never logged, cached or put in a message.
 */
export async function search(input: SearchInput, deps: SearchDeps): Promise<SearchOutcome> {
  const q = input.q.trim();
  if (!q) throw new SiphonError("invalid_request", "q must not be empty");
  const provider = providerFor(input, deps.config);
  const sources = [...new Set(input.sources)] as SearchSource[];
  for (const source of sources) {
    if (!supports(provider, source)) {
      throw new SiphonError("invalid_request", `${provider.label} has no ${source} search`, {
        hint: `Ask ${provider.label} for web results only, or use provider=${source === "web" ? "duckduckgo" : "brave or searxng"} for ${source}.`,
      });
    }
  }
  const key = keyFor(provider, input, deps.config);
  const domains = domainRule(input);
  const region = resolveRegion(input.country, input.location);
  if (region) provider.checkRegion?.(region);

  const query: ProviderQuery = {
    q,
    count: input.count,
    categories: [...new Set(input.categories ?? [])],
    freshness: input.tbs ? FRESHNESS[input.tbs] : undefined,
    domains,
    region,
    key,
    signal: deps.signal,
  };
  const [found, foundNews, foundImages] = await Promise.all([
    sources.includes("web") ? provider.web(query) : [],
    sources.includes("news") ? provider.news?.(query) : undefined,
    sources.includes("images") ? provider.images?.(query) : undefined,
  ]);
  // The engine's operators narrow what it finds; the rule decides what is returned, on every engine.
  const allowed = <T extends { url: string }>(items: T[]) =>
    items.filter((item) => allowedByDomains(item.url, domains));
  const web = allowed(found);
  const news = foundNews && allowed(foundNews);
  const images = foundImages && allowed(foundImages);

  let tally: ReturnType<typeof scrapeTally> = { pagesFetched: 0 };
  let results: WebResult[] = web;
  if (input.scrapeResults) {
    const scraped = await scrapeHits(web, deps);
    if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
    results = scraped.map(({ hit, page, error }) =>
      page ? { ...hit, content: page.content } : { ...hit, content: null, error },
    );
    tally = scrapeTally(scraped);
  }
  const data: SearchResponse["data"] = { web: results };
  if (news) data.news = news;
  if (images) data.images = images;
  return {
    response: { success: true, data },
    provider: provider.name,
    pagesFetched: tally.pagesFetched,
    degraded: tally.degraded,
  };
}

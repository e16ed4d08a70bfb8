import type { Config } from "../config.ts";
import type {
  ImageResult,
  NewsResult,
  SearchCategory,
  SearchProviderName,
  SearchSource,
} from "../schemas/search.ts";
import type { DomainRule } from "./domains.ts";
import type { Region } from "./regions.ts";

/** One search as a provider receives it: validated, with the caller's wishes still in siphon's terms. */
export interface ProviderQuery {
  /** The query as the caller wrote it; each provider adds its own operators. */
  q: string;
  /** Results wanted, 1 to 10. */
  count: number;
  /** Web results only from these kinds of site (each provider maps them its own way). */
  categories: SearchCategory[];
  /** Past day, week, month or year. */
  freshness?: "d" | "w" | "m" | "y";
  /** Sites to keep to and away from (operators where the engine has them; filtered after in any case). */
  domains: DomainRule;
  /** Where the results should come from, from `country` and/or `location`. */
  region?: Region;
  /** The key for a keyed provider: the caller's, else the operator's. Never logged or echoed. */
  key?: string;
  signal?: AbortSignal;
}

/** A web result as a provider found it. */
export interface WebHit {
  title: string;
  url: string;
  snippet: string;
}

/** What a provider needs from its caller. */
export interface ProviderDeps {
  config: Config;
}

/**
 * A search engine. `web` is always there; `news` and `images` only where the
 * engine has its own news or image search (asking one that lacks them is a 400
 * naming it). Every method throws SiphonError search_failed with the engine's
 * reason (rate limit, captcha, refused key, unreadable answer), never returns
 * "no results" for a failure.
 */
export interface SearchProvider {
  readonly name: SearchProviderName;
  /** How users know it: "DuckDuckGo", "Brave Search", "SearXNG". */
  readonly label: string;
  /** Whether it needs a key (the caller's searchApiKey, or the operator's). */
  readonly needsKey: boolean;
  web(query: ProviderQuery): Promise<WebHit[]>;
  news?(query: ProviderQuery): Promise<NewsResult[]>;
  images?(query: ProviderQuery): Promise<ImageResult[]>;
  /** Refuses (400) what this provider cannot do with a region; called before any request. */
  checkRegion?(region: Region): void;
}

/** Whether `provider` has its own search for `source` (every provider has web). */
export function supports(provider: SearchProvider, source: SearchSource): boolean {
  return source === "web" || typeof provider[source] === "function";
}

import type { ProgressEvent, Source } from "../answer/sources.ts";
import { splitPassages } from "../passages/index.ts";
import type { FetchDeps } from "../pipeline/fetch-page.ts";
import type { FetchResult } from "../schemas/fetch.ts";
import type { SearchCategory, SearchProviderName } from "../schemas/search.ts";
import { search } from "../search/index.ts";
import { scrapeHit } from "../search/scrape.ts";
import type { WebHit } from "../search/types.ts";

/** What the agent may spend. */
export interface Limits {
  /** Most pages read (sources). */
  sources: number;
  /** Most web searches. */
  queries: number;
  /** Most credits (pages fetched from their sites); undefined: no cap. */
  credits?: number;
}

export interface SearchOptions {
  provider?: SearchProviderName;
  searchApiKey?: string;
  tbs?: "qdr:d" | "qdr:w" | "qdr:m" | "qdr:y";
  categories?: SearchCategory[];
}

/** Why a page was not read. */
export type Refusal = "sources" | "credits" | "seen" | "failed";

/**
 * What an agent run has found so far: the searches it made, the pages it read (its sources, in
 * the order read), and what that cost. Every search and fetch goes through here, so the limits
 * (sources, queries, credits) hold whoever asks: the model's tool calls or a fixed plan.
 */
export class Notebook {
  readonly sources: Source[] = [];
  readonly queries: string[] = [];
  /** Pages fetched from their sites: what credits count. */
  credits = 0;
  /** Pages fetched, cache hits included. */
  pagesVisited = 0;
  /** Set when a limit stopped something the run wanted to do. */
  stoppedBy: Refusal | "queries" | undefined;
  readonly degraded = new Set<string>();
  #seen = new Set<string>();
  #inFlight = 0;

  constructor(
    readonly limits: Limits,
    private readonly deps: FetchDeps & { onProgress?: (event: ProgressEvent) => void },
    private readonly options: SearchOptions,
  ) {}

  get queriesLeft(): number {
    return this.limits.queries - this.queries.length;
  }

  get sourcesLeft(): number {
    return this.limits.sources - this.sources.length - this.#inFlight;
  }

  /** Credits still to spend, counting fetches under way as spent (a cache hit gives its credit back). */
  get creditsLeft(): number {
    if (this.limits.credits === undefined) return Number.POSITIVE_INFINITY;
    return this.limits.credits - this.credits - this.#inFlight;
  }

  /** Searches the web; null when the search budget is spent. Failures throw (search_failed). */
  async search(query: string, count = 5): Promise<WebHit[] | null> {
    if (this.queriesLeft <= 0) {
      this.stoppedBy ??= "queries";
      return null;
    }
    this.queries.push(query);
    this.deps.onProgress?.({ action: "searching", query });
    const found = await search(
      {
        q: query.slice(0, 500),
        provider: this.options.provider,
        searchApiKey: this.options.searchApiKey,
        count,
        scrapeResults: false,
        sources: ["web"],
        tbs: this.options.tbs,
        categories: this.options.categories,
      },
      this.deps,
    );
    return found.response.data.web;
  }

  /** Whether a URL was read (or is being read) already. */
  has(url: string): boolean {
    return this.#seen.has(url);
  }

  /**
   * Reads pages in parallel, as many as the limits allow, in the order given; the pages read join
   * the sources in that order. Returns, per URL, the source read or why not. A page that fails to
   * fetch is not a source.
   */
  async read(hits: WebHit[]): Promise<(Source | Refusal)[]> {
    const plans = hits.map((hit): WebHit | Refusal => {
      if (this.#seen.has(hit.url)) return "seen";
      if (this.sourcesLeft <= 0) return this.#stop("sources");
      if (this.creditsLeft <= 0) return this.#stop("credits");
      this.#seen.add(hit.url);
      this.#inFlight++;
      return hit;
    });
    const fetched = await Promise.all(
      plans.map(async (plan) => (typeof plan === "string" ? plan : this.#fetch(plan))),
    );
    return fetched.map((result, i) => {
      if (typeof result === "string") return result;
      const index = this.sources.length;
      const page = result.page;
      const hit = plans[i] as WebHit;
      const source: Source = {
        title: page.title || hit.title || page.url,
        url: page.url,
        snippet: hit.snippet,
        page,
        passages: splitPassages(page.content, index),
      };
      this.#seen.add(page.url);
      this.sources.push(source);
      return source;
    });
  }

  #stop(limit: Refusal): Refusal {
    this.stoppedBy ??= limit;
    return limit;
  }

  async #fetch(hit: WebHit): Promise<{ page: FetchResult } | Refusal> {
    this.deps.onProgress?.({ action: "fetching", url: hit.url });
    const scraped = await scrapeHit(hit, this.deps);
    this.#inFlight--;
    if (scraped.fetched) this.credits++;
    if (scraped.degraded) this.degraded.add(scraped.degraded);
    if (!scraped.page) return "failed";
    this.pagesVisited++;
    return { page: scraped.page };
  }
}

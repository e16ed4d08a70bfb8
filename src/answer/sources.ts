import { SiphonError } from "../errors.ts";
import { type Passage, type RankedPassage, rankPassages, splitPassages } from "../passages/index.ts";
import type { FetchDeps } from "../pipeline/fetch-page.ts";
import type { SearchProviderName } from "../schemas/search.ts";
import { search } from "../search/index.ts";
import { type ScrapedHit, scrapeHits, scrapeTally } from "../search/scrape.ts";

/** What a question-answering route reports as it works (the CLI's progress, the agent's steps). */
export type ProgressEvent =
  | { action: "searching"; query: string }
  | { action: "fetching"; url: string }
  | { action: "analyzing"; summary: string };

export interface GatherDeps extends FetchDeps {
  onProgress?: (event: ProgressEvent) => void;
}

/** One page found for the question, fetched (or, when the fetch failed, its search snippet). */
export interface Source {
  title: string;
  url: string;
  /** The search engine's snippet. */
  snippet: string;
  /** The fetched page; null when the fetch failed and the snippet stands in for it. */
  page: ScrapedHit["page"];
  passages: Passage[];
}

/** The sources of a question with their passages ranked, and what gathering cost. */
export interface Gathered {
  sources: Source[];
  ranked: RankedPassage[];
  provider: SearchProviderName;
  pagesFetched: number;
  degraded?: string;
}

/** Search engines take at most 500 characters; a longer question is cut at a word end. */
export function searchQueryOf(question: string): string {
  const q = question.replace(/\s+/g, " ").trim();
  if (q.length <= 500) return q;
  const cut = q.slice(0, 500);
  const space = cut.lastIndexOf(" ");
  return space > 300 ? cut.slice(0, space) : cut;
}

/**
 * Searches for a question, fetches the top `count` results in parallel through the pipeline,
 * splits every page into passages and ranks them all for the question by BM25. A result whose
 * page cannot be fetched keeps its search snippet as its only passage, so an answer survives a
 * dead link. A search that finds nothing gives no sources. Throws search_failed when the search
 * fails.
 */
export async function gatherSources(
  question: string,
  options: { count: number; provider?: SearchProviderName; searchApiKey?: string },
  deps: GatherDeps,
): Promise<Gathered> {
  const query = searchQueryOf(question);
  deps.onProgress?.({ action: "searching", query });
  const found = await search(
    {
      q: query,
      provider: options.provider,
      searchApiKey: options.searchApiKey,
      count: options.count,
      scrapeResults: false,
      sources: ["web"],
    },
    deps,
  );
  const hits = found.response.data.web.slice(0, options.count);
  for (const hit of hits) deps.onProgress?.({ action: "fetching", url: hit.url });
  const scraped = await scrapeHits(hits, deps);
  if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
  const sources: Source[] = scraped.map(({ hit, page }, index) => {
    const title = page?.title || hit.title;
    const passages = page ? splitPassages(page.content, index) : [];
    const fallback = hit.snippet ? [{ source: index, position: 0, heading: "", text: hit.snippet }] : [];
    return {
      title,
      url: page?.url ?? hit.url,
      snippet: hit.snippet,
      page,
      passages: passages.length ? passages : fallback,
    };
  });
  const ranked = rankPassages(
    question,
    sources.flatMap((s) => s.passages),
    sources.map((s) => s.title),
  );
  const tally = scrapeTally(scraped);
  deps.onProgress?.({
    action: "analyzing",
    summary: `${scraped.filter((s) => s.page).length} of ${hits.length} pages fetched; ${ranked.length} passages match`,
  });
  return { sources, ranked, provider: found.provider, ...tally };
}

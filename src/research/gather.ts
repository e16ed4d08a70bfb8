import { type Source, searchQueryOf } from "../answer/sources.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import { type RankedPassage, rankPassages, splitPassages } from "../passages/index.ts";
import type { FetchDeps } from "../pipeline/fetch-page.ts";
import type { SearchProviderName } from "../schemas/search.ts";
import { search } from "../search/index.ts";
import { scrapeHits, scrapeTally } from "../search/scrape.ts";
import type { WebHit } from "../search/types.ts";

/**
 * The parts of deep research that need no model: searching several queries, choosing which
 * results to read within the page budget (never a URL twice), reading them, and ranking and
 * scoring what was read. All of it is plain computation over the pipeline's answers.
 */

/** Results asked of the engine per query (its maximum), so that repeats leave others to read. */
const RESULTS_PER_QUERY = 10;

/** What deep research has read so far, over all rounds. */
export interface Library {
  /** Pages fetched, in the order they were read; a failed fetch is not a source. */
  sources: Source[];
  /** Every URL tried or read (also after redirects), so no page is fetched twice. */
  seen: Set<string>;
  /** Pages tried: what maxSources caps. */
  tried: number;
  /** Pages fetched from their sites (cache hits and failures are free): the credits. */
  pagesFetched: number;
  degraded: Set<string>;
  /** Every query searched, in order. */
  asked: string[];
  provider?: SearchProviderName;
}

export function emptyLibrary(): Library {
  return { sources: [], seen: new Set(), tried: 0, pagesFetched: 0, degraded: new Set(), asked: [] };
}

/** A URL as the same-page check compares it: without its fragment. */
export function pageKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return url;
  }
}

/** The results of each query of a round; a query whose search failed has its error instead. */
export interface RoundSearch {
  results: WebHit[][];
  failures: SiphonError[];
  provider?: SearchProviderName;
}

/** Searches every query at once; one failing search does not stop the others. */
export async function searchAll(
  queries: string[],
  options: { provider?: SearchProviderName; searchApiKey?: string },
  deps: FetchDeps,
): Promise<RoundSearch> {
  const settled = await Promise.allSettled(
    queries.map((query) =>
      search(
        {
          q: searchQueryOf(query),
          provider: options.provider,
          searchApiKey: options.searchApiKey,
          count: RESULTS_PER_QUERY,
          scrapeResults: false,
          sources: ["web"],
        },
        deps,
      ),
    ),
  );
  const out: RoundSearch = { results: [], failures: [] };
  for (const outcome of settled) {
    if (outcome.status === "fulfilled") {
      out.results.push(outcome.value.response.data.web);
      out.provider ??= outcome.value.provider;
    } else {
      out.results.push([]);
      out.failures.push(toSiphonError(outcome.reason));
    }
  }
  return out;
}

/**
 * Chooses up to `budget` results not read before, taking each query's best unread result in
 * turn (query 1's first, query 2's first, …, then the seconds), so every sub-question gets
 * pages even when the engines answer them with the same top results.
 */
export function pickUnread(results: WebHit[][], seen: Set<string>, budget: number): WebHit[] {
  const picked: WebHit[] = [];
  const taken = new Set<string>();
  const longest = Math.max(0, ...results.map((list) => list.length));
  for (let rank = 0; rank < longest && picked.length < budget; rank++) {
    for (const list of results) {
      const hit = list[rank];
      if (!hit) continue;
      const key = pageKey(hit.url);
      if (seen.has(key) || taken.has(key)) continue;
      taken.add(key);
      picked.push(hit);
      if (picked.length >= budget) break;
    }
  }
  return picked;
}

/**
 * Fetches the hits in parallel through the pipeline and adds the pages that came back to the
 * library, cut into passages. Returns how many of them were read.
 */
export async function readPages(hits: WebHit[], library: Library, deps: FetchDeps): Promise<number> {
  for (const hit of hits) library.seen.add(pageKey(hit.url));
  library.tried += hits.length;
  const scraped = await scrapeHits(hits, deps);
  if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
  const tally = scrapeTally(scraped);
  library.pagesFetched += tally.pagesFetched;
  for (const note of tally.degraded?.split("; ") ?? []) library.degraded.add(note);
  let read = 0;
  for (const { hit, page } of scraped) {
    if (!page) continue;
    const url = page.url || hit.url;
    // A redirect may land on a page read already (two URLs, one article).
    const key = pageKey(url);
    if (key !== pageKey(hit.url) && library.seen.has(key)) continue;
    library.seen.add(key);
    const index = library.sources.length;
    const passages = splitPassages(page.content, index);
    library.sources.push({ title: page.title || hit.title, url, snippet: hit.snippet, page, passages });
    read++;
  }
  return read;
}

/** Each query's passages of `sources`, ranked by BM25, best first. */
export function rankFor(queries: string[], sources: Source[]): RankedPassage[][] {
  const passages = sources.flatMap((source) => source.passages);
  const titles = sources.map((source) => source.title);
  return queries.map((query) => rankPassages(query, passages, titles));
}

/**
 * One ranking from several: the first of each, then the seconds, and so on, each passage once.
 * The question's ranking goes first, so its best passages lead.
 */
export function mergeRankings(rankings: RankedPassage[][]): RankedPassage[] {
  const out: RankedPassage[] = [];
  const taken = new Set<object>();
  const longest = Math.max(0, ...rankings.map((list) => list.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of rankings) {
      const entry = list[rank];
      if (!entry || taken.has(entry.passage)) continue;
      taken.add(entry.passage);
      out.push(entry);
    }
  }
  return out;
}

/**
 * How useful each source is: for every query, its best passage's score over the best score any
 * source reached for that query, summed over the queries. Every query weighs the same, however
 * many words it has; a source that matches no query scores 0.
 */
export function scoreSources(rankings: RankedPassage[][], sourceCount: number): number[] {
  const scores = new Array<number>(sourceCount).fill(0);
  for (const ranking of rankings) {
    const top = ranking[0]?.score ?? 0;
    if (top <= 0) continue;
    const best = new Map<number, number>();
    for (const { passage, score } of ranking) {
      if (!best.has(passage.source)) best.set(passage.source, score);
    }
    for (const [source, score] of best) scores[source] = (scores[source] ?? 0) + score / top;
  }
  return scores;
}

/**
 * The sources ordered best first, without those that match no query (unless none matches, when
 * all are kept for the model to judge), re-numbered so their passages point at their new place.
 */
export function bySource(sources: Source[], scores: number[]): Source[] {
  const order = sources.map((_, index) => index).filter((index) => (scores[index] ?? 0) > 0);
  const kept = order.length ? order : sources.map((_, index) => index);
  kept.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  return kept.map((from, to) => {
    const source = sources[from]!;
    return { ...source, passages: source.passages.map((passage) => ({ ...passage, source: to })) };
  });
}

import { cleanMarkers } from "../answer/citations.ts";
import { type Gathered, gatherSources, type ProgressEvent } from "../answer/sources.ts";
import { SiphonError } from "../errors.ts";
import { rankPassages } from "../passages/index.ts";
import { MAX_QUICK_SOURCES, type ResearchInput, type ResearchResponse } from "../schemas/research.ts";
import { chooseLlm, ResearchModel } from "./llm.ts";
import { citedSources, QUICK_SOURCE_TOKEN_BUDGET, reportPrompt } from "./report.ts";
import type { ResearchDeps } from "./types.ts";

/** A finished research and what the transport meters. */
export interface ResearchOutcome {
  response: ResearchResponse;
  /** Pages fetched from their sites: 1 credit each. */
  pagesFetched: number;
  degraded?: string;
}

/** Answer's progress (searching, fetching, analyzing) in research's terms (all of round 1). */
function asResearchProgress(event: ProgressEvent) {
  if (event.action === "searching")
    return { type: "searching" as const, message: `Searching "${event.query}"`, round: 1 };
  if (event.action === "fetching")
    return { type: "fetching" as const, message: `Reading ${event.url}`, round: 1 };
  return { type: "scoring" as const, message: event.summary, round: 1 };
}

/**
 * The pages that were fetched, numbered again (a result whose fetch failed keeps only its
 * search snippet in answer; a report cites pages it read), with their passages ranked again.
 */
function fetchedOnly(question: string, gathered: Gathered) {
  const sources = gathered.sources
    .filter((source) => source.page !== null)
    .map((source, index) => ({
      ...source,
      passages: source.passages.map((passage) => ({ ...passage, source: index })),
    }));
  const ranked = rankPassages(
    question,
    sources.flatMap((source) => source.passages),
    sources.map((source) => source.title),
  );
  return { sources, ranked };
}

/**
 * Quick research: answer's path with a report for an answer. Search -> fetch the top
 * maxSources results in parallel through the pipeline -> passages ranked by BM25 -> a report
 * prompt of the fetched pages, numbered, within the answer's token budget -> the model ->
 * markers out of range removed; citations are the pages the report cites.
 *
 * @throws SiphonError invalid_request (no LLM, maxSources over 10, a refused key or model),
 *   search_failed, answer_failed (nothing found or fetched, the model failed), rate_limited, timeout
 */
export async function quickResearch(input: ResearchInput, deps: ResearchDeps): Promise<ResearchOutcome> {
  const started = performance.now();
  const query = input.query.trim();
  if (!query) throw new SiphonError("invalid_request", "query must not be empty");
  if (input.maxSources > MAX_QUICK_SOURCES) {
    throw new SiphonError(
      "invalid_request",
      `maxSources must be at most ${MAX_QUICK_SOURCES} with depth quick (one search gives at most ${MAX_QUICK_SOURCES} results)`,
      { hint: 'Use depth "deep" to read more pages over several searches.' },
    );
  }
  // Before the search: a request without an LLM costs nothing.
  const model = new ResearchModel(chooseLlm(input.llm, deps.config), deps);
  const { onProgress } = deps;
  const gathered = await gatherSources(
    query,
    { count: input.maxSources, provider: input.searchProvider, searchApiKey: input.searchApiKey },
    { ...deps, onProgress: onProgress && ((event) => onProgress(asResearchProgress(event))) },
  );
  const { sources, ranked } = fetchedOnly(query, gathered);
  const prompt = reportPrompt(query, sources, ranked, { budget: QUICK_SOURCE_TOKEN_BUDGET });
  if (prompt.sources.length === 0) {
    throw new SiphonError("answer_failed", "None of the pages found for this question could be fetched", {
      hint: "Try again, or rephrase the question.",
    });
  }
  onProgress?.({
    type: "synthesizing",
    message: `Writing the report from ${prompt.sources.length} sources`,
    round: 1,
  });
  const result = await model.complete(prompt.messages);
  const report = cleanMarkers(result.text, prompt.sources.length).trim();
  if (!report) {
    throw new SiphonError("answer_failed", `${result.provider} (${result.model}) wrote an empty report`, {
      hint: "Try again, or another model.",
    });
  }
  return {
    response: {
      success: true,
      query,
      report,
      citations: citedSources(report, prompt.sources),
      sourcesUsed: prompt.sources.length,
      tokensUsed: model.tokensUsed,
      elapsed: Math.round(performance.now() - started),
    },
    pagesFetched: gathered.pagesFetched,
    degraded: gathered.degraded,
  };
}

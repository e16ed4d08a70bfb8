import { type GatherDeps, gatherSources } from "../answer/sources.ts";
import { SiphonError } from "../errors.ts";
import type { AskInput, AskResponse } from "../schemas/ask.ts";
import type { SearchProviderName } from "../schemas/search.ts";
import { judge } from "./score.ts";

export { AUTHORITY_SITES, authorityOf } from "./authority.ts";
export { FRESHNESS_DAYS, freshnessOf } from "./freshness.ts";
export { matchPassage, questionTerms, termSequence } from "./relevance.ts";
export {
  AUTHORITY_WEIGHT,
  FRESHNESS_WEIGHT,
  judge,
  PROXIMITY_WEIGHT,
  SNIPPET_CHARS,
  trimText,
  type Verdict,
} from "./score.ts";

/** An answer and what the transport meters: the search, and pages fetched from their sites. */
export interface AskOutcome {
  response: AskResponse;
  provider: SearchProviderName;
  /** Pages fetched from their sites (cache hits and failures are not). */
  pagesFetched: number;
  degraded?: string;
}

/**
 * Answers a question from the web without a language model: search -> fetch the top `sources`
 * results in parallel through the pipeline (cache, escalation, SSRF) -> passages ranked by
 * BM25 -> the best passage after authority and freshness (see judge) is the answer. A search
 * that finds nothing, or pages that never mention the question's terms, give answer null with
 * confidence 0: not an error. Throws invalid_request for an empty question, search_failed when
 * the search fails, timeout when the caller aborts.
 */
export async function ask(input: AskInput, deps: GatherDeps): Promise<AskOutcome> {
  const started = performance.now();
  const question = input.question.trim();
  if (!question) throw new SiphonError("invalid_request", "question must not be empty");
  const gathered = await gatherSources(
    question,
    { count: input.sources, provider: input.provider, searchApiKey: input.searchApiKey },
    deps,
  );
  const verdict = judge(question, gathered.sources, gathered.ranked, (deps.now ?? Date.now)());
  return {
    response: {
      success: true,
      question,
      ...verdict,
      method: "bm25",
      elapsed: Math.round(performance.now() - started),
    },
    provider: gathered.provider,
    pagesFetched: gathered.pagesFetched,
    degraded: gathered.degraded,
  };
}

import { DEFAULT_ROUNDS, type ResearchInput } from "../schemas/research.ts";
import { deepResearch } from "./deep.ts";
import { quickResearch, type ResearchOutcome } from "./quick.ts";
import type { ResearchDeps } from "./types.ts";

/**
 * Research from the web into a cited report, on the caller's LLM or the service's:
 * `research` (POST /v1/research, quick or deep) and `deepResearch` / `deepResearchStream`
 * (POST /v1/deep-research, JSON or server-sent events).
 */
export { type DeepOutcome, type DeepStreamOutcome, deepResearch, deepResearchStream } from "./deep.ts";
export { chooseLlm, NO_LLM_HINT } from "./llm.ts";
export { GAP_SCHEMA_NAME, PLAN_SCHEMA_NAME } from "./plan.ts";
export type { ResearchOutcome } from "./quick.ts";
export type { ResearchDeps } from "./types.ts";

/**
 * POST /v1/research: depth quick is one search and one report (quickResearch); depth deep runs
 * the deep-research loop with its default rounds and answers in research's shape.
 *
 * @throws SiphonError as quickResearch and deepResearch
 */
export async function research(input: ResearchInput, deps: ResearchDeps): Promise<ResearchOutcome> {
  if (input.depth === "quick") return quickResearch(input, deps);
  const started = performance.now();
  const outcome = await deepResearch(
    {
      question: input.query,
      llm: input.llm,
      maxRounds: DEFAULT_ROUNDS,
      maxSources: input.maxSources,
      searchProvider: input.searchProvider,
      searchApiKey: input.searchApiKey,
    },
    deps,
  );
  const { report, citations, sourcesUsed, tokensUsed } = outcome.response;
  return {
    response: {
      success: true,
      query: input.query.trim(),
      report,
      citations,
      sourcesUsed,
      tokensUsed,
      elapsed: Math.round(performance.now() - started),
    },
    pagesFetched: outcome.pagesFetched,
    degraded: outcome.degraded,
  };
}

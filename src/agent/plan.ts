import type { AgentInput } from "../schemas/agent.ts";
import type { Limits, SearchOptions } from "./notebook.ts";

/** What each depth may do. */
export const DEPTHS = {
  basic: { sources: 3, queries: 1, turns: 4, gapRound: false },
  thorough: { sources: 10, queries: 4, turns: 10, gapRound: true },
} as const;

/** Searches the gap-analysis round may add (thorough only). */
export const GAP_QUERIES = 2;

const TOPIC_GUIDANCE: Record<AgentInput["topic"], string> = {
  general: "Prefer authoritative, primary sources.",
  news: "This is about current events: prefer recent reporting from established news outlets, and say when things happened.",
  technical:
    "This is technical: prefer official documentation, specifications, source repositories and maintainers' own writing over blog summaries.",
  academic:
    "This is academic: prefer peer-reviewed papers, preprints (arXiv), university and research-institute pages, and cite findings precisely.",
};

/** The limits of a run: the request's maxSources and maxCredits over the depth's own. */
export function limitsOf(input: AgentInput): Limits {
  const depth = DEPTHS[input.depth];
  return {
    sources: input.maxSources ?? depth.sources,
    // The gap round's searches come on top of the loop's.
    queries: depth.queries + (depth.gapRound ? GAP_QUERIES : 0),
    credits: input.maxCredits,
  };
}

/** How the topic steers searches: news asks the engine for the past month. */
export function searchOptionsOf(input: AgentInput): SearchOptions {
  return {
    provider: input.searchProvider,
    searchApiKey: input.searchApiKey,
    tbs: input.topic === "news" ? "qdr:m" : undefined,
  };
}

/** The research instructions the model gets with its tools. */
export function researchPrompt(input: AgentInput, limits: Limits): string {
  const depth = DEPTHS[input.depth];
  const start = input.urls?.length
    ? "Start from the pages given; read the pages they link to when needed. You cannot search the web."
    : `Search the web (at most ${depth.queries} ${depth.queries === 1 ? "search" : "searches"}), then read the most promising results.`;
  return [
    "You are a research agent. Gather the web pages needed to complete the user's task; another step writes the answer from the pages you read.",
    start,
    `Read at most ${limits.sources} pages; read several at once when you can.`,
    TOPIC_GUIDANCE[input.topic],
    "Call finish as soon as the pages read cover the task.",
  ].join(" ");
}

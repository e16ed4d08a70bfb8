import { cleanMarkers, MarkerFilter } from "../answer/citations.ts";
import { SiphonError, toSiphonError } from "../errors.ts";
import type {
  DeepResearchEvent,
  DeepResearchInput,
  DeepResearchResponse,
  ResearchProgress,
  ResearchStage,
} from "../schemas/research.ts";
import {
  bySource,
  emptyLibrary,
  type Library,
  mergeRankings,
  pickUnread,
  rankFor,
  readPages,
  scoreSources,
  searchAll,
} from "./gather.ts";
import { chooseLlm, ResearchModel } from "./llm.ts";
import { decompose, findGaps, gapNotes } from "./plan.ts";
import { citedSources, DEEP_SOURCE_TOKEN_BUDGET, type ReportPrompt, reportPrompt } from "./report.ts";
import type { ResearchDeps } from "./types.ts";

/** A deep research's budget and search settings (the deep-research body's fields). */
export type DeepPlanInput = Pick<
  DeepResearchInput,
  "question" | "llm" | "maxRounds" | "maxSources" | "searchProvider" | "searchApiKey"
>;

/** A finished deep research and what the transport meters. */
export interface DeepOutcome {
  response: DeepResearchResponse;
  /** Pages fetched from their sites: 1 credit each. */
  pagesFetched: number;
  degraded?: string;
}

/** A streamed deep research, planned: its events, and the metering known once they end. */
export interface DeepStreamOutcome {
  events: AsyncIterable<DeepResearchEvent>;
  /** Pages fetched from their sites so far (final once the events have ended). */
  pagesFetched(): number;
  /** LLM tokens (input and output) used so far (final once the events have ended). */
  tokensUsed(): number;
  degraded(): string | undefined;
}

/** Everything a deep research carries from its plan to its report. */
interface Run {
  question: string;
  input: DeepPlanInput;
  model: ResearchModel;
  subQuestions: string[];
  library: Library;
  rounds: number;
  deps: ResearchDeps;
}

const say = (type: ResearchStage, message: string, round: number): ResearchProgress => ({
  type,
  message,
  round,
});

const list = (queries: string[]) => queries.map((q) => `"${q}"`).join(", ");

function cancelled(deps: ResearchDeps): void {
  if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
}

/** Checks the question, picks the LLM and asks for the plan: everything that can fail before a stream starts. */
async function plan(input: DeepPlanInput, deps: ResearchDeps): Promise<Run> {
  const question = input.question.trim();
  if (!question) throw new SiphonError("invalid_request", "question must not be empty");
  const model = new ResearchModel(chooseLlm(input.llm, deps.config), deps);
  const subQuestions = await decompose(question, model);
  return { question, input, model, subQuestions, library: emptyLibrary(), rounds: 0, deps };
}

/**
 * The rounds: search every open query at once, read the unread results within the round's
 * share of the page budget, rank and score, then ask what is missing; again with the missing
 * queries until maxRounds, maxSources, a round that finds nothing new, or no gap is left.
 * Yields progress as it goes.
 */
async function* investigate(run: Run): AsyncGenerator<ResearchProgress, void> {
  const { input, library, model, deps } = run;
  let queries = run.subQuestions;
  for (let round = 1; ; round++) {
    const remaining = input.maxSources - library.tried;
    const roundsLeft = input.maxRounds - round + 1;
    // An even share of what is left per round, but at least a page per query.
    const budget = Math.min(remaining, Math.max(queries.length, Math.ceil(remaining / roundsLeft)));

    yield say(
      "searching",
      `Searching ${queries.length} ${queries.length === 1 ? "query" : "queries"}: ${list(queries)}`,
      round,
    );
    const found = await searchAll(
      queries,
      { provider: input.searchProvider, searchApiKey: input.searchApiKey },
      deps,
    );
    cancelled(deps);
    library.asked.push(...queries);
    library.provider ??= found.provider;
    if (round === 1 && found.failures.length === queries.length) throw found.failures[0]!;

    const picked = pickUnread(found.results, library.seen, budget);
    yield say(
      "fetching",
      picked.length
        ? `Reading ${picked.length} new ${picked.length === 1 ? "page" : "pages"}`
        : "No new pages found",
      round,
    );
    const read = picked.length ? await readPages(picked, library, deps) : 0;
    run.rounds = round;

    const rankings = rankFor([run.question, ...library.asked], library.sources);
    const scores = scoreSources(rankings, library.sources.length);
    const best = scores.indexOf(Math.max(...scores));
    const passages = rankings.reduce((sum, ranking) => sum + ranking.length, 0);
    yield say(
      "scoring",
      `${read} of ${picked.length} pages read (${library.sources.length} in all), ${passages} passage matches` +
        ((scores[best] ?? 0) > 0 ? `; best so far: ${library.sources[best]!.title}` : ""),
      round,
    );

    if (round >= input.maxRounds || library.tried >= input.maxSources || picked.length === 0) return;
    const notes = gapNotes(
      library.asked,
      rankings.slice(1),
      library.sources.map((source) => source.title),
    );
    const missing = await findGaps(run.question, library.asked, notes, model);
    cancelled(deps);
    yield say(
      "gap_check",
      missing.length ? `Still missing: ${list(missing)}` : "The sources cover the question",
      round,
    );
    if (missing.length === 0) return;
    queries = missing;
  }
}

/** The report's prompt over what was read, best sources first; throws when nothing was read. */
function synthesis(run: Run): ReportPrompt {
  const { library } = run;
  if (library.sources.length === 0) {
    throw new SiphonError(
      "answer_failed",
      library.tried === 0
        ? `The search (${library.provider ?? "web search"}) found no pages for this question`
        : "None of the pages found for this question could be fetched",
      { hint: "Rephrase the question with the words a page about it would use, or try again." },
    );
  }
  const queries = [run.question, ...library.asked];
  const ordered = bySource(
    library.sources,
    scoreSources(rankFor(queries, library.sources), library.sources.length),
  );
  return reportPrompt(run.question, ordered, mergeRankings(rankFor(queries, ordered)), {
    budget: DEEP_SOURCE_TOKEN_BUDGET,
    subQuestions: library.asked,
  });
}

function closing(run: Run, prompt: ReportPrompt, report: string) {
  return {
    citations: citedSources(report, prompt.sources),
    sourcesUsed: prompt.sources.length,
    roundsCompleted: run.rounds,
    tokensUsed: run.model.tokensUsed,
  };
}

function degradedOf(library: Library): string | undefined {
  return library.degraded.size ? [...library.degraded].join("; ") : undefined;
}

/**
 * Deep research (POST /v1/deep-research): the question split into 2-4 sub-questions, each
 * searched, the unread results fetched in parallel through the pipeline (cache, escalation,
 * SSRF; never the same URL twice, never more than maxSources pages in all), passages ranked by
 * BM25 per query and sources scored, then a gap check that may add queries for another round,
 * up to maxRounds; then one report over the numbered sources, markers out of range removed.
 * LLM calls: the plan, one gap check per round but the last, the report.
 *
 * @throws SiphonError invalid_request (no LLM, a refused key or model), search_failed (every
 *   first-round search failed), answer_failed (nothing found or readable, the model failed),
 *   rate_limited, timeout
 */
export async function deepResearch(input: DeepPlanInput, deps: ResearchDeps): Promise<DeepOutcome> {
  const run = await plan(input, deps);
  deps.onProgress?.(say("decomposing", `Sub-questions: ${list(run.subQuestions)}`, 1));
  for await (const event of investigate(run)) deps.onProgress?.(event);
  const prompt = synthesis(run);
  deps.onProgress?.(
    say("synthesizing", `Writing the report from ${prompt.sources.length} sources`, run.rounds),
  );
  const result = await run.model.complete(prompt.messages);
  const report = cleanMarkers(result.text, prompt.sources.length).trim();
  if (!report) {
    throw new SiphonError("answer_failed", `${result.provider} (${result.model}) wrote an empty report`, {
      hint: "Try again, or another model.",
    });
  }
  return {
    response: { success: true, report, ...closing(run, prompt, report) },
    pagesFetched: run.library.pagesFetched,
    degraded: degradedOf(run.library),
  };
}

/**
 * The same research streamed: returns once the plan is made, so every failure up to then (no
 * LLM, a refused key, an unknown model, a rate limit) is thrown and can still be an HTTP error.
 * The events are progress (decomposing, then per round searching, fetching, scoring and
 * gap_check, then synthesizing), `chunk` with the report as it is written (markers cleaned on
 * the fly), and `done`; a failure after that point ends the stream with an `error` event.
 * Leaving the iteration early aborts the model's stream.
 */
export async function deepResearchStream(
  input: DeepPlanInput,
  deps: ResearchDeps,
): Promise<DeepStreamOutcome> {
  const run = await plan(input, deps);

  async function* events(): AsyncGenerator<DeepResearchEvent> {
    try {
      yield say("decomposing", `Sub-questions: ${list(run.subQuestions)}`, 1);
      yield* investigate(run);
      const prompt = synthesis(run);
      yield say("synthesizing", `Writing the report from ${prompt.sources.length} sources`, run.rounds);
      const stream = await run.model.stream(prompt.messages);
      const filter = new MarkerFilter(prompt.sources.length);
      let report = "";
      try {
        for await (const piece of stream) {
          const text = filter.push(piece);
          report += text;
          if (text) yield { type: "chunk", text };
        }
        const rest = filter.end();
        report += rest;
        if (rest) yield { type: "chunk", text: rest };
        run.model.count((await stream.done).usage);
      } catch (error) {
        // Failures before the stream began are translated already; these happened during it.
        throw run.model.translate(error);
      } finally {
        stream.abort();
      }
      yield { type: "done", ...closing(run, prompt, report) };
    } catch (raw) {
      if (deps.signal?.aborted) return;
      const known = toSiphonError(raw);
      const error =
        known.type === "internal_error"
          ? new SiphonError("answer_failed", "The deep research failed")
          : known;
      yield { type: "error", error: { type: error.type, message: error.message } };
    }
  }

  return {
    events: events(),
    pagesFetched: () => run.library.pagesFetched,
    tokensUsed: () => run.model.tokensUsed.input + run.model.tokensUsed.output,
    degraded: () => degradedOf(run.library),
  };
}

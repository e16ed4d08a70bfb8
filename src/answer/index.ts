import { SiphonError, toSiphonError } from "../errors.ts";
import { type CompletionResult, complete, completeStream, type LlmDeps } from "../llm/index.ts";
import type { AnswerEvent, AnswerInput, AnswerResponse } from "../schemas/answer.ts";
import { llmTargetOf } from "../schemas/llm.ts";
import { cleanMarkers, MarkerFilter } from "./citations.ts";
import { buildPrompt, type NumberedPrompt } from "./prompt.ts";
import { type GatherDeps, type Gathered, gatherSources } from "./sources.ts";

export { cleanMarkers, MarkerFilter } from "./citations.ts";
export { buildPrompt, SOURCE_TOKEN_BUDGET } from "./prompt.ts";
export { type GatherDeps, gatherSources, type ProgressEvent, type Source } from "./sources.ts";

/** What answering needs: the fetch pipeline, how to treat llmApiBase, and an optional progress listener. */
export interface AnswerDeps extends GatherDeps {
  apiBasePolicy?: LlmDeps["apiBasePolicy"];
  llmLog?: LlmDeps["log"];
}

/** An answer and what the transport meters: pages fetched from their sites (1 credit each). */
export interface AnswerOutcome {
  response: AnswerResponse;
  pagesFetched: number;
  degraded?: string;
}

/** A streamed answer, started: its events, and the metering known before the first chunk. */
export interface AnswerStreamOutcome {
  events: AsyncIterable<AnswerEvent>;
  pagesFetched: number;
  degraded?: string;
  /** The LLM tokens the stream used (input + output): 0 until its last event. */
  tokens(): number;
  /** Stops the model's stream (a client that went away). */
  abort(): void;
}

interface Prepared {
  gathered: Gathered;
  prompt: NumberedPrompt;
}

/** Search, fetch, rank and number: everything before the model is asked. */
async function prepare(input: AnswerInput, deps: AnswerDeps): Promise<Prepared> {
  const question = input.question.trim();
  if (!question) throw new SiphonError("invalid_request", "question must not be empty");
  const gathered = await gatherSources(
    question,
    { count: input.maxSources, provider: input.searchProvider, searchApiKey: input.searchApiKey },
    deps,
  );
  if (gathered.sources.length === 0) {
    throw new SiphonError(
      "answer_failed",
      `The search (${gathered.provider}) found no pages for this question`,
      {
        hint: "Rephrase the question with the words a page about it would use.",
      },
    );
  }
  const prompt = buildPrompt(question, gathered.sources, gathered.ranked);
  if (prompt.citations.length === 0) {
    throw new SiphonError("answer_failed", "No page found for the question could be read", {
      hint: "The results' pages all failed to fetch and had no snippets; try again or rephrase the question.",
    });
  }
  return { gathered, prompt };
}

function llmDeps(deps: AnswerDeps): LlmDeps {
  return { config: deps.config, signal: deps.signal, apiBasePolicy: deps.apiBasePolicy, log: deps.llmLog };
}

function closing(prepared: Prepared, result: Pick<CompletionResult, "provider" | "model" | "usage">) {
  return {
    citations: prepared.prompt.citations,
    searchProvider: prepared.gathered.provider,
    llmProvider: result.provider,
    llmModel: result.model,
    tokensUsed: { input: result.usage.input, output: result.usage.output },
  };
}

/**
 * Answers a question from the web with citations (SPEC Answer response). Order: search ->
 * fetch the top maxSources pages in parallel (pipeline: cache, escalation, SSRF) -> passages
 * ranked by BM25 -> a prompt of numbered sources within SOURCE_TOKEN_BUDGET -> the model ->
 * markers out of range removed. Throws invalid_request for a bad key or model (the vendor's
 * message, scrubbed of the key), search_failed, answer_failed, rate_limited, timeout.
 */
export async function answer(input: AnswerInput, deps: AnswerDeps): Promise<AnswerOutcome> {
  const prepared = await prepare(input, deps);
  const result = await complete(
    { llm: llmTargetOf(input), messages: prepared.prompt.messages },
    llmDeps(deps),
  );
  const text = cleanMarkers(result.text, prepared.prompt.citations.length).trim();
  if (!text) {
    throw new SiphonError("answer_failed", `${result.provider} (${result.model}) answered with no text`, {
      hint: "Try again, or another model.",
    });
  }
  return {
    response: { success: true, answer: text, ...closing(prepared, result) },
    pagesFetched: prepared.gathered.pagesFetched,
    degraded: prepared.gathered.degraded,
  };
}

/**
 * The same answer streamed: returns once the model has accepted the request, so every failure
 * up to then (search, fetch, bad key) is thrown and can still be an HTTP error. The events are
 * `chunk` with text as it arrives (markers cleaned on the fly, an unfinished marker held back
 * until it is complete), then `done` with the citations and usage; a failure mid-stream ends it
 * with an `error` event. Leaving the iteration early aborts the model's request.
 */
export async function answerStream(input: AnswerInput, deps: AnswerDeps): Promise<AnswerStreamOutcome> {
  const prepared = await prepare(input, deps);
  const stream = await completeStream(
    { llm: llmTargetOf(input), messages: prepared.prompt.messages },
    llmDeps(deps),
  );
  const filter = new MarkerFilter(prepared.prompt.citations.length);
  let tokens = 0;

  async function* events(): AsyncGenerator<AnswerEvent> {
    try {
      for await (const piece of stream) {
        const text = filter.push(piece);
        if (text) yield { type: "chunk", text };
      }
      const rest = filter.end();
      if (rest) yield { type: "chunk", text: rest };
      const result = await stream.done;
      tokens = result.usage.input + result.usage.output;
      yield { type: "done", ...closing(prepared, result) };
    } catch (raw) {
      if (deps.signal?.aborted) return;
      const known = toSiphonError(raw);
      const error =
        known.type === "internal_error"
          ? new SiphonError("answer_failed", "The answer stream failed")
          : known;
      yield { type: "error", error: { type: error.type, message: error.message } };
    } finally {
      stream.abort();
    }
  }

  return {
    events: events(),
    pagesFetched: prepared.gathered.pagesFetched,
    degraded: prepared.gathered.degraded,
    tokens: () => tokens,
    abort: () => stream.abort(),
  };
}

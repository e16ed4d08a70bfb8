import { checkJsonSchema, type LlmDeps } from "../llm/index.ts";
import type { AgentEvent, AgentInput, AgentResponse } from "../schemas/agent.ts";
import { llmTargetOf } from "../schemas/llm.ts";
import { fixedPlan, gapRound, type LoopContext, requireSources, TokenMeter, toolLoop } from "./loop.ts";
import { Notebook } from "./notebook.ts";
import { DEPTHS, limitsOf, searchOptionsOf } from "./plan.ts";
import type { AgentDeps, AgentOutcome } from "./types.ts";
import { type Written, writeStructured, writeText } from "./write.ts";

export type { AgentDeps, AgentOutcome } from "./types.ts";

/** The note an answer cut short by maxCredits carries, in `warning` and at the end of `answer`. */
function cutShortNote(credits: number): string {
  return `Research stopped early: the credit cap (maxCredits ${credits}) was reached, so the answer may be incomplete.`;
}

/**
 * Runs the research agent (SPEC Agent response). Order: check the output schema (a bad one is a
 * 400 before any work) -> research: the model chooses searches and pages with tool calls
 * (search_web, fetch_page, finish) within the depth's limits, or, when the model or server
 * cannot call tools, a fixed plan (search the task, read the top results) -> thorough depth:
 * a gap-analysis round -> the answer from the numbered pages read: text with [n] markers and
 * key findings (streamed as chunk events), or JSON validated against outputSchema and repaired
 * up to twice. maxCredits caps pages fetched from their sites; a run it cut short says so.
 * Events (step, chunk, done) go to deps.onEvent as they happen.
 */
export async function runAgent(input: AgentInput, deps: AgentDeps): Promise<AgentOutcome> {
  const schema = input.outputSchema ?? input.schema;
  if (schema) await checkJsonSchema(schema);
  const emit = (event: AgentEvent) => deps.onEvent?.(event);
  const notebook = new Notebook(
    limitsOf(input),
    {
      ...deps,
      onProgress: (event) => {
        deps.onProgress?.(event);
        emit({ type: "step", ...event });
      },
    },
    searchOptionsOf(input),
  );
  const llmDeps: LlmDeps = {
    config: deps.config,
    signal: deps.signal,
    apiBasePolicy: deps.apiBasePolicy,
    log: deps.llmLog,
  };
  const context: LoopContext = {
    input,
    llm: llmTargetOf(input),
    llmDeps,
    notebook,
    tokens: new TokenMeter(),
    summary: (summary) => emit({ type: "step", action: "analyzing", summary }),
  };

  const usedTools = await toolLoop(context);
  if (!usedTools) {
    context.summary("The model cannot call tools here; following the fixed plan (search, read, answer)");
    await fixedPlan(context);
  }
  if (DEPTHS[input.depth].gapRound) await gapRound(context);
  requireSources(notebook);
  context.summary(`Writing the answer from ${notebook.sources.length} page(s)`);

  const written: Written = schema
    ? await writeStructured(context, schema)
    : await writeText(context, (text) => emit({ type: "chunk", text }));
  const cutShort = notebook.stoppedBy === "credits" && input.maxCredits !== undefined;
  const warning = cutShort ? cutShortNote(input.maxCredits as number) : undefined;
  const answer = warning && !schema ? `${written.answer}\n\n${warning}` : written.answer;
  if (warning && !schema) emit({ type: "chunk", text: `\n\n${warning}` });
  const data = !schema && warning ? { ...written.data, answer } : written.data;

  const response: AgentResponse = {
    success: true,
    data,
    answer,
    sources: written.citations.map((c) => c.url),
    sourcesDetailed: written.citations.map((c) => ({ url: c.url, title: c.title })),
    pagesVisited: notebook.pagesVisited,
    creditsUsed: notebook.credits,
    tokensUsed: { input: context.tokens.input, output: context.tokens.output },
  };
  if (warning) response.warning = warning;
  emit({
    type: "done",
    answer: response.answer,
    sources: response.sources,
    tokensUsed: response.tokensUsed,
    data: response.data,
    sourcesDetailed: response.sourcesDetailed,
    pagesVisited: response.pagesVisited,
    creditsUsed: response.creditsUsed,
  });
  return {
    response,
    pagesFetched: notebook.credits,
    degraded: notebook.degraded.size ? [...notebook.degraded].join("; ") : undefined,
  };
}

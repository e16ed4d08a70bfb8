import { SiphonError } from "../errors.ts";
import {
  completeStructured,
  completeWithTools,
  isNoToolSupport,
  type LlmDeps,
  type ToolMessage,
  type Usage,
} from "../llm/index.ts";
import type { LlmTarget } from "../llm/providers.ts";
import type { AgentInput } from "../schemas/agent.ts";
import type { Notebook } from "./notebook.ts";
import { DEPTHS, GAP_QUERIES, researchPrompt } from "./plan.ts";
import { FETCH_TOOL, FINISH_TOOL, runTool, SEARCH_TOOL } from "./tools.ts";

/** Tokens spent, added up over every call of a run. */
export class TokenMeter {
  input = 0;
  output = 0;
  add(usage: Pick<Usage, "input" | "output">): void {
    this.input += usage.input;
    this.output += usage.output;
  }
}

export interface LoopContext {
  input: AgentInput;
  llm: LlmTarget;
  llmDeps: LlmDeps;
  notebook: Notebook;
  tokens: TokenMeter;
  summary: (text: string) => void;
}

/** Reads what `hits` point at, best first, as far as the limits go. */
async function readResults(context: LoopContext, query: string, count: number): Promise<void> {
  const hits = await context.notebook.search(query);
  if (!hits) return;
  const fresh = hits.filter((hit) => !context.notebook.has(hit.url)).slice(0, count);
  await context.notebook.read(fresh);
}

/**
 * The plan of a model that cannot call tools: read the given pages, or search the task and read
 * the top results (thorough: also the task worded as a topic question).
 */
export async function fixedPlan(context: LoopContext): Promise<void> {
  const { input, notebook } = context;
  if (input.urls?.length) {
    await notebook.read(input.urls.map((url) => ({ url, title: "", snippet: "" })));
    return;
  }
  await readResults(context, input.prompt, notebook.sourcesLeft);
}

/**
 * The model researches with tools: search_web (not with urls), fetch_page and finish, one turn
 * at a time, until it finishes, answers in text, or the depth's turns run out. Returns false
 * when the model cannot use tools (the server refuses them, or it answers without ever
 * calling one), so the caller falls back to the fixed plan.
 */
export async function toolLoop(context: LoopContext): Promise<boolean> {
  const { input, notebook } = context;
  const depth = DEPTHS[input.depth];
  const tools = input.urls?.length ? [FETCH_TOOL, FINISH_TOOL] : [SEARCH_TOOL, FETCH_TOOL, FINISH_TOOL];
  if (input.urls?.length) await notebook.read(input.urls.map((url) => ({ url, title: "", snippet: "" })));
  const opening = input.urls?.length
    ? `Task: ${input.prompt}\n\nPages read so far: ${notebook.sources.map((s) => s.url).join(", ") || "none"}`
    : `Task: ${input.prompt}`;
  const messages: ToolMessage[] = [
    { role: "system", content: researchPrompt(input, notebook.limits) },
    { role: "user", content: opening },
  ];
  for (let turn = 0; turn < depth.turns; turn++) {
    let reply: Awaited<ReturnType<typeof completeWithTools>>;
    try {
      reply = await completeWithTools({ llm: context.llm, messages, tools }, context.llmDeps);
    } catch (error) {
      if (turn === 0 && isNoToolSupport(error)) return false;
      throw error;
    }
    context.tokens.add(reply.usage);
    if (reply.toolCalls.length === 0) return turn > 0 || notebook.sources.length > 0;
    messages.push({ role: "assistant", content: reply.text, toolCalls: reply.toolCalls });
    let finished = false;
    // The calls of one turn run together: several pages of one fetch_page, or a search and a fetch.
    const results = await Promise.all(reply.toolCalls.map((call) => runTool(call, notebook, input.prompt)));
    reply.toolCalls.forEach((call, i) => {
      const result = results[i] as { content: string; finished?: boolean };
      finished ||= result.finished === true;
      messages.push({ role: "tool", toolCallId: call.id, content: result.content });
    });
    if (finished) return true;
    if (notebook.sourcesLeft <= 0 || notebook.creditsLeft <= 0) return true;
  }
  return true;
}

const GAP_SCHEMA = {
  type: "object",
  properties: {
    missing: {
      type: "array",
      items: { type: "string" },
      maxItems: GAP_QUERIES,
      description: "Search queries for what the pages read do not answer yet; empty when nothing is missing",
    },
  },
  required: ["missing"],
  additionalProperties: false,
};

/**
 * Thorough depth's gap analysis: the model sees the task and what was read, names what is still
 * unanswered as up to two searches, and their top results are read.
 */
export async function gapRound(context: LoopContext): Promise<void> {
  const { input, notebook } = context;
  if (input.urls?.length || notebook.sourcesLeft <= 0 || notebook.creditsLeft <= 0) return;
  const read = notebook.sources
    .map(
      (s, i) =>
        `${i + 1}. ${s.title}: ${s.passages
          .slice(0, 2)
          .map((p) => p.text)
          .join(" ")
          .slice(0, 400)}`,
    )
    .join("\n");
  const result = await completeStructured<{ missing: string[] }>(
    {
      llm: context.llm,
      schema: GAP_SCHEMA,
      schemaName: "gaps",
      messages: [
        {
          role: "system",
          content:
            "You check research for gaps. Given a task and the pages read so far, list what is still unanswered as web search queries (at most two). Return an empty list when the pages cover the task.",
        },
        { role: "user", content: `Task: ${input.prompt}\n\nPages read:\n${read || "none"}` },
      ],
    },
    context.llmDeps,
  );
  context.tokens.add(result.usage);
  const queries = result.data.missing
    .map((q) => q.trim())
    .filter(Boolean)
    .slice(0, GAP_QUERIES);
  context.summary(
    queries.length ? `Gap analysis: still open: ${queries.join("; ")}` : "Gap analysis: nothing missing",
  );
  const perQuery = Math.max(1, Math.ceil(notebook.sourcesLeft / Math.max(queries.length, 1)));
  for (const query of queries) await readResults(context, query, perQuery);
}

/** Refuses a run that found nothing to answer from. */
export function requireSources(notebook: Notebook): void {
  if (notebook.sources.length > 0) return;
  throw new SiphonError("answer_failed", "The agent found no page it could read for this task", {
    hint: "Rephrase the task, give starting pages in urls, or check that the search provider works.",
  });
}

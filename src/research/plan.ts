import { searchQueryOf } from "../answer/sources.ts";
import { estimateTokens } from "../llm/complete.ts";
import { type ChatMessage, type JsonSchema, LlmOutputError } from "../llm/index.ts";
import type { RankedPassage } from "../passages/index.ts";
import type { ResearchModel } from "./llm.ts";

/**
 * The two questions deep research asks its model besides the report: how to split the
 * question into searches (the plan), and after each round what is still missing (the gap
 * check). Both answer JSON checked against a schema; an answer that is not such JSON never
 * sinks the research: the plan falls back to the question itself, the gap check to "done".
 */

/** Sub-questions a plan keeps at most. */
export const MAX_SUB_QUESTIONS = 4;
/** New queries one gap check may add at most. */
export const MAX_GAP_QUERIES = 3;
/** Tokens of notes the gap check reads at most. */
const GAP_NOTES_BUDGET = 2500;
/** Passages quoted per query in the gap check's notes, and characters per passage. */
const NOTES_PER_QUERY = 2;
const NOTE_CHARS = 500;

// Closed objects with every property required: OpenAI's strict mode accepts them as they are.
const PLAN_SCHEMA: JsonSchema = {
  type: "object",
  properties: { subQuestions: { type: "array", items: { type: "string" } } },
  required: ["subQuestions"],
  additionalProperties: false,
};

const GAP_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    answered: { type: "boolean" },
    missing: { type: "array", items: { type: "string" } },
  },
  required: ["answered", "missing"],
  additionalProperties: false,
};

/** The schema names the model sees (and tests tell the calls apart by). */
export const PLAN_SCHEMA_NAME = "research_plan";
export const GAP_SCHEMA_NAME = "gap_check";

const PLAN_SYSTEM = [
  "You plan web research.",
  `Split the research question into 2 to ${MAX_SUB_QUESTIONS} sub-questions that together cover it.`,
  "Write each as a short, self-contained web search query (no pronouns that point at the question).",
  'Answer with JSON: {"subQuestions": ["…", "…"]}.',
].join(" ");

const GAP_SYSTEM = [
  "You check web research for gaps.",
  "Given the research question, the queries already searched and notes from the pages found, decide whether the notes answer the question fully.",
  `If not, list up to ${MAX_GAP_QUERIES} new web search queries for what is missing; never repeat a query already searched.`,
  'Answer with JSON: {"answered": true|false, "missing": ["…"]}.',
].join(" ");

/** Trims, drops empties, repeats and queries asked before (case aside), and keeps at most `max`. */
export function cleanQueries(raw: readonly unknown[], asked: readonly string[], max: number): string[] {
  const known = new Set(asked.map((q) => q.trim().toLowerCase()));
  const out: string[] = [];
  for (const item of raw) {
    if (typeof item !== "string") continue;
    const query = searchQueryOf(item);
    const key = query.toLowerCase();
    if (!query || known.has(key)) continue;
    known.add(key);
    out.push(query);
    if (out.length >= max) break;
  }
  return out;
}

export function planMessages(question: string): ChatMessage[] {
  return [
    { role: "system", content: PLAN_SYSTEM },
    { role: "user", content: `Research question: ${question}` },
  ];
}

/** The sub-questions to search first; the question itself when the model's plan is unusable. */
export async function decompose(question: string, model: ResearchModel): Promise<string[]> {
  try {
    const plan = await model.structured<{ subQuestions: unknown[] }>(
      planMessages(question),
      PLAN_SCHEMA,
      PLAN_SCHEMA_NAME,
    );
    const subs = cleanQueries(plan.subQuestions, [], MAX_SUB_QUESTIONS);
    return subs.length ? subs : [searchQueryOf(question)];
  } catch (error) {
    if (error instanceof LlmOutputError) return [searchQueryOf(question)];
    throw error;
  }
}

/**
 * What the gap check reads: for each query (newest last), its best passages, cut short, until
 * the notes budget is spent.
 */
export function gapNotes(queries: string[], rankings: RankedPassage[][], titles: string[]): string {
  const blocks: string[] = [];
  let used = 0;
  queries.forEach((query, i) => {
    const lines: string[] = [];
    for (const { passage } of (rankings[i] ?? []).slice(0, NOTES_PER_QUERY)) {
      const text = passage.text.length > NOTE_CHARS ? `${passage.text.slice(0, NOTE_CHARS)}…` : passage.text;
      const line = `- (${titles[passage.source] ?? "a page"}) ${text}`;
      const cost = estimateTokens(line);
      if (used + cost > GAP_NOTES_BUDGET) break;
      used += cost;
      lines.push(line);
    }
    blocks.push(`Query: ${query}\n${lines.length ? lines.join("\n") : "- nothing relevant found"}`);
  });
  return blocks.join("\n\n");
}

export function gapMessages(question: string, asked: string[], notes: string): ChatMessage[] {
  return [
    { role: "system", content: GAP_SYSTEM },
    {
      role: "user",
      content: `Research question: ${question}\n\nQueries searched:\n${asked.map((q) => `- ${q}`).join("\n")}\n\nNotes:\n\n${notes}`,
    },
  ];
}

/**
 * New queries for what the notes leave open; none when the model says the question is
 * answered, names nothing new, or answers something other than the JSON asked for.
 */
export async function findGaps(
  question: string,
  asked: string[],
  notes: string,
  model: ResearchModel,
): Promise<string[]> {
  try {
    const gap = await model.structured<{ answered: boolean; missing: unknown[] }>(
      gapMessages(question, asked, notes),
      GAP_SCHEMA,
      GAP_SCHEMA_NAME,
    );
    return gap.answered ? [] : cleanQueries(gap.missing, asked, MAX_GAP_QUERIES);
  } catch (error) {
    if (error instanceof LlmOutputError) return [];
    throw error;
  }
}

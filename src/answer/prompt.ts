import { estimateTokens } from "../llm/complete.ts";
import type { ChatMessage } from "../llm/index.ts";
import type { Passage, RankedPassage } from "../passages/index.ts";
import type { Citation } from "../schemas/answer.ts";
import type { Source } from "./sources.ts";

/** Tokens of source text a prompt carries at most (about 24,000 characters). */
export const SOURCE_TOKEN_BUDGET = 6000;
/** A citation's snippet: the best passage, cut to this many characters. */
const SNIPPET_CHARS = 300;

/** A prompt with its numbered sources: [n] in the answer is citations[n-1]. */
export interface NumberedPrompt {
  messages: ChatMessage[];
  citations: Citation[];
}

/** The answer's instructions; the agent and research pass their own. */
export const ANSWER_SYSTEM = [
  "You answer questions from web sources. Use only the numbered sources below.",
  "Cite every statement with the number of its source in square brackets, like [1] or [2][3], right after the statement.",
  "Only use numbers of the sources given. If the sources do not answer the question, say so briefly.",
  "Answer in the language of the question, concisely, in plain prose or a short list.",
].join(" ");

function excerpt(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${cut.slice(0, space > SNIPPET_CHARS / 2 ? space : SNIPPET_CHARS)}…`;
}

/**
 * Picks the passages a prompt carries within `budget` tokens: first the best passage of every
 * source (so each numbered source has something to be cited for), then the rest in rank order;
 * a source with no ranked passage brings its first one. Returns them per source, in page order.
 */
export function choosePassages(sources: Source[], ranked: RankedPassage[], budget = SOURCE_TOKEN_BUDGET) {
  const chosen = new Map<number, Set<Passage>>();
  let used = 0;
  const take = (passage: Passage) => {
    const set = chosen.get(passage.source) ?? new Set<Passage>();
    if (set.has(passage)) return;
    const cost = estimateTokens(passage.text) + 4;
    if (used > 0 && used + cost > budget) return;
    set.add(passage);
    chosen.set(passage.source, set);
    used += cost;
  };
  const best = new Map<number, Passage>();
  for (const { passage } of ranked) if (!best.has(passage.source)) best.set(passage.source, passage);
  sources.forEach((source, index) => {
    const first = best.get(index) ?? source.passages[0];
    if (first) take(first);
  });
  for (const { passage } of ranked) take(passage);
  return sources.map((_, index) => [...(chosen.get(index) ?? [])].sort((a, b) => a.position - b.position));
}

/**
 * The prompt for a question: numbered sources with their chosen passages, then the question.
 * `system` replaces the answer's instructions; `label` names what follows the sources.
 */
export function buildPrompt(
  question: string,
  sources: Source[],
  ranked: RankedPassage[],
  options: { system?: string; label?: string } = {},
): NumberedPrompt {
  const perSource = choosePassages(sources, ranked);
  const citations: Citation[] = [];
  const blocks: string[] = [];
  sources.forEach((source, index) => {
    const passages = perSource[index] ?? [];
    if (passages.length === 0) return;
    const number = citations.length + 1;
    const best = ranked.find((r) => r.passage.source === index)?.passage ?? passages[0];
    citations.push({ title: source.title, url: source.url, snippet: excerpt(best?.text || source.snippet) });
    blocks.push(
      `[${number}] ${source.title}\nURL: ${source.url}\n${passages.map((p) => p.text).join("\n\n")}`,
    );
  });
  return {
    citations,
    messages: [
      { role: "system", content: options.system ?? ANSWER_SYSTEM },
      {
        role: "user",
        content: `Sources:\n\n${blocks.join("\n\n---\n\n")}\n\n${options.label ?? "Question"}: ${question}`,
      },
    ],
  };
}

import { citedNumbers } from "../answer/citations.ts";
import { choosePassages } from "../answer/prompt.ts";
import type { Source } from "../answer/sources.ts";
import type { ChatMessage } from "../llm/index.ts";
import type { RankedPassage } from "../passages/index.ts";
import type { ResearchCitation } from "../schemas/research.ts";

/** Tokens of source text a quick report's prompt carries at most (answer's budget). */
export const QUICK_SOURCE_TOKEN_BUDGET = 6000;
/** A deep report reads up to 30 pages: twice the budget (about 48,000 characters). */
export const DEEP_SOURCE_TOKEN_BUDGET = 12_000;
/** A citation's snippet: its best passage, cut to this many characters (answer's length). */
const SNIPPET_CHARS = 300;

const SYSTEM = [
  "You write research reports from web sources. Use only the numbered sources below.",
  "Write Markdown: a short summary paragraph first, then sections with short headings for the findings, then a brief conclusion.",
  "Cite every factual statement with the number of its source in square brackets, like [1] or [2][3], right after the statement.",
  "Only use numbers of the sources given. Where sources disagree, say so and cite each side; where they leave part of the question open, say what is missing.",
  "Do not list the sources at the end. Write in the language of the question.",
].join(" ");

/** A report prompt with its numbered sources: [n] in the report is sources[n-1]. */
export interface ReportPrompt {
  messages: ChatMessage[];
  /** Every source the prompt numbers, with its number as index. */
  sources: ResearchCitation[];
}

function excerpt(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${cut.slice(0, space > SNIPPET_CHARS / 2 ? space : SNIPPET_CHARS)}…`;
}

/**
 * The prompt for a report: the sources numbered in the given order, each with its passages
 * chosen as answer chooses them (best passage of every source first, then the rest in rank
 * order, within `budget` tokens), then the question and, for deep research, the sub-questions
 * it was split into. A source with no passage gets no number.
 */
export function reportPrompt(
  question: string,
  sources: Source[],
  ranked: RankedPassage[],
  options: { budget: number; subQuestions?: string[] },
): ReportPrompt {
  const perSource = choosePassages(sources, ranked, options.budget);
  const numbered: ResearchCitation[] = [];
  const blocks: string[] = [];
  sources.forEach((source, index) => {
    const passages = perSource[index] ?? [];
    if (passages.length === 0) return;
    const number = numbered.length + 1;
    const best = ranked.find((r) => r.passage.source === index)?.passage ?? passages[0];
    numbered.push({
      index: number,
      title: source.title,
      url: source.url,
      snippet: excerpt(best?.text || source.snippet),
    });
    blocks.push(
      `[${number}] ${source.title}\nURL: ${source.url}\n${passages.map((p) => p.text).join("\n\n")}`,
    );
  });
  const subs = options.subQuestions?.length
    ? `\n\nSub-questions researched:\n${options.subQuestions.map((q) => `- ${q}`).join("\n")}`
    : "";
  return {
    sources: numbered,
    messages: [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `Sources:\n\n${blocks.join("\n\n---\n\n")}\n\nResearch question: ${question}${subs}`,
      },
    ],
  };
}

/** The sources a (cleaned) report cites, in index order. */
export function citedSources(report: string, sources: ResearchCitation[]): ResearchCitation[] {
  const cited = new Set(citedNumbers(report, sources.length));
  return sources.filter((source) => cited.has(source.index));
}

import { plainText } from "../passages/index.ts";
import { normalizeTerm, tokenize } from "../passages/terms.ts";

/** Sentences an extractive summary takes, at most. */
export const SUMMARY_SENTENCES = 3;
/** Characters an extractive summary stays within (whole sentences only, the first one excepted). */
export const SUMMARY_MAX_CHARS = 600;

/** A sentence shorter than this many words is a caption, a label or a button, not a statement. */
const MIN_WORDS = 6;

interface Sentence {
  text: string;
  position: number;
  terms: string[];
}

const SENTENCE_END = /(?<=[.!?。！？])\s+(?=[\p{Lu}\p{N}"'“(\p{Script=Han}])/u;

/** The body sentences of a page: headings, list bullets of a word or two and table rules are not sentences. */
function sentencesOf(markdown: string): { sentences: Sentence[]; headingTerms: Set<string> } {
  const headingTerms = new Set<string>();
  const sentences: Sentence[] = [];
  // Code blocks are not prose.
  const prose = markdown.replace(/```[\s\S]*?```/g, "\n");
  for (const block of prose.split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (!trimmed) continue;
    if (/^#{1,6}\s/.test(trimmed)) {
      for (const term of termsIn(trimmed)) headingTerms.add(term);
      continue;
    }
    const text = plainText(trimmed).replace(/\s+/g, " ").trim();
    for (const piece of text.split(SENTENCE_END)) {
      const sentence = piece.trim();
      if (sentence.split(" ").length < MIN_WORDS) continue;
      sentences.push({ text: sentence, position: sentences.length, terms: termsIn(sentence) });
    }
  }
  return { sentences, headingTerms };
}

function termsIn(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const term = normalizeTerm(token);
    if (term && term.length > 1 && !/^\d+$/.test(term)) terms.push(term);
  }
  return terms;
}

/**
 * A summary of a page without an LLM: its most representative sentences, in page order.
 * Each body sentence is scored by how frequent its words are in the whole page (Luhn's
 * method: a page repeats what it is about), words of the headings counting double, divided by
 * the square root of its length so long sentences do not win by size, with a small bonus for
 * sentences early in the page (pages state their subject first). The best SUMMARY_SENTENCES
 * are returned in their order, within SUMMARY_MAX_CHARS. A page without sentences gives "".
 */
export function extractiveSummary(markdown: string, maxSentences = SUMMARY_SENTENCES): string {
  const { sentences, headingTerms } = sentencesOf(markdown);
  if (!sentences.length) return "";
  const frequency = new Map<string, number>();
  for (const sentence of sentences) {
    for (const term of new Set(sentence.terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const scored = sentences.map((sentence) => {
    let weight = 0;
    for (const term of new Set(sentence.terms)) {
      const seen = frequency.get(term) ?? 0;
      // A word found in one sentence only says nothing about the page.
      if (seen > 1) weight += seen;
      if (headingTerms.has(term)) weight += 2;
    }
    const lead = 1 + 0.5 / (1 + sentence.position);
    return { sentence, score: (weight / Math.sqrt(Math.max(1, sentence.terms.length))) * lead };
  });
  const best = scored
    .sort((a, b) => b.score - a.score || a.sentence.position - b.sentence.position)
    .slice(0, maxSentences)
    .map((s) => s.sentence)
    .sort((a, b) => a.position - b.position);
  let summary = "";
  for (const sentence of best) {
    const next = summary ? `${summary} ${sentence.text}` : sentence.text;
    if (summary && next.length > SUMMARY_MAX_CHARS) break;
    summary = next;
  }
  return summary.length > SUMMARY_MAX_CHARS
    ? `${summary.slice(0, SUMMARY_MAX_CHARS - 1).trimEnd()}…`
    : summary;
}

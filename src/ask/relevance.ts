import type { Passage } from "../passages/index.ts";
import { normalizeTerm, tokenize } from "../passages/terms.ts";

/**
 * What a passage's own words say about a question, beside its BM25 score: how many of the
 * question's terms it contains (coverage) and how many of the question's word pairs it keeps
 * side by side (proximity). Both count the passage's text and its heading, except a heading
 * that only repeats the page title (the h1 above the lede): like the title, it names the page,
 * so it cannot make one passage say more than another.
 */

/** A question as passages are matched against it. */
export interface QuestionTerms {
  terms: Set<string>;
  /** Consecutive terms of the question ("tidal power", "power station"), stop words skipped. */
  pairs: Set<string>;
}

/** How well one passage's words match a question, each 0 to 1. */
export interface PassageMatch {
  /** Share of the question's terms in the passage's text or heading. */
  coverage: number;
  /** Share of the question's word pairs found next to each other in the passage's text. */
  proximity: number;
}

/** A text's terms in order, repeats kept, as BM25 indexes them (stop words out, words stemmed). */
export function termSequence(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = normalizeTerm(token);
    if (term) out.push(term);
  }
  return out;
}

function pairsOf(sequence: string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 1; i < sequence.length; i++) {
    if (sequence[i] !== sequence[i - 1]) pairs.add(`${sequence[i - 1]} ${sequence[i]}`);
  }
  return pairs;
}

/** The terms and word pairs of a question. */
export function questionTerms(question: string): QuestionTerms {
  const sequence = termSequence(question);
  return { terms: new Set(sequence), pairs: pairsOf(sequence) };
}

/** How well `passage` (of a page titled `title`) matches `question`. */
export function matchPassage(question: QuestionTerms, passage: Passage, title: string): PassageMatch {
  const text = termSequence(passage.text);
  const said = new Set(text);
  const titled = new Set(termSequence(title));
  const heading = termSequence(passage.heading);
  if (heading.some((term) => !titled.has(term))) for (const term of heading) said.add(term);
  let covered = 0;
  for (const term of question.terms) if (said.has(term)) covered++;
  const adjacent = pairsOf(text);
  let kept = 0;
  for (const pair of question.pairs) if (adjacent.has(pair)) kept++;
  return {
    coverage: question.terms.size ? covered / question.terms.size : 0,
    proximity: question.pairs.size ? kept / question.pairs.size : 0,
  };
}

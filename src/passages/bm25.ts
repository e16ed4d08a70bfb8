import MiniSearch from "minisearch";
import type { Passage } from "./split.ts";
import { normalizeTerm, termsOf, tokenize } from "./terms.ts";

/**
 * Ranks passages for a question with BM25, through MiniSearch (a maintained, dependency-free
 * in-memory index whose scoring is BM25+, with k1 1.2, b 0.7 and delta 0.5). Each passage is
 * indexed with its text and, at lower weight, its heading and its page's title, so a passage
 * under "How a tide mill works" ranks above the same words elsewhere. MiniSearch multiplies a
 * passage's score by the number of distinct query terms it matched, so passages that answer
 * the whole question beat ones that repeat one word.
 */

/** A passage with its score for the question. */
export interface RankedPassage {
  passage: Passage;
  /** BM25+ score (higher is better; not comparable across questions). */
  score: number;
  /** Share of the question's distinct terms the passage contains, 0 to 1. */
  coverage: number;
}

interface Indexed {
  id: number;
  text: string;
  heading: string;
  title: string;
}

/** Heading and title weigh less than the text: they describe the passage, they do not say it. */
const BOOST = { text: 1, heading: 0.6, title: 0.3 };

/**
 * Scores every passage that shares a term with `question`, best first. `titles[source]` is the
 * title of each passage's page. A question with no searchable words (only stop words) ranks
 * nothing.
 */
export function rankPassages(question: string, passages: Passage[], titles: string[] = []): RankedPassage[] {
  const wanted = termsOf(question);
  if (wanted.length === 0 || passages.length === 0) return [];
  const index = new MiniSearch<Indexed>({
    fields: ["text", "heading", "title"],
    tokenize,
    processTerm: normalizeTerm,
    searchOptions: { boost: BOOST, combineWith: "OR" },
  });
  index.addAll(
    passages.map((passage, id) => ({
      id,
      text: passage.text,
      heading: passage.heading,
      title: titles[passage.source] ?? "",
    })),
  );
  const hits = index.search(wanted.join(" "));
  return hits.map((hit) => {
    const passage = passages[hit.id as number] as Passage;
    // The page title is shared by all its passages: it ranks them, it does not make one say more.
    // Nor does a heading that repeats it (the h1 above the first paragraphs).
    const titleTerms = new Set(termsOf(titles[passage.source] ?? ""));
    const headingIsTitle = termsOf(passage.heading).every((term) => titleTerms.has(term));
    const says = (fields: string[] | undefined) =>
      fields?.some((field) => field === "text" || (field === "heading" && !headingIsTitle)) ?? false;
    return {
      passage,
      score: hit.score,
      coverage: hit.queryTerms.filter((term) => says(hit.match[term])).length / wanted.length,
    };
  });
}

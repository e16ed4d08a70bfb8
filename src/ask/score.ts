import type { Source } from "../answer/sources.ts";
import { type Passage, type RankedPassage, termsOf } from "../passages/index.ts";
import type { AskSource, Authority, Freshness } from "../schemas/ask.ts";
import { authorityOf } from "./authority.ts";
import { freshnessOf } from "./freshness.ts";
import { matchPassage, type PassageMatch, questionTerms } from "./relevance.ts";

/**
 * Picks the answer among ranked passages, and says how sure it is. For each passage whose
 * text or heading has at least one of the question's terms (see relevance.ts):
 *
 *   score = bm25 / best bm25 of the question
 *           x coverage x (1 + 0.5 x proximity)
 *           x authority weight x freshness weight
 *
 * coverage is the share of the question's terms the passage contains, proximity the share of
 * the question's word pairs it keeps side by side ("largest in the world" keeps "largest
 * world"). BM25 counts a term matched in the page title like one in the passage, so coverage
 * makes a passage that says more of the question beat one that shares the page's title;
 * proximity decides between passages with the same words, in favour of the one that says
 * them the way the question does. Authority and freshness multiply last: they decide between
 * passages that answer about as well, and never lift one that answers worse by more than
 * their weight. The best score is the answer. Its confidence is
 *
 *   confidence = coverage x (0.5 + 0.5 x clarity),  clarity = 1 - runner-up score / best score
 *
 * where the runner-up is the best passage that says something else (one sharing half its
 * terms or more with the answer agrees with it: a copy on another site is not a rival). A
 * passage with every term and no rival is 1; one with every term, tied with a different
 * passage, is 0.5. Every other passage's confidence is its own coverage times the same
 * clarity factor times its score relative to the answer's.
 */

/** How much each authority multiplies a passage's score (docs/search-and-answers.md, Ask). */
export const AUTHORITY_WEIGHT: Readonly<Record<Authority, number>> = {
  official: 1.2,
  institutional: 1.15,
  major: 1.1,
  general: 1,
};

/** How much each freshness multiplies a passage's score; an undated page counts as older. */
export const FRESHNESS_WEIGHT: Readonly<Record<Freshness, number>> = {
  recent: 1.1,
  "this-month": 1.05,
  "this-year": 1.02,
  older: 1,
};

/** How much keeping all the question's word pairs together multiplies a passage's score. */
export const PROXIMITY_WEIGHT = 0.5;
/** Passages sharing at least this share of their terms say the same thing. */
const AGREEMENT = 0.5;
/** A source's snippet is its best passage cut to about this many characters. */
export const SNIPPET_CHARS = 300;

/** What ask answers, before the transport adds question, method and elapsed. */
export interface Verdict {
  answer: string | null;
  confidence: number;
  sources: AskSource[];
}

/** A passage with the question's terms, and its score (see above). */
export interface Scored extends PassageMatch {
  passage: Passage;
  score: number;
}

/** Text cut at a word end to about `max` characters, with an ellipsis when cut. */
export function trimText(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/** Jaccard similarity of two passages' terms: 1 for the same words, 0 for none in common. */
function overlap(a: string, b: string): number {
  const left = new Set(termsOf(a));
  const right = new Set(termsOf(b));
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Rounds to two decimals, the precision confidence is worth. */
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * The passages that have the question's terms in their own words, scored as above (`weight`
 * of a passage's source multiplies last; 1 when not given), best first. `titleOf(source)` is
 * the title of a passage's page.
 */
export function scorePassages(
  question: string,
  ranked: RankedPassage[],
  titleOf: (source: number) => string,
  weight: (source: number) => number = () => 1,
): Scored[] {
  const wanted = questionTerms(question);
  const matched = ranked
    .map((r) => ({ r, match: matchPassage(wanted, r.passage, titleOf(r.passage.source)) }))
    .filter(({ match }) => match.coverage > 0);
  const bestBm25 = Math.max(0, ...matched.map(({ r }) => r.score));
  return matched
    .map(({ r, match }) => {
      const relevance = (r.score / bestBm25) * match.coverage * (1 + PROXIMITY_WEIGHT * match.proximity);
      return { passage: r.passage, ...match, score: relevance * weight(r.passage.source) };
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * The answer to `question` among its sources' ranked passages (see the formula above), with
 * every source's confidence, authority and freshness, best first. `now` (ms) dates
 * freshness. No passage with the question's terms in its text gives answer null and
 * confidence 0.
 */
export function judge(question: string, sources: Source[], ranked: RankedPassage[], now: number): Verdict {
  const traits = sources.map((source) => ({
    authority: authorityOf(source.url),
    freshness: freshnessOf(source.page?.metadata.published, now),
  }));
  const scored = scorePassages(
    question,
    ranked,
    (source) => sources[source]?.title ?? "",
    (source) => {
      const trait = traits[source];
      return trait ? AUTHORITY_WEIGHT[trait.authority] * FRESHNESS_WEIGHT[trait.freshness] : 1;
    },
  );

  const top = scored[0];
  const rival = top && scored.slice(1).find((s) => overlap(s.passage.text, top.passage.text) < AGREEMENT);
  const clarity = top && rival ? 1 - rival.score / top.score : 1;
  const confidenceOf = (s: Scored) => (top ? s.coverage * (s.score / top.score) * (0.5 + 0.5 * clarity) : 0);

  const bestOf = (index: number) => scored.find((s) => s.passage.source === index);
  const out = sources.map((source, index) => {
    const best = bestOf(index);
    const trait = traits[index] as (typeof traits)[number];
    return {
      order: index,
      score: best?.score ?? 0,
      source: {
        url: source.url,
        title: source.title,
        snippet: trimText(best ? best.passage.text : source.snippet),
        confidence: best ? round(confidenceOf(best)) : 0,
        authority: trait.authority,
        freshness: trait.freshness,
      },
    };
  });
  out.sort((a, b) => b.score - a.score || a.order - b.order);
  return {
    answer: top ? top.passage.text : null,
    confidence: top ? round(confidenceOf(top)) : 0,
    sources: out.map((o) => o.source),
  };
}

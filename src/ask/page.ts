import { type Passage, rankPassages, splitPassages } from "../passages/index.ts";
import { scorePassages } from "./score.ts";

/** How many passages the highlights of a page hold at most. */
export const HIGHLIGHT_PASSAGES = 3;

/**
 * One page's passages most relevant to `query`, best first, at most `count`: the page's
 * markdown cut into passages, ranked by BM25 and scored as ask scores them (coverage and
 * proximity of the query's terms; see score.ts). Passages without any of the query's words in
 * their text or heading are left out, so a page that never mentions it gives none.
 */
export function pagePassages(
  page: { markdown: string; title: string },
  query: string,
  count: number,
): Passage[] {
  const passages = splitPassages(page.markdown, 0);
  const ranked = rankPassages(query, passages, [page.title]);
  return scorePassages(query, ranked, () => page.title)
    .slice(0, count)
    .map((scored) => scored.passage);
}

/**
 * A page's highlights for a query (the highlights format): its most relevant passages, best
 * first, separated by blank lines; "" when no passage has the query's words.
 */
export function pageHighlights(page: { markdown: string; title: string }, query: string): string {
  return pagePassages(page, query, HIGHLIGHT_PASSAGES)
    .map((passage) => passage.text)
    .join("\n\n");
}

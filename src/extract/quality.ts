import type { TextStats } from "./stats.ts";

/** Text length (visible characters) from which length stops limiting the score. */
const FULL_LENGTH = 1000;

/**
 * Extraction quality, 0..1. The heuristic, in visible characters of the
 * extracted content (`content`) and of the whole page body (`pageText`):
 *
 * - length factor L = sqrt(min(1, text / 1000)): an empty page scores 0, an
 *   error or "access denied" page of a sentence or two stays low;
 * - link density D = link text / text: menus and link lists are not content;
 * - text density P = prose / text, prose being blocks of sentences rather
 *   than labels or links (see stats.ts);
 * - boilerplate ratio B = 1 - text / pageText: how much of the page was thrown
 *   away; only a mild penalty, since news pages are mostly chrome.
 *
 * quality = L * (0.4 * (1 - min(1, 1.5 D)) + 0.35 * P + 0.25 * (1 - B / 2))
 */
export function qualityScore(content: TextStats, pageText: number): number {
  const text = content.text;
  if (text === 0) return 0;
  const length = Math.sqrt(Math.min(1, text / FULL_LENGTH));
  const links = 1 - Math.min(1, (1.5 * content.link) / text);
  const prose = Math.min(1, content.good / text);
  const boilerplate = pageText > 0 ? Math.max(0, 1 - text / pageText) : 0;
  const q = length * (0.4 * links + 0.35 * prose + 0.25 * (1 - boilerplate / 2));
  return Math.round(Math.min(1, Math.max(0, q)) * 1000) / 1000;
}

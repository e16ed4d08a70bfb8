import { type AnyNode, type Element, forEachElement, isElement, removeNode } from "./nodes.ts";
import { measure, type TextStats } from "./stats.ts";

/** Chrome that the default mode keeps but a "main content only" answer drops. */
const SIDE_WORDS =
  /(?:^|[\s_-])(?:sidebar|side-?bar|aside|related|recommended|recommendations|more-stories|read-?more|trending|popular|most-?read|widget|widgets|tags|tag-?list|author-?bio|byline-?social|newsletter|promo|rail|right-?rail|left-?rail|toc|table-?of-?contents|pagination|pager)(?:$|[\s_-])/;

/** Elements whose name or id says "this is the content" (the strong candidates). */
function isStrongCandidate(el: Element): boolean {
  const a = el.attribs;
  if (el.name === "main" || el.name === "article" || a.role === "main" || a.itemprop === "articleBody") return true;
  if (a.id === "content" || a.id === "main-content" || a.id === "main") return true;
  const cls = a.class;
  return cls !== undefined && /(?:^|\s)(?:content|main-content|post-content|entry-content|article-body)(?:$|\s)/.test(cls);
}

/** Weight of link-dominated text against prose: a menu costs more than a label earns. */
const BAD_WEIGHT = 1.5;
const WEAK_WEIGHT = 0.5;

function score(s: TextStats): number {
  return s.good + WEAK_WEIGHT * s.weak - BAD_WEIGHT * s.bad;
}

function dropSideChrome(body: Element, stats: Map<Element, TextStats>): void {
  const doomed: Element[] = [];
  // A side element holding much of the page's prose is the content, whatever its name.
  const limit = Math.min(1500, 0.3 * (stats.get(body)?.good ?? 0));
  forEachElement(body, (el) => {
    const s = stats.get(el);
    if (!s) return;
    const a = el.attribs;
    const words = `${a.class ?? ""} ${a.id ?? ""}`.toLowerCase();
    const side = el.name === "aside" || a.role === "complementary" || SIDE_WORDS.test(words);
    if (side && s.good < limit) doomed.push(el);
  });
  for (const el of doomed) removeNode(el);
}

/** Drops link-dominated blocks (menus, tag lists, "read next" link lists) inside the chosen content. */
function dropLinkBlocks(root: Element, stats: Map<Element, TextStats>): void {
  const doomed: Element[] = [];
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      const s = stats.get(child);
      if (!s) continue;
      if (s.text > 0 && s.bad > 0.6 * s.text && s.good < 200) {
        doomed.push(child);
        continue;
      }
      visit(child);
    }
  };
  visit(root);
  for (const el of doomed) removeNode(el);
}

/**
 * Picks the main content of a cleaned page: the element whose subtree holds
 * the most prose net of link-dominated text (one bottom-up measuring pass,
 * then an argmax), with the strong candidates (`main`, `article`, `.content`,
 * `#content`) preferred when they hold nearly as much. Never returns nothing
 * for a page with text: falls back to the whole body.
 */
export function selectMainContent(body: Element): Element[] {
  dropSideChrome(body, measure(body));
  const stats = measure(body);
  let best = body;
  let bestScore = score(stats.get(body)!);
  let bestStrong: Element | null = null;
  let bestStrongScore = Number.NEGATIVE_INFINITY;
  forEachElement(body, (el) => {
    const s = stats.get(el);
    if (!s) return;
    const v = score(s);
    // ">=": on a tie the deeper element wins, so empty wrappers around the content are shed.
    if (v >= bestScore) {
      best = el;
      bestScore = v;
    }
    if (isStrongCandidate(el) && v > bestStrongScore) {
      bestStrong = el;
      bestStrongScore = v;
    }
  });
  const chosen: Element = bestStrong !== null && bestStrongScore >= 0.9 * bestScore ? bestStrong : best;
  if ((stats.get(chosen)?.text ?? 0) === 0) return [body];
  dropLinkBlocks(chosen, stats);
  return [chosen];
}

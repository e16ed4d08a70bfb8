import { isFactBox } from "./fact-box.ts";
import { type AnyNode, type Element, firstChildElement, forEachElement, isElement } from "./nodes.ts";
import type { Measured, TextStats } from "./stats.ts";

/**
 * Which block of a measured page holds its content (main-content.ts chooses with it): the element
 * whose text scores best under a page kind's weights, strong candidates (`main`, `article`,
 * `.content`) preferred when they score nearly as well, then stepped down into the child that
 * carries most of the score unless what lies beside it is the same content's.
 */

/** Elements whose name or id says "this is the content" (the strong candidates). */
function isStrongCandidate(el: Element): boolean {
  const a = el.attribs;
  if (el.name === "main" || el.name === "article" || a.role === "main" || a.itemprop === "articleBody")
    return true;
  if (a.id === "content" || a.id === "main-content" || a.id === "main") return true;
  const cls = a.class;
  return (
    cls !== undefined &&
    /(?:^|\s)(?:content|main-content|post-content|entry-content|article-body)(?:$|\s)/.test(cls)
  );
}

/** How much a visible character of each kind of text is worth when looking for the content block. */
export interface Weights {
  good: number;
  weak: number;
  card: number;
  bad: number;
}

/**
 * Articles: prose counts, teaser links around it (related stories) count
 * against, and a menu costs more than a label earns.
 */
export const ARTICLE: Weights = { good: 1, weak: 0.5, card: -0.75, bad: -1.5 };
/**
 * Listings and grids: the teasers are the content, and so are the link lists
 * that survived cleaning (a category page is a list of links).
 */
export const LISTING: Weights = { good: 1, weak: 0.5, card: 0.8, bad: 0.2 };

/** A block's score: each kind of its text weighed. */
export function score(s: TextStats, w: Weights): number {
  return w.good * s.good + w.weak * s.weak + w.card * s.card + w.bad * s.bad;
}

/** The best-scoring element, strong candidates preferred when they score nearly as well. */
export function bestBlock(body: Element, stats: Measured, w: Weights): Element {
  let best = body;
  let bestScore = score(stats.get(body)!, w);
  let strong: Element | null = null;
  let strongScore = Number.NEGATIVE_INFINITY;
  forEachElement(body, (el) => {
    const s = stats.get(el);
    if (!s) return;
    const v = score(s, w);
    // ">=": on a tie the deeper element wins, so empty wrappers around the content are shed.
    if (v >= bestScore) {
      best = el;
      bestScore = v;
    }
    if (v > strongScore && isStrongCandidate(el)) {
      strong = el;
      strongScore = v;
    }
  });
  return tighten(strong !== null && strongScore >= 0.9 * bestScore ? strong : best, stats, w);
}

/** Lists, beside whose paragraphs of prose a block is not stepped into (see tighten). */
const LIST_TAGS = new Set(["ul", "ol"]);

/** Paragraphs of prose before the leading child from which they open the same content. */
const LEDE_PARAGRAPHS = 2;

/** Share of its parent's score from which a child is the content and the rest is other material. */
const TIGHTEN_SHARE = 0.75;

/** Prose outside the leading child, absolute and as a share of the child's, that keeps the parent. */
const REST_PROSE = 300;
const REST_SHARE = 0.15;

/** Siblings like it (same tag and class, holding text) from which a child is one row of a set. */
const SET_ROWS = 3;

/**
 * Whether `el` is one row of a set its parent lays out (a product's rows of label and value, a
 * thread's posts): siblings of its tag and class, opening with the same kind of element, that
 * hold text too. One long value (a book's reviews in one cell) is not the set: the parent is.
 */
function isOneOfASet(el: Element, stats: Measured): boolean {
  const cls = el.attribs.class;
  const head = firstChildElement(el);
  if (!cls || !head) return false;
  let like = 0;
  for (const sib of el.parent!.children as AnyNode[]) {
    if (sib === el || !isElement(sib) || !sameKind(sib, el)) continue;
    // Rows of a set are built alike; a layout's rows (`row-fluid`) each hold something else.
    const sibHead = firstChildElement(sib);
    if (!sibHead || !sameKind(sibHead, head)) continue;
    if ((stats.get(sib)?.text ?? 0) > 0 && ++like >= SET_ROWS) return true;
  }
  return false;
}

const sameKind = (a: Element, b: Element) => a.name === b.name && a.attribs.class === b.attribs.class;

/**
 * Sums favour merging: a wrapper holding the article and, further down, a
 * "more stories" block with prose of its own scores higher than the article.
 * Step down while one child carries most of the score and little prose
 * lies beside it.
 */
function tighten(el: Element, stats: Measured, w: Weights): Element {
  let cur = el;
  for (;;) {
    const total = score(stats.get(cur)!, w);
    let next: Element | null = null;
    let nextScore = Number.NEGATIVE_INFINITY;
    for (const child of cur.children as AnyNode[]) {
      if (!isElement(child)) continue;
      const s = stats.get(child);
      if (!s) continue;
      const v = score(s, w);
      if (v > nextScore) {
        next = child;
        nextScore = v;
      }
    }
    if (next === null || total <= 0 || nextScore < TIGHTEN_SHARE * total) return cur;
    // Prose beside the child is more of the page (a service page's sections), not a "more stories" rail.
    const childGood = stats.get(next)!.good;
    const restGood = stats.get(cur)!.good - childGood;
    if (restGood >= REST_PROSE && restGood >= REST_SHARE * childGood) return cur;
    // A box of facts beside it (a recipe's ingredients beside its steps) is the same content's, and
    // so is a paragraph of prose beside a list (the introduction of a numbered roundup), and so are
    // paragraphs of prose that open the block before it (a guide's introduction above its body).
    const list = LIST_TAGS.has(next.name);
    let before = true;
    let lede = 0;
    for (const child of cur.children as AnyNode[]) {
      if (child === next) before = false;
      if (child === next || !isElement(child)) continue;
      const cs = stats.get(child);
      if (cs && ((list && child.name === "p" && cs.paras > 0) || isFactBox(child, cs, stats))) return cur;
      if (before && child.name === "p" && cs && cs.paras > 0) lede++;
    }
    if (lede >= LEDE_PARAGRAPHS) return cur;
    if (isOneOfASet(next, stats)) return cur;
    cur = next;
  }
}

import { type AnyNode, type Element, HEADING_TAGS, isElement, linkCount } from "./nodes.ts";
import { isPricedGrid } from "./product-grid.ts";
import type { Measured, TextStats } from "./stats.ts";

/**
 * A box of facts: a list or table of unlinked facts under a heading that
 * names a section, and nothing else (a recipe's ingredients beside its steps,
 * a story's "key facts"). Inside the main landmark or an article an aside
 * holding one is the content's own, and beside the block chosen it is part of
 * the same content. Prose, or a linked heading (a teaser's headline, a
 * person's name over their details: a post's author panel) or a grid of
 * priced products makes it something else.
 */
export function isFactBox(el: Element, s: TextStats, stats: Measured): boolean {
  if (s.weak < FACT_BOX_TEXT || s.paras > 0 || s.link >= FACT_BOX_LINKED * s.text) return false;
  let plain = false;
  let listed = 0;
  let budget = FACT_BOX_NODES;
  const stack: AnyNode[] = [...el.children];
  while (stack.length) {
    // A box of facts is small outside its lists: a big subtree is something else (and not walked at each level).
    if (--budget < 0) return false;
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (HEADING_TAGS.has(node.name)) {
      if (linkCount(node) > 0) return false;
      plain = true;
    } else if (FACT_LISTS.has(node.name)) {
      // A shop's grid of products, each with its price, is other products, not facts.
      if (isPricedGrid(node)) return false;
      listed += stats.get(node)?.text ?? 0;
    } else for (const child of node.children) stack.push(child);
  }
  return plain && listed >= FACT_BOX_LISTED * s.text;
}
const FACT_BOX_LINKED = 0.5;
const FACT_BOX_TEXT = 80;
/** Nodes outside its lists and tables up to which an element may be a box of facts. */
const FACT_BOX_NODES = 400;
/** Share of a box of facts' text in its lists and tables (the rest: its heading, a note). */
const FACT_BOX_LISTED = 0.7;
const FACT_LISTS = new Set(["ul", "ol", "dl", "table"]);

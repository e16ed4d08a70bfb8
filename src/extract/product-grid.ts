import {
  type AnyNode,
  type Element,
  hasDescendant,
  isElement,
  removeNode,
  textOf,
  visibleTextLength,
} from "./nodes.ts";
import { PRICE } from "./product-header.ts";

/** Text up to which a priced element is one product card, not a section that mentions a price. */
const CARD_MAX = 600;
/** Priced cards from which a row of siblings is a grid of products. */
const GRID_CARDS = 3;
const TITLE = new Set(["h1"]);
/** Table rows with prices are the product's own price tiers or variants, not other products. */
const TABLE_PARTS = new Set(["table", "thead", "tbody", "tfoot"]);

/**
 * A grid of products: three or more of the element's children are short cards that each show a
 * price, and they are at least half of its children with text. Table parts are a product's own
 * price tiers or variants, never a grid.
 */
export function isPricedGrid(el: Element): boolean {
  if (TABLE_PARTS.has(el.name)) return false;
  const kids = (el.children as AnyNode[]).filter(isElement);
  if (kids.length < GRID_CARDS) return false;
  let items = 0;
  let priced = 0;
  for (const k of kids) {
    const n = visibleTextLength(k, CARD_MAX + 1);
    if (n === 0) continue;
    items++;
    if (n <= CARD_MAX && PRICE.test(textOf(k))) priced++;
  }
  return priced >= GRID_CARDS && priced >= 0.5 * items;
}

/**
 * Drops the grids of other products on a product page ("similar items",
 * "customers also bought"): an element whose children are, for the most
 * part, short cards that each show a price. The product's own title block
 * (its h1) and price tables stay.
 */
export function dropProductGrids(body: Element): void {
  const doomed: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    if (isPricedGrid(el) && !hasDescendant(el, TITLE)) {
      doomed.push(el);
      return;
    }
    for (const k of el.children as AnyNode[]) if (isElement(k)) visit(k);
  };
  visit(body);
  for (const el of doomed) removeNode(el);
}

import {
  type AnyNode,
  contains,
  type Element,
  firstElement,
  forEachElement,
  hasDescendant,
  textOf,
} from "./nodes.ts";

/** A price as shops print it: a currency sign or code beside an amount. */
export const PRICE =
  /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|PLN|JPY|INR)\b)\s?\d|\d(?:[.,]\d{2})?\s?(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|PLN|JPY|INR)\b)/;
/** Text up to which an element beside the title is a price label, not a paragraph that mentions one. */
const PRICE_MAX = 40;

/**
 * A product page's title and price when the chosen content (its
 * description and specifications) leaves them out: the h1 before it, and
 * the first price label in the h1's block.
 */
export function productHeader(chosen: Element, body: Element): Element[] {
  const title = firstElement(body, "h1");
  if (!title || contains(chosen, title) || contains(title, chosen) || !precedes(title, chosen)) return [];
  const header: Element[] = [title];
  const block = title.parent as Element | null;
  if (block && block !== body && !contains(block, chosen)) {
    let price: Element | null = null;
    forEachElement(block, (el) => {
      if (price || contains(el, title) || contains(title, el)) return;
      const text = textOf(el);
      if (text.length <= PRICE_MAX && PRICE.test(text) && !hasDescendant(el, BLOCKS_IN_PRICE)) price = el;
    });
    if (price) header.push(price);
  }
  return header;
}

const BLOCKS_IN_PRICE = new Set(["p", "div", "li", "ul", "table"]);

/** True when `a` comes before `b` in document order (neither containing the other). */
export function precedes(a: Element, b: Element): boolean {
  const path = (n: Element): AnyNode[] => {
    const out: AnyNode[] = [];
    for (let cur: AnyNode | null = n; cur; cur = cur.parent) out.unshift(cur);
    return out;
  };
  const pa = path(a);
  const pb = path(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  const parent = pa[i - 1] as Element | undefined;
  if (!parent || i >= pa.length || i >= pb.length) return false;
  const kids = parent.children as AnyNode[];
  return kids.indexOf(pa[i]!) < kids.indexOf(pb[i]!);
}

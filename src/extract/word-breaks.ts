import { Text } from "domhandler";
import { type AnyNode, BLOCK_TAGS, type Element, isElement } from "./nodes.ts";

/** Elements whose text is kept exactly as written. */
const VERBATIM = new Set(["pre", "code", "kbd", "samp", "textarea", "script", "style"]);

/** The end of one element's text and the start of the next's that a stylesheet must have set apart. */
const WORD_END = /(?:\p{L}\p{Ll}|\p{N})$/u;
const WORD_START = /^\p{Lu}\p{Ll}/u;

/** The text node at the very end (`last`) or start of `el`'s content, empty ones skipped. */
function edgeText(el: Element, last: boolean): string | null {
  const kids = el.children;
  for (let i = last ? kids.length - 1 : 0; last ? i >= 0 : i < kids.length; i += last ? -1 : 1) {
    const kid = kids[i]!;
    if (kid.type === "text") {
      if ((kid as Text).data) return (kid as Text).data;
    } else if (isElement(kid)) {
      const text = edgeText(kid, last);
      if (text !== null) return text;
      // An element without text (an icon, a picture) stands between: no word runs across it.
      if (kid.children.length || kid.name === "img" || kid.name === "br") return null;
    }
  }
  return null;
}

/**
 * Inline elements side by side whose texts run into each other: "Merrell" + "Moab 3" as
 * "MerrellMoab 3", "On" + "Cloudrock", a price and its "Was $154.95".
 */
function abut(prev: AnyNode, next: AnyNode): boolean {
  if (!isElement(prev) || !isElement(next) || BLOCK_TAGS.has(prev.name) || BLOCK_TAGS.has(next.name))
    return false;
  const end = edgeText(prev, true);
  if (end === null || !WORD_END.test(end)) return false;
  const start = edgeText(next, false);
  return start !== null && WORD_START.test(start);
}

const isBreak = (node: AnyNode | undefined): node is Element =>
  node !== undefined && isElement(node) && node.name === "br";
const isBlankText = (node: AnyNode | undefined): boolean =>
  node?.type === "text" && !/\S/.test((node as Text).data);

/** Moves `node` from its place to index `at` of `parent`'s children (`at` counted after it left). */
function move(node: AnyNode, parent: Element, at: number): void {
  const from = node.parent as Element;
  const kids = from.children;
  kids.splice(kids.indexOf(node as never), 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  const prev = parent.children[at - 1] ?? null;
  const next = parent.children[at] ?? null;
  parent.children.splice(at, 0, node as never);
  node.parent = parent;
  node.prev = prev;
  node.next = next;
  if (prev) prev.next = node;
  if (next) next.prev = node;
}

/** The line break ending (or starting) `el`'s content, blank text around it aside. */
function edgeBreak(el: Element, last: boolean): Element | null {
  const kids = el.children;
  let i = last ? kids.length - 1 : 0;
  while (isBlankText(kids[i])) i += last ? -1 : 1;
  const kid = kids[i];
  return isBreak(kid) ? kid : null;
}

/**
 * Moves the line breaks at the start and end of `parent`'s inline children to just outside them
 * (`<span>bestseller<br></span>` is `<span>bestseller</span><br>`): it reads the same, and
 * turndown trims an inline element's content when it has a space at an edge, dropping a
 * break there ("bestsellerUSA Today" where the page shows two lines).
 */
function hoistEdgeBreaks(parent: Element): void {
  const kids = parent.children;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    if (!isElement(kid) || BLOCK_TAGS.has(kid.name) || VERBATIM.has(kid.name)) continue;
    for (let br = edgeBreak(kid, true); br; br = edgeBreak(kid, true)) move(br, parent, i + 1);
    for (let br = edgeBreak(kid, false); br; br = edgeBreak(kid, false)) move(br, parent, i++);
  }
}

/**
 * Sets apart the texts of inline children of `el` that touch in the markup but not on the
 * screen: a product card's brand and name (`<span>Merrell</span><span>Moab 3</span>`), a row of
 * badges ("Genuine Part", "Lifetime Guarantee"), which a stylesheet lays out as blocks or with
 * gaps. Without a space between them markdown and text read one word ("PartLifetime"). Only
 * where a word of two letters or more ending in lower case, or a number, ends one element and a
 * capitalised word starts the next: that is two words in any script with case, where one word
 * split by markup ("<b>W</b>ord", "<em>run</em>ning", "<span>i</span>Phone") never is.
 */
function separateAbuttingWords(el: Element): void {
  const kids = el.children;
  for (let i = kids.length - 1; i > 0; i--) {
    const prev = kids[i - 1]!;
    const next = kids[i]!;
    if (!abut(prev, next)) continue;
    const space = new Text(" ");
    space.parent = el;
    space.prev = prev;
    space.next = next;
    prev.next = space;
    next.prev = space;
    kids.splice(i, 0, space);
  }
}

/**
 * Inline markup read as a reader sees it, for markdown and text: line breaks at an inline
 * element's edges go outside it, and the words of inline elements laid out apart are set apart.
 * Code and other verbatim text are left as written; the `html` format is rendered before this.
 */
export function settleInlineEdges(roots: readonly Element[]): void {
  // Every element under the roots, verbatim ones and their insides skipped, parents first.
  const order: Element[] = [];
  const stack: Element[] = [...roots];
  while (stack.length) {
    const el = stack.pop()!;
    if (VERBATIM.has(el.name)) continue;
    order.push(el);
    for (const kid of el.children) if (isElement(kid)) stack.push(kid);
  }
  // Children first, so that a break leaves nested elements one level at a time.
  for (let i = order.length - 1; i >= 0; i--) hoistEdgeBreaks(order[i]!);
  for (const el of order) separateAbuttingWords(el);
}

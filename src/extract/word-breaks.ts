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

/**
 * Sets apart the texts of inline elements that touch in the markup but not on the screen: a
 * product card's brand and name (`<span>Merrell</span><span>Moab 3</span>`), a row of badges
 * ("Genuine Part", "Lifetime Guarantee"), which a stylesheet lays out as blocks or with gaps.
 * Without a space between them markdown and text read one word ("PartLifetime"). Only where a
 * word of two letters or more ending in lower case, or a number, ends one element and a
 * capitalised word starts the next: that is two words in any script with case, where one word
 * split by markup ("<b>W</b>ord", "<em>run</em>ning", "<span>i</span>Phone") never is. Code and
 * other verbatim text are left as written.
 */
export function separateAbuttingWords(roots: readonly Element[]): void {
  const visit = (el: Element): void => {
    if (el.children.length < 2) return;
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
  };
  // Every element under the roots, verbatim ones and their insides skipped.
  const stack: Element[] = [...roots];
  while (stack.length) {
    const el = stack.pop()!;
    if (VERBATIM.has(el.name)) continue;
    visit(el);
    for (const kid of el.children) if (isElement(kid)) stack.push(kid);
  }
}

import { type AnyNode, type Element, isElement, textOf, wordsOf } from "./nodes.ts";

/**
 * Whether a link-dense paragraph or list item of the content is text
 * nonetheless: sentences around their links, or one address under its label.
 * Menus, tag lists and "Related: [a], [b]" lines are neither. An item is read
 * in a list the content keeps ("Here are my [Top Four Tips]" among items of
 * prose), so fewer words of its own make it a sentence.
 */
export function isTextDespiteLinks(el: Element): boolean {
  if (el.name !== "p" && el.name !== "li") return false;
  return (
    isLinkedProse(el, el.name === "li" ? ITEM_WORDS_BESIDE_LINKS : PROSE_WORDS_BESIDE_LINKS) ||
    isLabeledLink(el)
  );
}

/**
 * A paragraph whose sentences link most of their words ("today's deals include
 * [MacBooks from $700] and [AirPods for $150]"): the links sit inside
 * sentences, with words of their own between them, which a menu, a tag list or
 * a "Related: [a], [b]" line does not have.
 */
function isLinkedProse(p: Element, enough: number): boolean {
  let words = 0;
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const count = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") words += wordsOf((child as { data: string }).data).length;
      else if (isElement(child) && child.name !== "a") count(child);
    }
  };
  count(p);
  return words >= enough;
}

/**
 * A paragraph giving one address under a label of its own ("Account: @handle",
 * "Tickets: www.theater.com", "Contact: name@site.org"): a fact of the text,
 * however much of it the link is. A link of several words under a label ("Read
 * more: Another story's headline") is a link away, and is not this.
 */
function isLabeledLink(p: Element): boolean {
  let link: Element | undefined;
  let label = "";
  const stack: AnyNode[] = [...p.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") label += (node as { data: string }).data;
    else if (isElement(node)) {
      if (node.name === "a") {
        if (link) return false;
        link = node;
      } else stack.push(...node.children);
    }
  }
  return link !== undefined && ADDRESS.test(textOf(link).trim()) && LABEL.test(label);
}

/** One unbroken token of letters or digits with the marks of an address (@handle, domain, e-mail). */
const ADDRESS = /^[@#]?[\p{L}\p{N}][\p{L}\p{N}._@/:+-]*$/u;
/** Label text: two letters in a row, in any script. */
const LABEL = /\p{L}{2}/u;

/** Words outside links from which a link-dense paragraph is prose. */
const PROSE_WORDS_BESIDE_LINKS = 10;
/** Words outside links from which a link-dense item of a kept list is a sentence ("Here are my [...]"). */
const ITEM_WORDS_BESIDE_LINKS = 3;

import { WORD_CHAR } from "./hidden.ts";
import { type AnyNode, type Element, isElement, removeNode, someDescendant } from "./nodes.ts";

/** Links from which a wordless element inside a sentence is a card of links, not a run of names. */
const CARD_LINKS = 3;

/** What makes a wordless run of links a card drawn on hover rather than links read in the sentence. */
const CARD_PARTS = new Set(["img", "picture", "div", "ul", "ol", "li", "p"]);

/**
 * Removes the hover cards inside a paragraph: an element with three or more
 * links, a picture or a block, and not a word of its own (a person's photo and
 * latest stories behind their name in the text), which the stylesheet shows
 * only on hover. The innermost such element goes, so the name's own link, in
 * the wrapper around the card, stays in the sentence.
 */
export function dropHoverCards(p: Element): void {
  // Most paragraphs hold fewer links than a card: they are not walked again.
  let seen = 0;
  if (!someDescendant(p, (el) => el.name === "a" && ++seen >= CARD_LINKS)) return;
  const doomed: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): { links: number; words: boolean; card: boolean; found: boolean } => {
    let links = 0;
    let words = false;
    let card = false;
    let found = false;
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") words ||= WORD_CHAR.test((child as { data: string }).data);
      else if (isElement(child)) {
        if (child.name === "a") links++;
        if (CARD_PARTS.has(child.name)) card = true;
        const inner = visit(child);
        if (child.name !== "a") {
          links += inner.links;
          words ||= inner.words;
        }
        card ||= inner.card;
        found ||= inner.found;
      }
    }
    if (!found && el !== p && links >= CARD_LINKS && !words && card) {
      doomed.push(el);
      found = true;
    }
    return { links, words, card, found };
  };
  visit(p);
  for (const el of doomed) removeNode(el);
}

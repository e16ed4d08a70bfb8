import { type AnyNode, type Element, HEADING_TAGS, isElement, smallTextOf, walkWithin } from "./nodes.ts";

/**
 * A card of a grid: a shop's or a blog's grid draws each item as a picture linking to the item,
 * then its name linking there again, then its price or summary (`<a href=/item/x><img></a> <div><a
 * href=/item/x>Name</a></div> <div>$249.00</div>`). The name is link text, as a menu's entry is,
 * so a card of a long name and a short price reads as a block of links, and its name line as a
 * line of one link; yet the name is what the card's other text is about: dropping the line keeps
 * the price and loses what it is the price of, dropping the card loses the item. A block whose
 * links all lead to one place is part of a card when a picture in it or in a small ancestor links
 * there too, or is named as its link is (`<img alt="Name">` in a tile whose picture is a button);
 * a menu's entries lead to several places, or to pages no picture beside them shows.
 */

/** Ancestors climbed from a block to its card (the name's wrappers, the card's body, the card). */
const CARD_LEVELS = 4;
/** Nodes a card holds at most (its picture, name, price, badges and buttons). */
const CARD_NODES = 160;
/**
 * Elements on each side of a block that are read as its card's other parts: a card's few, or the
 * picture beside a line in a story's body (a deal's photo over "Get it on Amazon for $39.99"),
 * never a wide grid's or a page's every child at each of its lines.
 */
const NEAR = 8;

/** Where the links of `el` (itself included) lead, when they all lead to one place, and their words. */
function oneTarget(el: Element): { href: string; names: Set<string> } | null {
  let href: string | null = null;
  let other = false;
  const names = new Set<string>();
  const small = walkWithin(el, CARD_NODES, (node) => {
    if (!isElement(node) || node.name !== "a") return;
    const target = node.attribs.href?.trim() ?? "";
    if (href === null) href = target;
    else other ||= target !== href;
    const name = smallTextOf(node, CARD_NODES)?.toLowerCase();
    if (name) names.add(name);
  });
  if (!small || other || href === null) return null;
  const target: string = href;
  if (target === "" || target.startsWith("#") || target.startsWith("javascript:")) return null;
  return { href: target, names };
}

function normalized(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/** Whether `link` holds a picture and no text: a card's image linking to its item. */
function isPictureLink(link: Element): boolean {
  let picture = false;
  let text = false;
  walkWithin(link, CARD_NODES, (node) => {
    if (node.type === "text") text ||= node.data.trim() !== "";
    else if (isElement(node) && (node.name === "img" || node.name === "picture")) picture = true;
  });
  return picture && !text;
}

/**
 * Whether the small subtree `root` shows the item at `href`: a picture linking there, or a picture
 * named as one of `names`. Null when `root` is too big to be part of a card.
 */
function showsItem(root: AnyNode, href: string, names: Set<string>): boolean | null {
  let found = false;
  const small = walkWithin(root, CARD_NODES, (node) => {
    if (found || !isElement(node)) return;
    if (node.name === "a") found = node.attribs.href?.trim() === href && isPictureLink(node);
    else if (node.name === "img") found = names.has(normalized(node.attribs.alt ?? ""));
  });
  return found ? true : small ? false : null;
}

/** Whether a card's parts hold words outside their links (a price, a summary, a badge): a card, not a picture's caption. */
function saysMore(parts: readonly AnyNode[]): boolean {
  let more = false;
  for (const part of parts) {
    // Node-bounded, as the parts after the picture were not sized: words are found in a card's first nodes.
    walkWithin(part, CARD_NODES, (node) => {
      if (!more && node.type === "text" && node.data.trim() !== "") more = !insideLink(node, part);
    });
    if (more) return true;
  }
  return false;
}

/** Whether `node` sits inside a link at or below `top`. */
function insideLink(node: AnyNode, top: AnyNode): boolean {
  for (let el = node.parent; el; el = el.parent) {
    if (isElement(el) && el.name === "a") return true;
    if (el === top) return false;
  }
  return false;
}

/** `node`'s siblings up to NEAR elements away on each side, nearest first. */
function siblingsNear(node: AnyNode): AnyNode[] {
  const near: AnyNode[] = [];
  for (const step of ["prev", "next"] as const) {
    let elements = 0;
    // Text between them counts too, up to as many nodes again: whitespace, or words beside a line.
    for (
      let sib = node[step], nodes = 0;
      sib && elements < NEAR && nodes < 2 * NEAR;
      sib = sib[step], nodes++
    ) {
      near.push(sib);
      if (isElement(sib)) elements++;
    }
  }
  return near;
}

/** Whether `el`, a block whose links all lead to one place, is a card or a card's name line (see above). */
export function isCardPart(el: Element): boolean {
  const target = oneTarget(el);
  if (target === null) return false;
  const { href, names } = target;
  if (showsItem(el, href, names)) return saysMore([el]);
  let below: AnyNode = el;
  for (let level = 0, card = el.parent; card && level < CARD_LEVELS; level++, card = card.parent) {
    if (!isElement(card) || card.type !== "tag") return false;
    // The card's other parts only: the block itself was read above.
    const parts = siblingsNear(below);
    for (const part of parts) {
      const shows = showsItem(part, href, names);
      if (shows) return saysMore([below, ...parts]);
      // A part too big to be a card's: the climb has left the card.
      if (shows === null) return false;
    }
    below = card;
  }
  return false;
}

/** Cards from which a run of them is a rail, and the text a rail's card holds at most (a title and a line). */
const RAIL_CARDS = 3;
const RAIL_CARD_TEXT = 240;

/**
 * A rail of teasers: under an optional heading ("Most popular diets"), nothing but three or more
 * cards, each of a picture linking to another page, that page's title linking there again and a
 * line about it. Each card's line is a sentence, so the rail reads as prose; after an article's
 * text it is other pages' teasers. A listicle's items say more than a line, or stand among the
 * article's paragraphs.
 */
export function isTeaserRail(el: Element): boolean {
  const targets = new Set<string>();
  let cards = 0;
  for (const kid of el.children) {
    if (!isElement(kid)) {
      if (kid.type === "text" && kid.data.trim() !== "") return false;
      continue;
    }
    if (cards === 0 && HEADING_TAGS.has(kid.name)) continue;
    const text = smallTextOf(kid, CARD_NODES);
    if (text === null || text.length > RAIL_CARD_TEXT) return false;
    const target = oneTarget(kid);
    if (target === null || targets.has(target.href) || !showsItem(kid, target.href, target.names))
      return false;
    targets.add(target.href);
    cards++;
  }
  return cards >= RAIL_CARDS;
}

import {
  type AnyNode,
  type Element,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  removeNode,
  textOf,
} from "./nodes.ts";
import { type Measured, measure, type TextStats } from "./stats.ts";

/**
 * What a shop heads its rails of other products with, or a blog its rails of other posts: "People
 * who viewed this item also viewed", "Customers also bought", "Similar items", "Related products",
 * "Related articles", "Explore related items", "You may also like", "Recently viewed", "Frequently
 * bought together", "Sponsored products related to this item"; a news story's "More:", "Read more",
 * "Related", "Read also", "Don't miss" over the headlines it lists; and the same in other languages
 * (RAIL_HEADING_ELSEWHERE). The whole heading is the phrase (with a trailing colon or ellipsis at
 * most): a heading that goes on ("Similar items we tested, and why we chose this one") is the page's
 * own.
 */
const RAIL_HEADING =
  /^(?:(?:people|customers|shoppers) (?:who (?:viewed|bought|searched for) this (?:item|product) )?also (?:viewed|bought|liked|searched for)|(?:similar|related|recommended|sponsored) (?:items|products|articles|stories|posts)(?: (?:for you|related to this (?:item|product)))?|explore (?:more |related )?(?:items|products)|you (?:may|might) also like|recently viewed(?: items| products)?|frequently bought together|more (?:items )?like this|more from this seller|more|read more|related|related (?:coverage|content|links|reading|news)|more (?:on this(?: story| topic)?|stories|news)|(?:also|further) read(?:ing)?|read (?:also|next)|don'?t miss)\s*(?::|\.{3}|…)?$/i;

/**
 * "You may also like", "Related articles", "Read also" as Portuguese, Spanish, French, German,
 * Italian, Dutch and Russian sites head their rails.
 */
const RAIL_HEADING_ELSEWHERE =
  /^(?:voc[êe] (?:tamb[ée]m )?pode gostar|talvez voc[êe] (?:tamb[ée]m )?goste|(?:leia|veja) tamb[ée]m|(?:artigos|not[íi]cias|posts|mat[ée]rias) relacionad[oa]s|(?:tamb[ée]n )?te (?:puede|podr[íi]a) interesar|(?:art[íi]culos|noticias) relacionad[oa]s|lee tambi[ée]n|te recomendamos|vous aimerez (?:peut-[êe]tre )?aussi|(?:[àa] )?lire aussi|articles similaires|sur le m[êe]me sujet|das k[öo]nnte (?:sie|dich) auch interessieren|(?:lesen sie|lies) auch|(?:[äa]hnliche|weitere|verwandte) artikel|mehr zum thema|(?:ti )?potrebbe(?:ro)? interessart?i|ti potrebbe interessare|leggi anche|articoli correlati|(?:lees|bekijk) ook|gerelateerde artikelen|читайте также|похожие (?:статьи|новости|записи|материалы)|вам (?:также )?может (?:быть интересно|понравиться))\s*(?::|\.{3}|…)?$/iu;

/** Whether a heading's whole text names a rail, in English or another language. */
export const isRailHeading = (text: string): boolean =>
  RAIL_HEADING.test(text) || RAIL_HEADING_ELSEWHERE.test(text);

/** Text of a rail besides its heading under which it is a rail whatever its links (a rail a script never filled). */
const RAIL_TEXT_MAX = 400;
const TITLE = "h1";
const LINK = new Set(["a"]);
/** Rail headings looked at on a page at most, and levels climbed from each: a page of them costs no more. */
const MAX_RAILS = 16;
const MAX_CLIMB = 16;
/** Elements a rail holds at most. */
const RAIL_ELEMENTS_MAX = 2_000;

/** The rank of a heading element: 1 for h1 ... 6 for h6. */
const rank = (el: Element): number => Number(el.name[1]);

/**
 * Whether `el` may go as the rail `heading` heads: it does not hold the page's title nor another
 * heading of the rail's rank or higher, nothing with text comes before the rail's heading in it,
 * and what it holds besides the heading is no prose, and short or mostly links (the cards of
 * other products).
 */
function railHolds(el: Element, heading: Element, stats: TextStats, headingText: number): boolean {
  // A block of prose under the heading is the page's own, however it is headed.
  if (stats.paras > 0) return false;
  const rest = stats.text - headingText;
  if (rest > RAIL_TEXT_MAX && stats.link * 2 < rest) return false;
  let first: Element | null = null;
  let blocked = false;
  let budget = RAIL_ELEMENTS_MAX;
  const visit = (node: Element): void => {
    for (const child of node.children as AnyNode[]) {
      if (blocked) return;
      // Text before the rail's heading is something else's (a short story the rail follows).
      if (child.type === "text" && first === null && child.data.trim()) blocked = true;
      if (!isElement(child) || child.type !== "tag") continue;
      // A rail is a few cards: a block of thousands of elements is something else.
      if (--budget < 0) blocked = true;
      else if (HEADING_TAGS.has(child.name)) {
        first ??= child;
        if (child !== heading && (child.name === TITLE || rank(child) <= rank(heading))) blocked = true;
      } else visit(child);
    }
  };
  visit(el);
  return !blocked && first === heading;
}

/**
 * Drops the rails of other products or posts by what heads them ("People who viewed this item
 * also viewed", "Similar items", "You may also like"), in both modes: the largest element around
 * such a heading that starts with it, holds no other heading of its rank or above, no prose, and
 * besides the heading little text or mostly links; or, laid out flat, the heading and the
 * link-only blocks after it. A heading whose rail lies elsewhere stays, unless nothing follows it.
 * Rails whose cards show prices go as grids on product pages already (product-grid.ts); these are
 * the ones a script fills (empty in the saved page but for the heading and a "See all"), or whose
 * cards show no price.
 */
export function dropRelatedRails(body: Element): void {
  const headings: Element[] = [];
  const find = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      if (HEADING_TAGS.has(child.name)) {
        if (child.name !== TITLE && isRailHeading(textOf(child))) headings.push(child);
      } else find(child);
    }
  };
  find(body);
  if (!headings.length) return;
  const stats = measure(body);
  const doomed = new Set<Element>();
  for (const heading of headings.slice(0, MAX_RAILS)) {
    const headingText = stats.get(heading)?.text ?? 0;
    let rail: Element = heading;
    let climbed = 0;
    for (let up = heading.parent; up && isElement(up) && up !== body && climbed < MAX_CLIMB; up = up.parent) {
      const s = stats.get(up);
      if (!s || !railHolds(up, heading, s, headingText)) break;
      rail = up;
      climbed++;
    }
    // A rail laid out flat: the heading, then its cards as siblings holding nothing but links.
    const cards = rail === heading ? linkSiblings(heading, stats) : [];
    const holds = (stats.get(rail)?.text ?? 0) > headingText || cards.length > 0;
    // A heading alone whose rail lies elsewhere stays with it, unless nothing follows (an empty rail).
    if (!holds && textAfter(rail, body, stats)) continue;
    doomed.add(rail);
    for (const card of cards) doomed.add(card);
  }
  for (const el of doomed) if (el.parent) removeNode(el);
}

/** Whether visible text follows `el` inside `body`. */
function textAfter(el: Element, body: Element, stats: Measured): boolean {
  for (let node: Element | null = el; node && node !== body; node = node.parent as Element | null) {
    for (let next = node.next; next; next = next.next) {
      if (
        next.type === "text" ? next.data.trim() !== "" : isElement(next) && (stats.get(next)?.text ?? 0) > 0
      )
        return true;
    }
  }
  return false;
}

/** The elements right after `heading` that hold links and no text outside them, up to the next heading or text. */
function linkSiblings(heading: Element, stats: Measured): Element[] {
  const cards: Element[] = [];
  for (let next = heading.next; next; next = next.next) {
    if (next.type === "text") {
      if (next.data.trim()) break;
      continue;
    }
    if (!isElement(next)) continue;
    const s = stats.get(next);
    if (HEADING_TAGS.has(next.name) || !s || s.text !== s.link) break;
    if (next.name !== "a" && !hasDescendant(next, LINK)) break;
    cards.push(next);
  }
  return cards;
}

import { Text } from "domhandler";
import { joinLabelRow } from "./label-rows.ts";
import { type AnyNode, BLOCK_TAGS, type Element, isElement } from "./nodes.ts";

/** Elements whose text is kept exactly as written. */
const VERBATIM = new Set(["pre", "code", "kbd", "samp", "textarea", "script", "style"]);

/**
 * The end of one element's text and the start of the next's that a stylesheet must have set apart:
 * a word or number, then a capitalised word or a price ("$19.99" beside "$29.99", "now" beside "€5").
 */
const WORD_END = /(?:\p{L}\p{Ll}|\p{Lu}{2}|\p{N}|\p{L}:)$/u;
const WORD_START = /^(?:\p{Lu}(?:\p{L}|\s|$)|\p{Sc}\s?\p{N})/u;

/**
 * A subscript is set against the text beside it ("H<sub>2</sub>O", "H<sub>2</sub>SO<sub>4</sub>"):
 * its edges never part words. A superscript may be a note's mark before its text
 * ("<sup>2</sup>Master of Science"), which is parted like any element.
 */
const ATTACHED = new Set(["sub"]);

/** The text node at the very end (`last`) or start of `el`'s content, empty ones skipped. */
function edgeText(el: Element, last: boolean): string | null {
  if (ATTACHED.has(el.name)) return null;
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

/** The text at the end (`last`) or start of a node: an inline element's, or a text node's own. */
function nodeEdge(node: AnyNode, last: boolean): string | null {
  if (node.type === "text") return (node as Text).data;
  return isElement(node) && !BLOCK_TAGS.has(node.name) ? edgeText(node, last) : null;
}

/**
 * An inline element and its neighbour (element or text) whose texts run into each other:
 * "Merrell" + "Moab 3" as "MerrellMoab 3", "On" + "Cloudrock", a price and its "Was $154.95",
 * a label and its value ("Developed By:" + "Valve"); two option tiles (`<label>`s of a pack-size
 * choice: "Single" + "4-Pack"). Two text nodes never touch in a parsed page.
 */
function abut(prev: AnyNode, next: AnyNode, items: boolean): boolean {
  if (!isElement(prev) && !isElement(next)) return false;
  const end = nodeEdge(prev, true);
  // Option tiles side by side ("Single", "4-Pack", "8-Pack"), an element its own style lays out
  // as a block, and two elements of a flex or grid container (each a box of its own: a facet's
  // name and its count, "Adhesives" and "704") are parted whatever their text.
  const apart =
    (isTile(prev) && isTile(next)) ||
    labelBesideValue(prev, next) ||
    styledBlock(prev) ||
    styledBlock(next) ||
    (items && isElement(prev) && isElement(next));
  if (end === null || !(apart ? /\S$/.test(end) : WORD_END.test(end))) return false;
  const start = nodeEdge(next, false);
  if (start === null) return false;
  return apart ? /^\S/.test(start) : WORD_START.test(start) || numbersMeet(end, start);
}

/** Class words of a row's label and of its value, as a stylesheet names the two boxes it draws. */
const LABEL_CLASS = /(?:^|[\s_-])(?:label|name|key|term|title|heading)(?:$|[\s_-])/i;
const VALUE_CLASS = /(?:^|[\s_-])(?:values?|val|data|desc|description|definition|details?)(?:$|[\s_-])/i;

/**
 * A label's box beside its value's, named so by their classes (eBay's `details_name` beside
 * `details_value`, `spec-label` beside `spec-value`): "ISBN-13" + "9780544103054" or "Publication
 * Year" + "2013" are two boxes, whatever their texts' edges look like.
 */
function labelBesideValue(prev: AnyNode, next: AnyNode): boolean {
  if (!isElement(prev) || !isElement(next)) return false;
  const label = prev.attribs.class;
  const value = next.attribs.class;
  return label !== undefined && value !== undefined && LABEL_CLASS.test(label) && VALUE_CLASS.test(value);
}

/**
 * A number, then a number with more than digits after it: a price and its saving ("€98" +
 * "9% Pack Savings"), a date and a time ("Nov 15, 2019" + "5:45 AM"), a year and a running time
 * ("1994" + "2h 22m"), a year and its notes' marks ("2019<sup>12,13</sup>"). Joined they read as
 * another number. Digits alone after a number may continue it (a price's cents drawn apart, "$4"
 * + "99"; a counter drawn a digit a box; a power, "10<sup>6</sup>"): those stay as written.
 */
function numbersMeet(end: string, start: string): boolean {
  return NUMBER_END.test(end) && NUMBER_START.test(start) && !DIGITS.test(start);
}
const NUMBER_END = /\p{N}$/u;
const NUMBER_START = /^\p{N}/u;
const DIGITS = /^\s*\p{N}+\s*$/u;

/** A class or an inline style laying a box out inline: Tailwind's `inline`, Bootstrap's `d-inline`, Webflow's `u-d-inline`. */
const INLINE_CLASS = /(?:^|\s)(?:[a-z0-9]{1,8}-)?(?:d-)?inline(?:-block|-flex)?(?:$|\s)/;
const INLINE_STYLE = /(?:^|;)\s*display\s*:\s*inline(?:-block|-flex)?\s*(?:!important\s*)?(?:;|$)/i;

/**
 * A `<div>` its class or style draws inline: a person's title, its comma and their company as three
 * such boxes ("VP Digital Marketing" "," "Walker & Dunlop") are one line on the page, and read as
 * three paragraphs. Blocks inside it (paragraphs, lists) stay blocks of their own.
 */
function drawnInline(el: Element): boolean {
  const { class: cls, style } = el.attribs;
  return (cls !== undefined && INLINE_CLASS.test(cls)) || (style !== undefined && INLINE_STYLE.test(style));
}

/** An inline style laying an element out as a block of its own (`<span style="display:block">`). */
const BLOCK_DISPLAY =
  /(?:^|;)\s*display\s*:\s*(?:block|flex|grid|table|list-item)\s*(?:!important\s*)?(?:;|$)/i;
const styledBlock = (node: AnyNode): boolean => {
  const style = isElement(node) ? node.attribs.style : undefined;
  return style !== undefined && BLOCK_DISPLAY.test(style);
};

/**
 * A container laying its children out as flex or grid items, which CSS makes boxes of their own
 * however inline their tags: by its inline style, or by a utility class of the frameworks that
 * name the layout (Tailwind's `flex`, `inline-flex`, `grid`; Bootstrap's `d-flex`, `d-grid`),
 * at a breakpoint too (`md:flex`, `d-md-flex`).
 */
const ITEMS_DISPLAY = /(?:^|;)\s*display\s*:\s*(?:inline-)?(?:flex|grid)\s*(?:!important\s*)?(?:;|$)/i;
const ITEMS_CLASS =
  /(?:^|\s)(?:[\w-]+:)?(?:(?:inline-)?(?:flex|grid)|d-(?:(?:sm|md|lg|xl|xxl)-)?(?:inline-)?(?:flex|grid))(?:$|\s)/;
function laysOutItems(el: Element): boolean {
  const { class: cls, style } = el.attribs;
  return (cls !== undefined && ITEMS_CLASS.test(cls)) || (style !== undefined && ITEMS_DISPLAY.test(style));
}

/** Controls a page draws as tiles of their own: a choice's `<label>`, a button. */
const TILES = new Set(["label", "button"]);
const isTile = (node: AnyNode): boolean => isElement(node) && TILES.has(node.name);

const isBreak = (node: AnyNode | undefined): node is Element =>
  node !== undefined && isElement(node) && node.name === "br";
const isBlankText = (node: AnyNode | undefined): boolean =>
  node?.type === "text" && !/\S/.test((node as Text).data);

/** Sets the sibling links (and parent) of `parent`'s children from their order. */
function relink(parent: Element, kids: AnyNode[]): void {
  parent.children = kids as typeof parent.children;
  kids.forEach((kid, i) => {
    kid.parent = parent;
    kid.prev = kids[i - 1] ?? null;
    kid.next = kids[i + 1] ?? null;
  });
}

const NONE: Element[] = [];

/**
 * Takes the line breaks ending (`last`) or starting `el`'s content out of it, in document order;
 * blank text between them stays. One pass and one rebuild of the children, however many breaks.
 */
function takeEdgeBreaks(el: Element, last: boolean): Element[] {
  const kids = el.children;
  const taken: Element[] = [];
  const step = last ? -1 : 1;
  for (let i = last ? kids.length - 1 : 0; i >= 0 && i < kids.length; i += step) {
    const kid = kids[i];
    if (isBreak(kid)) taken.push(kid);
    else if (!isBlankText(kid)) break;
  }
  if (!taken.length) return NONE;
  if (last) taken.reverse();
  const gone = new Set<AnyNode>(taken);
  relink(
    el,
    kids.filter((kid) => !gone.has(kid)),
  );
  return taken;
}

/**
 * Moves the line breaks at the start and end of `parent`'s inline children to just outside them
 * (`<span>bestseller<br></span>` is `<span>bestseller</span><br>`): it reads the same, and
 * turndown trims an inline element's content when it has a space at an edge, dropping a
 * break there ("bestsellerUSA Today" where the page shows two lines).
 */
function hoistEdgeBreaks(parent: Element): void {
  const kids = parent.children;
  let out: AnyNode[] | null = null;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    const inline = isElement(kid) && !BLOCK_TAGS.has(kid.name) && !VERBATIM.has(kid.name);
    const before = inline ? takeEdgeBreaks(kid, false) : NONE;
    const after = inline ? takeEdgeBreaks(kid, true) : NONE;
    // The children are copied once, with every break moved, rather than spliced at each.
    if (before.length || after.length) out ??= kids.slice(0, i);
    if (out) out.push(...before, kid, ...after);
  }
  if (out) relink(parent, out);
}

/**
 * Sets apart the texts of children of `el` that touch in the markup but not on the screen: a
 * product card's brand and name (`<span>Merrell</span><span>Moab 3</span>`), a row of badges
 * ("Genuine Part", "Lifetime Guarantee"), a bold lead-in and its sentence, a label and its value
 * ("By:<span>Valve</span>"), which a stylesheet lays out as blocks or with gaps. Without a space
 * between them markdown and text read one word ("PartLifetime", "HOKAKaha"). Only at an inline
 * element's edge, where a word of two letters or more ending in lower case or in capitals, a
 * number or a label's colon ends one side and a capital letter starts a word on the other: that
 * is two words in any script with case, where one word split by markup ("<b>W</b>ord",
 * "<em>run</em>ning", "i<b>Phone</b>") never is. Scripts without case (Japanese beside a Latin
 * name) are left as written: their spacing is the author's.
 */
function separateAbuttingWords(el: Element): void {
  const kids = el.children;
  let out: AnyNode[] | null = null;
  const items = laysOutItems(el);
  for (let i = 1; i < kids.length; i++) {
    // The children are copied once, with every space, rather than spliced at each (quadratic).
    if (abut(kids[i - 1]!, kids[i]!, items)) {
      out ??= kids.slice(0, i);
      out.push(new Text(" "));
    }
    out?.push(kids[i]!);
  }
  if (out) relink(el, out);
}

/**
 * Inline markup read as a reader sees it, for markdown and text: a label row's boxes are one line,
 * line breaks at an inline element's edges go outside it, and the words of inline elements laid
 * out apart are set apart.
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
  // A box its class or style lays out inline is a run of its line, as a span is (children first:
  // a box of such boxes holds spans by the time it is asked).
  for (let i = order.length - 1; i >= 0; i--)
    if (order[i]!.name === "div" && drawnInline(order[i]!)) order[i]!.name = "span";
  // A label and its value drawn as a row's boxes read as one line (label-rows.ts); a joined row's
  // insides are its label and value, not rows of their own.
  const joined = new Set<AnyNode>();
  for (const el of order) if ((el.parent && joined.has(el.parent)) || joinLabelRow(el)) joined.add(el);
  // Children first, so that a break leaves nested elements one level at a time.
  for (let i = order.length - 1; i >= 0; i--) hoistEdgeBreaks(order[i]!);
  for (const el of order) separateAbuttingWords(el);
}

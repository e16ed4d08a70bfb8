import { WORD_CHAR } from "./hidden.ts";
import { JUNK_WORDS } from "./junk-words.ts";
import {
  type Element,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  smallTextOf,
  someDescendant,
  visibleTextLength,
} from "./nodes.ts";
import { isDataTable } from "./stats.ts";

/** Elements that draw a picture: a link holding one is the picture's (a photo's lightbox). */
export const IMAGES = new Set(["img", "picture"]);

/**
 * A panel a click opens: a drawer slides open, a modal covers the page. Either is named so whether
 * it holds a menu, a cart, a sign-up form or a section of the page (a product's details).
 */
const PANEL_WORD = /(?:^|[\s_-])(?:drawers?|modal)(?=$|[\s_-])/;
export const PANEL_WORDS = new RegExp(PANEL_WORD.source, "g");
const MODAL_WORD = /(?:^|[\s_-])modal(?=$|[\s_-])/;
/** What a dialog shows beside what it says: its close button, a field, a choice. */
export const DIALOG_CONTROLS = new Set(["button", "input", "select", "textarea", "form"]);
/** Words naming an overlay: on a link, the overlay it opens (a product's details, a photo's lightbox). */
const OVERLAY_WORDS = /(?:^|[\s_-])(?:popup|pop-up|modal|dialog|lightbox|flyout|tooltip)(?=$|[\s_-])/g;

/**
 * A link to a page, named for the overlay it opens rather than being one: a
 * name inside a line of text ("(500g) <a class=product-modal>Bread
 * Flour</a>") or a photo ("lightbox") is the content's, when no other junk
 * word names it. A link standing alone with words only is a button.
 */
export function opensOverlay(el: Element, words: string): boolean {
  const href = el.name === "a" ? el.attribs.href?.trim() : undefined;
  if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return false;
  if (JUNK_WORDS.test(words.replace(OVERLAY_WORDS, " "))) return false;
  return hasDescendant(el, IMAGES) || hasTextBeside(el);
}

/**
 * Whether words stand beside the element in its parent (the line it is part of): among the few
 * siblings on either side, so a parent of thousands of empty links costs a few steps for each; a
 * large sibling surely holds words.
 */
function hasTextBeside(el: Element): boolean {
  for (const step of ["prev", "next"] as const) {
    let sibling = el[step];
    for (let i = 0; sibling && i < BESIDE_SIBLINGS; i++, sibling = sibling[step]) {
      const text =
        sibling.type === "text" ? sibling.data : isElement(sibling) ? smallTextOf(sibling, BESIDE_NODES) : "";
      if (text === null || WORD_CHAR.test(text)) return true;
    }
  }
  return false;
}
const BESIDE_SIBLINGS = 8;
const BESIDE_NODES = 200;

/** Prose under a panel's heading from which it is a section (an accordion's answer), not a cart's "Your cart is empty". */
const SECTION_PROSE = 80;
/** Elements read at most in a panel for its heading, prose and controls: a section is small. */
const PANEL_NODES = 400;

/**
 * A panel that is a section of the page: a heading over prose or over a
 * data table (an FAQ's question and answer, a table of figures, a product's
 * details), which a site menu or a cart drawer does not hold. Only inside
 * the page's article or main area (a cart or menu drawer sits in the site's
 * chrome), and when "drawer" or "modal" is the one junk word in its name. A
 * modal holding a control (a close button, a field) is a dialog, whatever
 * it says; one without is the page's copy of what the dialog shows, there
 * to be read (a product's details, rendered in the page for readers
 * without scripts).
 */
export function isPanelSection(el: Element, words: string): boolean {
  if (!PANEL_WORD.test(words) || JUNK_WORDS.test(words.replace(PANEL_WORDS, " "))) return false;
  const modal = MODAL_WORD.test(words);
  let nodes = 0;
  let heading = false;
  let prose = 0;
  let table = false;
  let control = false;
  // One walk, node-budgeted: a section is small, and nested panels are each read once more at most.
  const found = someDescendant(el, (d) => {
    if (++nodes > PANEL_NODES) return true;
    if (HEADING_TAGS.has(d.name)) heading = true;
    else if (d.name === "p" && prose < SECTION_PROSE) prose += visibleTextLength(d, SECTION_PROSE - prose);
    else if (d.name === "table" && !table) table = isDataTable(d);
    else if (modal && DIALOG_CONTROLS.has(d.name)) control = true;
    // A modal is read to its end for a control; a drawer's walk ends with its section found.
    return control || (!modal && heading && (prose >= SECTION_PROSE || table));
  });
  if (found) return !control && nodes <= PANEL_NODES;
  return heading && !control && (prose >= SECTION_PROSE || table);
}

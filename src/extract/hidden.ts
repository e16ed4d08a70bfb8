import {
  type Element,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  nameWords,
  previousElement,
  someDescendant,
  textOf,
  visibleTextLength,
} from "./nodes.ts";

/**
 * What the page hides, for cleaning (clean.ts): an element hidden by an attribute, an inline
 * style, `aria-hidden` where it takes text off the screen, or a utility class (screen-reader text
 * among them), unless it is an inactive tab panel or too large to be anything but content a
 * script reveals.
 */

/** Inline styles that hide an element. */
const HIDDEN_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * Hidden elements are dropped, except large ones: those are content a script
 * swaps in or reveals (streamed page sections, tabs, accordions), which is
 * what the page is about.
 */
export function isHiddenChrome(el: Element): boolean {
  // An inactive tab is hidden until clicked: its text (a product's specifications) is the page's.
  if (isTabPanel(el)) return false;
  if (hiddenByClass(el)) return true;
  if (!isHidden(el)) return false;
  // Hidden microdata blocks repeat the visible article for search engines.
  if (el.attribs.itemscope !== undefined) return true;
  // A closed accordion's section is hidden until its heading is clicked: its text is the page's.
  if (isAccordionSection(el)) return false;
  return visibleTextLength(el, HIDDEN_CONTENT) < HIDDEN_CONTENT;
}

const SECTION_CONTENT = new Set(["p", "ul", "ol", "table", "dl"]);

/** Class or id words of an accordion's toggle: its opener icon (`toggler`, `expand-icon`) or the heading itself. */
const TOGGLE_WORDS =
  /(?:^|[\s_-])(?:toggle|toggler|expander|expand|collapse|collapsible|accordion)(?:$|[\s_-])/;

/**
 * A closed accordion's section: right after a heading that holds (or is) its toggle, an element
 * saying whether it is expanded (the WAI-ARIA accordion: `<h3><button aria-expanded="false">Weight
 * </button></h3><div hidden><p>...`) or one named for it (a shop's FAQ: `<h3>Can it be used
 * outdoors? <span class="toggler"><svg>`), holding paragraphs, lists or a table. A menu's toggle
 * opens a hidden list of links under a button, not under a heading.
 */
function isAccordionSection(el: Element): boolean {
  const before = previousElement(el);
  if (!before || !HEADING_TAGS.has(before.name)) return false;
  const toggle = (node: Element) =>
    node.attribs["aria-expanded"] !== undefined || TOGGLE_WORDS.test(nameWords(node));
  return (
    (toggle(before) || someDescendant(before, toggle)) &&
    someDescendant(el, (d) => SECTION_CONTENT.has(d.name))
  );
}

const HIDDEN_CONTENT = 1000;

/** Class words of tab panels. */
const PANEL_WORDS = /(?:^|[\s_-])(?:tab-?pane|tab-?panel|tabpanel|tabs?[_-]{1,2}content)(?:$|[\s_-])/i;

/** A tab panel, which a click on its tab reveals. */
export function isTabPanel(el: Element): boolean {
  const a = el.attribs;
  return a.role === "tabpanel" || (a.class !== undefined && PANEL_WORDS.test(a.class));
}

/**
 * Utility classes spelling out the style that hides (`display-none`, `visibility-hidden`, behind a
 * prefix too: Quora's `qu-display--none`, `bbccom_display_none`), which scripts toggle as they do
 * the style: judged as the inline style is. Not `display-none-print` or `-desktop`, which hide in
 * one medium only, nor `overflow--hidden`, which clips.
 */
const HIDING_STYLE_CLASS =
  /(?:^|\s)(?:[a-z0-9]{1,8}[_-]{1,2})?(?:display[_-]{1,2}none|visibility[_-]{1,2}hidden)(?:$|\s)/;

function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  const style = a.style;
  if (style !== undefined && HIDDEN_STYLE.test(style)) return true;
  if (a.class !== undefined && HIDING_STYLE_CLASS.test(a.class)) return true;
  return a["aria-hidden"] === "true" && ariaHiddenIsOff(el);
}

/** Elements that aria-hidden closes rather than merely hides from screen readers. */
const OVERLAYS = new Set(["aside", "dialog"]);

/** A letter or digit in any script: what makes text words rather than symbols. */
export const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Stars drawn as text (a rating's "★★★★☆"): symbols a reader reads, unlike an anchor's "#". */
export const RATING_STARS = /[\u2605\u2606\u2729-\u272f\u2b50\u2bea\u2beb]/u;

/**
 * aria-hidden hides from screen readers only, and its text stays on screen
 * (a star rating's "4.5 out of 5 stars", or its "★★★★☆"). It is off the
 * page's text on a drawer or dialog (a closed one), on a symbol with no words
 * (a heading's "#" anchor, an icon) other than stars, and on the drawn twin
 * of math whose MathML is beside it.
 */
function ariaHiddenIsOff(el: Element): boolean {
  if (OVERLAYS.has(el.name) || el.attribs.role === "dialog") return true;
  const text = textOf(el);
  if (!WORD_CHAR.test(text)) return !RATING_STARS.test(text);
  const parent = el.parent;
  return parent !== null && isElement(parent) && hasDescendant(parent, MATH);
}

const MATH = new Set(["math"]);

/**
 * Utility classes that hide an element in every layout ("hide", "d-none",
 * "sr-only"). Unlike a script's `hidden` or `display:none`, a class is the
 * stylesheet's standing decision: whatever its size, the element is a data
 * dump, a collapsed duplicate or text for screen readers only. Not when a
 * breakpoint class shows it again ("hidden md:flex", "d-none d-lg-block").
 */
function hiddenByClass(el: Element): boolean {
  const cls = el.attribs.class;
  if (cls === undefined || SHOWN_AT_WIDTH.test(cls)) return false;
  if (HIDDEN_CLASS.test(cls) || SCREEN_READER_CLASS.test(cls)) return true;
  return (
    el.name === "span" &&
    SCREEN_READER_RUN.test(cls) &&
    visibleTextLength(el, SCREEN_READER_TEXT) < SCREEN_READER_TEXT
  );
}

const SHOWN_AT_WIDTH =
  /(?:^|\s)(?:(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-(?:sm|md|lg|xl|xxl)-(?:block|flex|grid|inline|inline-block|inline-flex|table))(?:$|\s)/;
/**
 * The classes of "hidden everywhere" and of text for screen readers only, by
 * the names frameworks and large sites give them: Bootstrap's and Tailwind's
 * sr-only, HTML5 Boilerplate's visuallyhidden, WordPress's
 * screen-reader-text and assistive-text, Drupal's element-invisible,
 * Foundation's show-for-sr, SUIT's u-visually-hidden, eBay's clipped,
 * Amazon's a-offscreen. A shop's price or condition is often printed twice,
 * once drawn and once for screen readers ("EUR 20.99 EUR 20.99").
 */
const HIDDEN_CLASS =
  /(?:^|\s)(?:hide|hidden|d-none|is-hidden|invisible|u-hidden|visually-hidden|visuallyhidden|u-visually-hidden|hidden-visually|sr-only|screen-reader-text|screen-reader-only|screenreader-only|assistive-text|element-invisible|show-for-sr|a-offscreen)(?:$|\s)/;

/**
 * The same screen-reader classes behind a design system's prefix or in camel case: `u-sr-only`,
 * `h-sr-only` (Target), `u-srOnly` and `is-srOnly` (XenForo), `v6-visually-hidden`,
 * `geist-sr-only`. Not Tailwind's `not-sr-only`, which undoes it.
 */
const SCREEN_READER_CLASS =
  /(?:^|\s)(?!not-)(?:[a-z0-9]{1,8}-)?(?:sr-?only|visually-?hidden|hidden-visually|screen-?reader-text|screen-?reader-only)(?:$|\s)/i;

/**
 * eBay's `clipped` and the bare `offscreen` also name text truncated behind a "Show more" or a
 * slide off to one side: they hide only a short run of inline text, as screen-reader text is.
 */
const SCREEN_READER_RUN = /(?:^|\s)(?:clipped|offscreen)(?:$|\s)/;
const SCREEN_READER_TEXT = 80;

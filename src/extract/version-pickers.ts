import { type Element, isElement, smallTextOf, wordsOf } from "./nodes.ts";

/** What a version switcher's link shows: a release number ("18", "9.6", "v2.1.0") or a channel's name. */
const VERSION = /^(?:v?\d+(?:\.\d+){0,3}[a-z]?|devel|dev|latest|stable|current|nightly|lts)$/i;
/** Links of versions from which a line is a switcher ("17 / 16 / 15"): two could be a sentence's pair. */
const MIN_VERSIONS = 3;
/** Words a switcher's label has outside its links ("Supported Versions: Current"). */
const LABEL_WORDS = 4;
/** Children read at most: a line of links, not a section of the page. */
const MAX_CHILDREN = 200;
/** Elements a switcher's line is drawn in: not a link, and not a table's cell (a compatibility table's "3.10 3.11 3.12" is data). */
const LINE = new Set([
  "div",
  "p",
  "span",
  "li",
  "dd",
  "small",
  "section",
  "nav",
  "header",
  "footer",
  "aside",
]);
/** Nodes read at most in a child that is not a link, for its words. */
const CHILD_NODES = 16;

/**
 * A documentation site's version switcher drawn as a line of links: "Supported Versions: Current
 * (18) / 17 / 16 / 15 / 14" above every page of PostgreSQL's manual, "Other versions: 3.12 | 3.11 |
 * 3.10" on others. Navigation to the same page in other releases, not the page's text; it reads as
 * text to the link-density rules, as its numbers are shorter than its label. Only the element's own
 * children are read (at most 200), so asking of every element costs little: at least three of them
 * are links each showing a version and nothing else, every other link shows one too, and a label of
 * at most four words is all the text around them (a sentence citing "versions [1], [2] and [3] of
 * the standard" has more). Links inside a child (a `<span>` around each) are not looked into.
 */
export function isVersionPicker(el: Element): boolean {
  const children = el.children;
  if (children.length < MIN_VERSIONS || children.length > MAX_CHILDREN || !LINE.has(el.name)) return false;
  let links = 0;
  for (const child of children) if (isElement(child) && child.name === "a") links++;
  if (links < MIN_VERSIONS) return false;
  let versions = 0;
  let words = 0;
  for (const child of children) {
    if (child.type === "text") words += wordsOf(child.data).length;
    else if (isElement(child)) {
      const text = smallTextOf(child, CHILD_NODES);
      if (text === null) return false;
      if (child.name === "a") {
        if (!VERSION.test(text)) return false;
        versions++;
      } else words += wordsOf(text).length;
    }
    if (words > LABEL_WORDS) return false;
  }
  return versions >= MIN_VERSIONS;
}

import {
  type AnyNode,
  contains,
  type Element,
  firstElement,
  forEachElement,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  textLength,
  textOf,
  visibleTextLength,
  wordsOf,
} from "./nodes.ts";
import { precedes } from "./product-header.ts";
import { isNamedMeta } from "./trims.ts";

/** Share of a heading's words the page's title must hold for the heading to be the title shown. */
const TITLE_WORDS_SHARE = 0.6;
/** Text up to which the element right after the title is its subtitle (a dek), not the story. */
const SUBTITLE_MAX = 300;
const SUBTITLE_MIN = 20;
const SUBTITLE_TAGS = new Set(["p", "h2"]);
const LINKS = new Set(["a"]);
/** Text between a heading and the content below which the heading is the content's title (a photo's caption, a byline). */
const NEAR_TEXT = 500;
/** A byline or dateline after a title is the article's metadata, which main content leaves out. */
const BYLINE = /^(?:by|posted|published|updated|written)\b|\b\d{4}\b.*\b\d{1,2}:\d{2}\b/i;

/** True when `heading` says what the page's title says (the title may add the site's name). */
export function isTitleHeading(heading: string, pageTitle: string): boolean {
  const said = wordsOf(heading);
  if (said.length === 0) return false;
  const title = new Set(wordsOf(pageTitle));
  return said.filter((word) => title.has(word)).length >= TITLE_WORDS_SHARE * said.length;
}

/** What sites put between a page's title and their own name in `<title>`. */
const TITLE_SEPARATOR = /\s+[|\-–—·»:]{1,2}\s+/;

/** The site's name as `<title>` gives it beside the page's own title: every part but the longest. */
function siteNames(pageTitle: string): string[] {
  const parts = pageTitle.split(TITLE_SEPARATOR).filter((part) => wordsOf(part).length > 0);
  if (parts.length < 2) return [];
  const longest = parts.reduce((a, b) => (wordsOf(b).length > wordsOf(a).length ? b : a));
  return parts.filter((part) => part !== longest);
}

/** A site's logo set in an h1: all of its text links to the site's front page. */
function isLogo(h1: Element): boolean {
  let linked = false;
  forEachElement(h1, (el) => {
    if (el.name === "a" && /^(?:\/|https?:\/\/[^/]+\/?)$/.test(el.attribs.href?.trim() ?? "")) linked = true;
  });
  return linked && h1.children.every((child) => child.type !== "text" || !child.data.trim());
}

/** Two headings that say the same: each holds most of the other's words. */
function sameWords(a: string, b: string): boolean {
  return isTitleHeading(a, b) && isTitleHeading(b, a);
}

/** The node after `node`'s subtree in document order. */
function following(node: AnyNode): AnyNode | null {
  for (let cur: AnyNode | null = node; cur; cur = cur.parent) if (cur.next) return cur.next;
  return null;
}

/** Visible text between the end of `from` and the start of `to`, counted up to just past `cap`. */
function textBetween(from: Element, to: Element, cap: number): number {
  let n = 0;
  let node = following(from);
  while (node && node !== to && n <= cap) {
    if (isElement(node) && contains(node, to)) {
      node = node.children[0] ?? following(node);
      continue;
    }
    if (node.type === "text") n += textLength(node);
    else if (isElement(node) && node.type === "tag") n += visibleTextLength(node, cap - n);
    node = following(node);
  }
  return n;
}

/** The dek right after the title heading, when there is one. */
function subtitleOf(h1: Element): Element | null {
  let next = h1.next;
  while (next && next.type === "text" && !next.data.trim()) next = next.next;
  if (next?.type !== "tag") return null;
  const el = next as Element;
  if (!SUBTITLE_TAGS.has(el.name)) return null;
  const text = textOf(el);
  // A dek is a sentence of its own; a line of links ("Started by miri in Bread") is the page's metadata.
  if (text.length < SUBTITLE_MIN || text.length > SUBTITLE_MAX || BYLINE.test(text)) return null;
  // Named a byline ("Tom Krisher, AP Auto Writer" in `p.byline`), it is the metadata too.
  if (isNamedMeta(el)) return null;
  if (hasDescendant(el, LINKS)) return null;
  return el;
}

/**
 * The page's title as it shows it, when main content (`roots`) starts below
 * it: the body's first h1, if it comes before the content and either says
 * what the page's `<title>` says or stands right above the content (a site's
 * name in an h1 does neither), and the content holds no heading that says it
 * already; with the subtitle right after it. Readers, and Firecrawl's and Jina's markdown, start with the title.
 */
export function titleHeading(body: Element, roots: Element[], pageTitle: string): Element[] {
  const first = roots[0];
  if (!first || !pageTitle) return [];
  const title = firstElement(body, "h1");
  if (!title || roots.some((root) => contains(root, title) || contains(title, root))) return [];
  if (!precedes(title, first) || isLogo(title)) return [];
  const shown = textOf(title);
  if (siteNames(pageTitle).some((name) => sameWords(name, shown))) return [];
  // Said by the page's <title>, or right above the content (a site's name in an h1 is neither).
  if (!isTitleHeading(shown, pageTitle) && textBetween(title, first, NEAR_TEXT) > NEAR_TEXT) return [];
  // The content may show the title itself, lower down or at another level.
  let stated = false;
  for (const root of roots) {
    if (HEADING_TAGS.has(root.name) && sameWords(textOf(root), shown)) stated = true;
    forEachElement(root, (el) => {
      if (!stated && HEADING_TAGS.has(el.name) && sameWords(textOf(el), shown)) stated = true;
    });
  }
  if (stated) return [];
  const subtitle = subtitleOf(title);
  return subtitle && !roots.some((root) => contains(root, subtitle)) ? [title, subtitle] : [title];
}

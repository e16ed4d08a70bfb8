import type { AnyNode, Element, ParentNode, Text } from "domhandler";
import { withoutPostTerms } from "./post-terms.ts";
import { isTextSlug } from "./slug-ids.ts";

export type { AnyNode, Element, ParentNode, Text };

/**
 * Small helpers over the htmlparser2 (domhandler) tree. The extraction steps
 * walk the tree directly instead of through cheerio wrappers: wrapping every
 * node costs more than the work done on it.
 */

/** True for elements, including `<script>` and `<style>` which htmlparser2 types apart. */
export function isElement(node: AnyNode): node is Element {
  return node.type === "tag" || node.type === "script" || node.type === "style";
}

/** Elements that start a new block of text: their text never runs into a neighbour's. */
export const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "li",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

export const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

const TABLE_SECTIONS = new Set(["thead", "tbody", "tfoot"]);

const CELL_NAMES = new Set(["td", "th"]);

/** A table row's cells, in order. */
export function rowCells(row: Element): Element[] {
  return row.children.filter((c): c is Element => isElement(c) && CELL_NAMES.has(c.name));
}

/** A table's own rows (not a nested table's), in order: its direct rows and those of its sections. */
export function tableRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    if (!isElement(child)) continue;
    if (child.name === "tr") rows.push(child);
    else if (TABLE_SECTIONS.has(child.name))
      for (const row of child.children) if (isElement(row) && row.name === "tr") rows.push(row);
  }
  return rows;
}

/** Links in `el`, itself included. */
export function linkCount(el: Element): number {
  let links = el.name === "a" ? 1 : 0;
  forEachElement(el, (d) => {
    if (d.name === "a") links++;
  });
  return links;
}

/** Detaches a node from its parent, keeping the sibling links consistent. */
export function removeNode(node: AnyNode): void {
  const parent = node.parent;
  if (parent) {
    const index = parent.children.indexOf(node as never);
    if (index >= 0) parent.children.splice(index, 1);
  }
  unlinkSiblings(node);
}

/**
 * Takes a node out of its siblings' links and its parent's reach (`parent` null) but leaves the
 * parent's `children` array to the caller, who removes many at once with one pass over it.
 */
export function unlinkSiblings(node: AnyNode): void {
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

const NAME_WORDS = Symbol("nameWords");
const NAME_CLASS = Symbol("nameClass");
const NAME_ID = Symbol("nameId");
type Named = Element & { [NAME_WORDS]?: string; [NAME_CLASS]?: string; [NAME_ID]?: string };

/**
 * An element's class and id, lower-cased, as the words class-name rules test. Kept on the element
 * while its class and id stay the same: every pass over a page (cleaning, main content, the page
 * around it, trims) asks for it.
 */
export function nameWords(el: Element): string {
  const named = el as Named;
  const { class: cls = "", id = "" } = el.attribs;
  if (named[NAME_CLASS] === cls && named[NAME_ID] === id) return named[NAME_WORDS]!;
  // An id spelling the element's own text (a heading's anchor) names what it says, not what it is.
  // A post's category and tag classes name what it is filed under, not what it is.
  const words = `${withoutPostTerms(cls)} ${id && !isTextSlug(el) ? id : ""}`.toLowerCase();
  named[NAME_CLASS] = cls;
  named[NAME_ID] = id;
  named[NAME_WORDS] = words;
  return words;
}

/** The nearest element before `node` among its siblings (text and comments skipped), or null. */
export function previousElement(node: AnyNode): Element | null {
  let before = node.prev;
  while (before && !isElement(before)) before = before.prev;
  return before;
}

/** The nearest element after `node` among its siblings (text and comments skipped), or null. */
export function nextElement(node: AnyNode): Element | null {
  let after = node.next;
  while (after && !isElement(after)) after = after.next;
  return after;
}

/** The first element among `el`'s children (text and comments skipped), or null. */
export function firstChildElement(el: Element): Element | null {
  for (const child of el.children) if (isElement(child)) return child;
  return null;
}

/** True when `ancestor` is `node` or contains it. */
export function contains(ancestor: AnyNode, node: AnyNode): boolean {
  for (let cur: AnyNode | null = node; cur; cur = cur.parent) if (cur === ancestor) return true;
  return false;
}

/** The first element named `name` under `root` (root excluded) in document order; the walk stops there. */
export function firstElement(root: ParentNode, name: string): Element | null {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.name === name) return node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return null;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text (runs of letters and digits), lower-cased. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Visits every element under `root` (root excluded) in document order. */
export function forEachElement(root: ParentNode, visit: (el: Element) => void): void {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    visit(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/** Counts the non-whitespace characters of a string (what a reader sees as text). */
export function visibleLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/**
 * Characters that only mark where a line may break (a soft hyphen, a zero-width space, a word
 * joiner) or nothing at all (a byte order mark): invisible on the page, they split words for a
 * model's tokenizer ("Ele\u00adment"), so the markdown and text formats leave them out. Joiners
 * that shape a script or an emoji (U+200C, U+200D) are text.
 */
export const BREAK_MARKS = "\u00ad\u200b\u2060\ufeff";
const BREAK_MARK = new RegExp(`[${BREAK_MARKS}]`, "g");

/** `text` without its BREAK_MARKS. */
export function withoutBreakMarks(text: string): string {
  return text.replace(BREAK_MARK, "");
}

const LENGTH = Symbol("length");
const LENGTH_OF = Symbol("lengthOf");
const COLLAPSED = Symbol("collapsed");
type Counted = Text & { [LENGTH]?: number; [LENGTH_OF]?: string; [COLLAPSED]?: boolean };

/**
 * Whitespace other than the space: controls, the no-break space, and what JavaScript's `\s`
 * matches above U+00A0. Text holding any of it is not collapsed (see isCollapsed).
 */
const UNUSUAL_SPACE = /[\x00-\x1f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/**
 * Counts `node`'s text as visibleLength does and notes whether its whitespace is collapsed:
 * single spaces between words, none first, none doubled, none last, and no other whitespace.
 * Text whose only whitespace is spaces (most of a page's prose) is counted by searching for them,
 * a few times faster than visibleLength's loop over every character.
 */
function count(node: Counted): void {
  const text = node.data;
  node[LENGTH_OF] = text;
  if (UNUSUAL_SPACE.test(text)) {
    node[LENGTH] = visibleLength(text);
    node[COLLAPSED] = false;
    return;
  }
  let spaces = 0;
  for (let i = text.indexOf(" "); i >= 0; i = text.indexOf(" ", i + 1)) spaces++;
  node[LENGTH] = text.length - spaces;
  node[COLLAPSED] =
    text.length > 0 && (spaces === 0 || (text[0] !== " " && !text.endsWith(" ") && !text.includes("  ")));
}

/** `node` with its count (see count) for its current data. */
function counted(node: Text): Counted {
  const c = node as Counted;
  if (c[LENGTH_OF] !== node.data) count(c);
  return c;
}

/**
 * visibleLength of a text node's data, kept on the node until its data changes: a page's text is
 * counted by every measuring pass (three to five a page), and a paragraph's count is a loop over
 * its characters.
 */
export function textLength(node: Text): number {
  return counted(node)[LENGTH]!;
}

/**
 * Whether a text node's whitespace is collapsed already: single spaces between words and no other
 * whitespace (JavaScript's `\s`), so that collapsing it changes nothing. Answered from the count
 * textLength keeps; false for empty text and whenever in doubt (a control character).
 */
export function isCollapsed(node: Text): boolean {
  return counted(node)[COLLAPSED]!;
}

/** The text of a subtree with whitespace collapsed; for short elements only (labels, titles). */
export function textOf(node: AnyNode): string {
  let out = "";
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === "text") out += n.data;
    else if (isElement(n) && n.type === "tag")
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out.replace(/\s+/g, " ").trim();
}

/**
 * Visits the nodes of a small subtree in document order (`root` first; a script's or style's
 * contents left out) and answers true, or answers false as soon as it holds more than `maxNodes`
 * nodes, without listing a wide element's children. A predicate about a short element (an icon, a
 * notice, a sign-up form) costs a few steps on any element, not a walk of a big one's subtree at
 * each of its nested levels.
 */
export function walkWithin(root: AnyNode, maxNodes: number, visit: (node: AnyNode) => void): boolean {
  let seen = 0;
  const stack: AnyNode[] = [root];
  while (stack.length) {
    seen++;
    const node = stack.pop()!;
    visit(node);
    if (!isElement(node) || node.type !== "tag") continue;
    if (seen + stack.length + node.children.length > maxNodes) return false;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return true;
}

/** textOf for a small subtree (see walkWithin): null when it holds more than `maxNodes` nodes. */
export function smallTextOf(node: AnyNode, maxNodes: number): string | null {
  let out = "";
  const small = walkWithin(node, maxNodes, (n) => {
    if (n.type === "text") out += n.data;
  });
  return small ? out.replace(/\s+/g, " ").trim() : null;
}

/** Visible text length of a subtree (scripts and styles excluded), counting stops past `limit`. */
export function visibleTextLength(root: AnyNode, limit = Number.POSITIVE_INFINITY): number {
  if (root.type === "text") return textLength(root as Text);
  if (root.type !== "tag") return 0;
  // Each element's children read from the last, one at a time: counting stops at the limit without
  // listing a wide element's children first (a deep nest around one walked them at every level).
  let n = 0;
  let kids = (root as Element).children;
  let i = kids.length - 1;
  const outerKids: AnyNode[][] = [];
  const outerAt: number[] = [];
  while (n <= limit) {
    if (i < 0) {
      const up = outerKids.pop();
      if (!up) break;
      kids = up;
      i = outerAt.pop()!;
      continue;
    }
    const node = kids[i--]!;
    if (node.type === "text") n += textLength(node);
    else if (node.type === "tag") {
      outerKids.push(kids);
      outerAt.push(i);
      kids = node.children;
      i = kids.length - 1;
    }
  }
  return n;
}

/** True when some element under `root` (root excluded) passes `test`; stops at the first. */
export function someDescendant(root: ParentNode, test: (el: Element) => boolean): boolean {
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (test(node)) return true;
    for (const child of node.children) stack.push(child);
  }
  return false;
}

/** True when some element under `root` (root excluded) has one of `names`. */
export function hasDescendant(root: Element, names: Set<string>): boolean {
  return someDescendant(root, (el) => names.has(el.name));
}

/**
 * A post embedded from a social network, as each network's embed code writes
 * it: a blockquote of the post's text (a tweet, an Instagram or Threads post,
 * a TikTok, a Reddit or Bluesky post) that a script later draws as a card.
 */
export function isEmbeddedPost(el: Element): boolean {
  return el.name === "blockquote" && EMBED_CLASS.test(el.attribs.class ?? "");
}

const EMBED_CLASS =
  /(?:^|\s)(?:twitter-tweet|twitter-video|instagram-media|text-post-media|tiktok-embed|reddit-card|reddit-embed-bq|bluesky-embed|mastodon-embed|fb-xfbml-parse-ignore)(?:$|\s)/;

/** Class words of a table of contents. */
export const TOC_WORD = /(?:^|[\s_-])(?:toc|table-?of-?contents)(?:$|[\s_-])/;
/** Links from which a table of contents is a chapter's list of its pages. */
const CHAPTER_LINKS = 3;

/**
 * Whether a table of contents lists other pages (a chapter's sections, each
 * its own page) rather than this page's headings (`#anchor` links, the
 * "on this page" box beside the text): the first is the chapter's content.
 */
export function listsOtherPages(el: Element): boolean {
  let pages = 0;
  let anchors = 0;
  forEachElement(el, (d) => {
    if (d.name !== "a") return;
    const href = d.attribs.href?.trim();
    if (!href) return;
    if (href.startsWith("#")) anchors++;
    else pages++;
  });
  return pages >= CHAPTER_LINKS && anchors * 4 < pages;
}

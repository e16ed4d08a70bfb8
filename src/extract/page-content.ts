import { dropDuplicateBlocks } from "./dedupe.ts";
import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  removeNode,
  type Text,
  textLength,
  textOf,
  visibleTextLength,
} from "./nodes.ts";
import { isPricedGrid } from "./product-grid.ts";
import { measure, type TextStats } from "./stats.ts";
import { isReviews } from "./trims.ts";

/** Text (visible characters) from which a list of facts outside the main content stays. */
const LIST_TEXT = 80;
/** Share of a block's text that is prose for the block to stay whole. */
const PROSE_SHARE = 0.6;
/** Text from which a headed section of plain text stays whole, and its share of links at most. */
const SECTION_TEXT = 40;
const SECTION_LINKS = 0.2;
/** Share of a list's text up to which links leave it a list of facts, not a menu. */
const LIST_LINKS = 0.5;
/** Share of a table's text in cells and prose from which it holds data, not a layout of links. */
const TABLE_DATA = 0.8;
/** Teaser text from which a block is a listing of teasers rather than one or two. */
const RAIL = 300;
/** Teaser text, against the main content's prose, from which teasers beside it are the page's own listing (a rail is smaller). */
const LISTING_SHARE = 2;

const LISTS = new Set(["ul", "ol", "dl"]);
const CODE_BLOCK = new Set(["pre"]);
const PICTURES = new Set(["img", "picture", "video"]);
const LINKS = new Set(["a"]);
/** A copyright notice ("© 2025 Example Ltd. All rights reserved."), and the text up to which a block is only that. */
const NOTICE = /^(?:©|\(c\)\s|copyright\s+(?:©|\(c\)|\d{4}))/i;
const NOTICE_MAX = 300;
/** A word: letters, not only digits and signs. */
const HAS_WORD = /\p{L}{2}/u;

type Verdict = "drop" | "keep" | "enter";

/** Where a block outside the main content sits, and how much prose the main content has. */
interface Place {
  between: boolean;
  beside: boolean;
  /** The block comes right after a part of the main content, in the same container. */
  follows: boolean;
  prose: number;
  /** The page says it is an article (its schema): teasers beside it are other stories, however many. */
  article: boolean;
  /** An element's text (textOf), read once for a nest of boxes around one element. */
  text: (el: Element) => string;
  /** Whether an element shows text: from the pass's measures, not a walk of it at every level. */
  shows: (el: Element) => boolean;
}

/**
 * The default mode's page (no onlyMainContent): the main content (`roots`,
 * in place in `body`, as main-content selection left them) and, around it in
 * page order, every other block that reads as the page's text: prose,
 * headings with their sections, lists of facts, data tables, a listing's
 * teasers beside a short introduction, unlinked pictures beside the text, and
 * between the main content's head and its text the short lines of a byline.
 * What else lies outside the main content goes: menus and link lists, teaser
 * rails beside an article, labels, counts and buttons on their own, forms
 * (search, sign-up, log-in) and customer reviews.
 * Blocks repeated on the page (mobile and desktop copies) are kept once.
 * The main content stays whole, so the page never holds less than
 * onlyMainContent gives.
 */
export function keepPageContent(body: Element, roots: Element[], article = false): void {
  // Main content that is the whole body leaves nothing outside it.
  if (roots.includes(body)) return;
  // The elements holding a part of the main content (its ancestors), so that what holds it is never dropped.
  const path = new Set<AnyNode>();
  for (const root of roots) for (let p = root.parent; p && !path.has(p); p = p.parent) path.add(p);
  const holds = (el: Element): boolean => path.has(el);
  const isRoot = new Set<AnyNode>(roots);
  dropOutside(body, isRoot, holds, (el) => el.name === "form" || isReviews(el));
  const stats = measure(body);
  // Teasers are the page's own listing beside a short introduction, a rail of other stories beside an article.
  let prose = 0;
  for (const root of roots) prose += stats.get(root)?.good ?? 0;
  // The first part of the main content with prose: its text starts there, after its head (title, price).
  let textStart = roots.findIndex((root) => (stats.get(root)?.paras ?? 0) > 0);
  if (textStart < 0) textStart = roots.length - 1;
  let seen = 0;
  const hasText = textMemo();
  const shows = (el: Element): boolean => {
    const measured = stats.get(el);
    return measured ? measured.text > 0 : hasText(el);
  };
  const texts = new Map<Element, string>();
  const text = (el: Element): string => {
    const inner = innermost(el);
    let said = texts.get(inner);
    if (said === undefined) {
      said = textOf(inner);
      texts.set(inner, said);
    }
    return said;
  };
  /** Text kept outside the main content: without any, there is nothing to name or to repeat it. */
  let keptText = 0;
  const doomed: Element[] = [];
  // Whether anything with text stays under `el`; an entered element where nothing does goes whole (its own words too).
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  // `near`: `el` is inside a container of the main content (a photo in the article beside its text).
  const visit = (el: Element, near: boolean): boolean => {
    const beside = near || (el !== body && holds(el));
    let kept = false;
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      if (isRoot.has(child)) {
        seen++;
        kept = true;
        continue;
      }
      if (holds(child)) {
        visit(child, false);
        kept = true;
        continue;
      }
      // Between the main content's head and its text: a byline, a date, the lead photo, "In stock".
      const between = seen > 0 && seen <= textStart;
      const v = verdict(child, stats.get(child), {
        between,
        beside,
        follows: followsRoot(child, isRoot),
        prose,
        article,
        text,
        shows,
      });
      // A heading alone does not keep its section: it names what follows, and goes with it.
      if (v === "keep") {
        kept ||= !HEADING_TAGS.has(child.name);
        keptText += stats.get(child)?.text ?? 0;
      } else if (v === "enter" && visit(child, beside)) kept = true;
      else doomed.push(child);
    }
    return kept;
  };
  visit(body, false);
  for (const el of doomed) removeNode(el);
  if (keptText === 0) return;
  dropLoneHeadings(body, isRoot);
  // Documentation repeats itself on purpose (the same steps under each language's tab): code marks it.
  if (!hasDescendant(body, CODE_BLOCK)) dropDuplicateBlocks(body, measure(body), roots);
}

/** What becomes of a block outside the main content: it stays whole, goes whole, or is decided part by part. */
function verdict(
  el: Element,
  s: TextStats | undefined,
  { between, beside, follows, prose, article, text, shows }: Place,
): Verdict {
  // Pictures stay beside the main content, a figure with its caption (not linked: a linked one is a logo, a teaser or an ad).
  // Looked for only where it decides: each level of a deep nest walking all of it for this cost seconds.
  const picture = () =>
    (el.name === "img" || hasDescendant(el, PICTURES)) && el.name !== "a" && !hasDescendant(el, LINKS);
  if (!s || s.text === 0) return (between || beside) && picture() ? "keep" : "drop";
  if (el.name === "figure" && (between || beside) && picture()) return "keep";
  // A linked heading is a teaser's headline: it goes with its teaser.
  if (HEADING_TAGS.has(el.name)) return s.card + s.bad < 0.5 * s.text ? "keep" : "drop";
  if (el.name === "table" && s.weak + s.good >= TABLE_DATA * s.text) return "keep";
  // The site's copyright line is the site's, wherever it sits (a block opening with one is looked into).
  if (s.text <= NOTICE_MAX && NOTICE.test(text(el))) return hasTextChild(el, shows) ? "enter" : "drop";
  // Prose stays whole; a block of several with links in them (breadcrumbs above a title) is judged part by part.
  if (s.paras > 0 && s.good >= PROSE_SHARE * s.text)
    return s.bad > 0 && hasTextChild(el, shows) ? "enter" : "keep";
  // A headed section of plain text (no links to speak of): the page's own, however short its sentences.
  if (s.bad + s.card <= SECTION_LINKS * s.text && s.good + s.weak >= SECTION_TEXT && startsWithHeading(el))
    return "keep";
  if (LISTS.has(el.name) && s.bad <= LIST_LINKS * s.text && s.good + s.weak + s.card >= LIST_TEXT)
    return "keep";
  // A grid of priced cards is a shop's listing (a product page's grids of other products went with its main content).
  if (isPricedGrid(el)) return "keep";
  // Teasers: a listing when they outweigh the main content's prose, or when they are posts (`<article>`s)
  // going on right after it in its container (a blog's own posts after its introduction); else a rail of
  // other stories; one teaser alone goes.
  if (s.card >= 0.5 * s.text)
    return s.card >= RAIL && ((follows && isPostList(el)) || (!article && s.card >= LISTING_SHARE * prose))
      ? "keep"
      : "drop";
  // Labels, counts and short lines on their own (a member's stats, "Sold out", a date) go; mixed blocks are looked into.
  if (hasTextChild(el, shows)) return "enter";
  // A line of words between the head and the text (a byline, "In stock"); a bare count there (votes) goes.
  return between && s.bad + s.card < 0.5 * s.text && HAS_WORD.test(text(el)) ? "keep" : "drop";
}

/**
 * The element a box around one element (and whitespace) is a box around, down through every such
 * box: its text is theirs (textOf drops the whitespace).
 */
function innermost(el: Element): Element {
  for (;;) {
    let only: Element | null = null;
    for (const child of el.children as AnyNode[]) {
      if (isElement(child)) {
        if (only) return el;
        only = child;
      } else if (child.type === "text" && child.data.trim()) return el;
    }
    if (!only) return el;
    el = only;
  }
}

/** Posts from which a block of `<article>`s is a listing of them (a blog's loop of excerpts). */
const POSTS = 3;

/** Whether `el`'s children are posts, each an `<article>` (WordPress's excerpts, `article.post`). */
function isPostList(el: Element): boolean {
  let posts = 0;
  for (const child of el.children as AnyNode[]) if (isElement(child) && child.name === "article") posts++;
  return posts >= POSTS;
}

/** Whether the element before `el` in its container is a part of the main content. */
function followsRoot(el: Element, roots: Set<AnyNode>): boolean {
  let prev = el.prev;
  while (prev && !isElement(prev)) prev = prev.prev;
  return prev !== null && roots.has(prev);
}

/** Whether the first child of `el` holding text is a heading. */
function startsWithHeading(el: Element): boolean {
  for (const child of el.children as AnyNode[]) {
    if (isElement(child)) {
      if (visibleTextLength(child, 0) === 0) continue;
      return HEADING_TAGS.has(child.name);
    }
    if (child.type === "text" && child.data.trim()) return false;
  }
  return false;
}

/** Whether an element has a block child holding text (else it is one block of text, decided whole). */
function hasTextChild(el: Element, shows: (el: Element) => boolean): boolean {
  for (const child of el.children as AnyNode[])
    if (isElement(child) && BLOCK_TAGS.has(child.name) && shows(child)) return true;
  return false;
}

/** Removes the elements outside the main content that `test` picks, wherever they sit. */
function dropOutside(
  body: Element,
  roots: Set<AnyNode>,
  holds: (el: Element) => boolean,
  test: (el: Element) => boolean,
): void {
  const doomed: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child) || roots.has(child)) continue;
      if (test(child) && !holds(child)) doomed.push(child);
      else visit(child);
    }
  };
  visit(body);
  for (const el of doomed) removeNode(el);
}

/** Drops headings outside the main content with nothing left to name: no text follows them before the next heading. */
function dropLoneHeadings(body: Element, roots: Set<AnyNode>): void {
  const doomed: Element[] = [];
  const hasText = textMemo();
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child) || roots.has(child)) continue;
      if (!HEADING_TAGS.has(child.name)) visit(child);
      else if (!followedByText(child, body, hasText)) doomed.push(child);
    }
  };
  visit(body);
  for (const el of doomed) removeNode(el);
}

/**
 * Whether an element shows text (visibleTextLength above 0), each element read once: headings
 * nested in boxes without text each asked it of all the boxes below them.
 */
function textMemo(): (el: Element) => boolean {
  const known = new Map<Element, boolean>();
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const hasText = (el: Element): boolean => {
    let found = known.get(el);
    if (found !== undefined) return found;
    found = false;
    for (const child of el.children as AnyNode[]) {
      if (
        child.type === "text"
          ? textLength(child as Text) > 0
          : child.type === "tag" && hasText(child as Element)
      ) {
        found = true;
        break;
      }
    }
    known.set(el, found);
    return found;
  };
  return hasText;
}

/** Whether text follows a heading (or the wrappers that hold only it) before the next heading. */
function followedByText(heading: Element, body: Element, hasText: (el: Element) => boolean): boolean {
  let unit: Element = heading;
  while (unit.parent !== body && unit.parent && isElement(unit.parent) && onlyTextChild(unit, hasText))
    unit = unit.parent;
  for (let next = unit.next; next; next = next.next) {
    if (isElement(next)) {
      if (HEADING_TAGS.has(next.name)) return false;
      if (next.type === "tag" && hasText(next)) return true;
    } else if (next.type === "text" && next.data.trim()) return true;
  }
  return false;
}

/** Whether `el` is the only child of its parent with text. */
function onlyTextChild(el: Element, hasText: (el: Element) => boolean): boolean {
  for (const sibling of (el.parent as Element).children as AnyNode[]) {
    if (sibling === el) continue;
    if (
      isElement(sibling)
        ? sibling.type === "tag" && hasText(sibling)
        : sibling.type === "text" && sibling.data.trim()
    )
      return false;
  }
  return true;
}

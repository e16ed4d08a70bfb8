import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  HEADING_TAGS,
  isElement,
  linkCount,
  removeNode,
  tableRows,
  textLength,
} from "./nodes.ts";

/**
 * Text statistics of one element's subtree, in visible characters. Blocks of
 * text are classed where they end (the nearest block element owning the text):
 * - good: prose and headings, few links (what readers come for)
 * - weak: short pieces without links (labels, prices, table cells, list items)
 * - bad: link-dominated text (menus, tag clouds, "related" lists)
 */
export interface TextStats {
  text: number;
  link: number;
  good: number;
  weak: number;
  bad: number;
  /** Text of teaser links (cards wrapping a headline and summary): content on a listing, chrome beside an article. */
  card: number;
  /** Blocks of prose (paragraph-like: long, few links). */
  paras: number;
  /** Teaser links (see `card`). */
  teasers: number;
}

/** Below this a block with few links is a label, not prose. */
const PROSE_MIN = 60;
/** A block whose text is more than this share of link text is navigation. */
const LINKY = 0.5;

interface BlockAcc {
  text: number;
  link: number;
  card: number;
  heading: boolean;
  /** A cell of a data table, where links are the data (names, entries), not navigation. */
  cell: boolean;
  /** Inside such a cell (a block of its own in it: a team's name and logo in a div), links are the data too. */
  inCell: boolean;
}

function classify(tag: string, acc: BlockAcc, s: TextStats): void {
  const { link, card } = acc;
  s.card += card;
  const text = acc.text - card;
  if (text === 0) return;
  const density = link / text;
  if (tag === "pre") {
    s.good += text;
  } else if (acc.cell) {
    s.weak += text;
  } else if (density > LINKY) {
    // A linked heading is a teaser's headline; menus are not made of headings.
    if (acc.heading) s.card += text;
    else if (acc.inCell) s.weak += text;
    else s.bad += text;
  } else if (HEADING_TAGS.has(tag)) {
    s.good += text - link;
    s.bad += link;
  } else if (text >= PROSE_MIN) {
    s.good += text - link;
    s.bad += link * 0.5;
    s.paras++;
  } else {
    s.weak += text - link;
    s.bad += link;
  }
}

/**
 * An article's own `<header>`: the introductory part of its `<article>` (HTML's sectioning), where a
 * listing's card puts its headline as a bare link (`<article><header><a href=/news/x>Headline</a>
 * </header>...<p>summary`). A link there is the card's headline, as in a heading. Only a header
 * of inline content: a story's own header holds its heading, byline and photo in blocks.
 */
function isArticleHeader(el: Element): boolean {
  const parent = el.parent;
  if (el.name !== "header" || parent === null || !isElement(parent) || parent.name !== "article")
    return false;
  // A header of inline content only: one holding the story's heading, byline and photo is a story's.
  return !el.children.some((child) => isElement(child) && BLOCK_TAGS.has(child.name));
}

/** Text at or above which a link is a teaser (headline plus summary), not navigation. */
const CARD_TEXT = 100;

/**
 * A link wrapping a block (a card: image, headline, summary) or a paragraph
 * of text. Listing pages are made of these; counting their text as link text
 * would leave such pages with no content at all.
 */
function isCardLink(a: Element): boolean {
  let text = 0;
  const stack: AnyNode[] = [...a.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") {
      text += textLength(node);
      if (text >= CARD_TEXT) return true;
    } else if (isElement(node) && node.type === "tag") {
      if (BLOCK_TAGS.has(node.name) && node.name !== "div") return true;
      for (const c of node.children) stack.push(c);
    }
  }
  return false;
}

/** Text up to which an element holding a teaser headline is one teaser (headline, summary, byline). */
const TEASER_MAX = 500;

/**
 * 0 plain, 1 navigation link, 2 teaser link. In-page anchors on headings are permalinks, not links
 * away, and a heading linking to a person's profile is a name (a forum post's author, an article's
 * author box), not a teaser's headline.
 */
function linkKind(a: Element, acc: BlockAcc): number {
  // An anchor's target left open (`<a id=x>` never closed) holds whatever follows it, headings and
  // paragraphs: without an href it is no link, and what it holds is the page's own text.
  if (a.attribs.href === undefined && holdsBlock(a)) return 0;
  if (acc.heading) {
    const href = a.attribs.href;
    if (href?.startsWith("#") || (href !== undefined && PROFILE_HREF.test(href))) return 0;
  }
  return isCardLink(a) ? 2 : 1;
}

/**
 * Whether an element holds a heading or a paragraph (a link holds words), looked for among its
 * first elements only (anchors left open nest, each holding the next, then the page's sections).
 */
function holdsBlock(el: Element): boolean {
  // Breadth first, in document order: the nearest elements first.
  const queue: AnyNode[] = el.children.slice(0, BLOCK_LOOKUP);
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    if (!isElement(node)) continue;
    if (SECTION_BLOCKS.has(node.name)) return true;
    for (const child of node.children) {
      if (queue.length >= BLOCK_LOOKUP) break;
      queue.push(child);
    }
  }
  return false;
}
const SECTION_BLOCKS = new Set([...HEADING_TAGS, "p"]);
const BLOCK_LOOKUP = 64;

/** A link to a member's or an author's page: forum software's and blogs' usual paths and queries. */
const PROFILE_HREF =
  /(?:[?&;](?:action=profile|showuser=)|\/(?:members?|users?|u|profile|profiles|author|authors)\/[^/?#]|\/(?:profile|member)\.php)/i;

const CELL_TAGS = new Set(["td", "th"]);

/** Rows from which a table with header cells holds data rather than laying out a page. */
const DATA_ROWS = 3;

/** A table with header cells and several rows: a list of laureates or specifications, not a layout grid. */
export function isDataTable(table: Element): boolean {
  const rows = tableRows(table);
  return (
    rows.length >= DATA_ROWS && rows.some((row) => row.children.some((c) => isElement(c) && c.name === "th"))
  );
}

/**
 * A table cell holding at most one link, or a row of such cells: a row's
 * data (a provider's website, names linked to their pages), which dropping
 * would leave a blank column or a missing row. A menu laid out in a cell
 * holds several links; a table that is all links goes whole, as a block,
 * before its rows are looked at.
 */
export function isTableData(el: Element): boolean {
  if (el.name === "tr")
    return el.children.every((c) => !isElement(c) || !CELL_TAGS.has(c.name) || isTableData(c));
  return CELL_TAGS.has(el.name) && linkCount(el) <= 1;
}

/** A table's rows and cells. */
export const TABLE_PARTS = new Set(["tr", "td", "th"]);

/** Text of a headline link, and of the summary after it, from which a list item is a teaser. */
const LEAD_LINK = 25;
const LEAD_REST = 40;

/** Text of the link a list item starts with (its first text is a link's), or 0. */
function leadLink(li: Element, map: Measured): number {
  for (let node: AnyNode | undefined = li.children[0]; node; ) {
    if (node.type === "text") {
      if (textLength(node) > 0) return 0;
      node = node.next ?? undefined;
      continue;
    }
    if (!isElement(node)) {
      node = node.next ?? undefined;
      continue;
    }
    if (node.name === "a") return map.get(node)?.text ?? 0;
    const s = map.get(node);
    if (!s || s.text === 0) {
      node = node.next ?? undefined;
      continue;
    }
    node = node.children[0];
  }
  return 0;
}

const STATS = Symbol("stats");
const PASS = Symbol("pass");
type Marked = Element & { [STATS]?: TextStats; [PASS]?: number };
let passes = 0;

/**
 * The stats of one measuring pass, kept on the elements themselves: a Map keyed by element cost a
 * fifth of the pass (a page is measured three to five times). An element measured again by a
 * later pass is not this pass's: `get` answers only what this pass measured.
 */
export class Measured {
  private readonly pass = ++passes;
  get(el: Element): TextStats | undefined {
    return (el as Marked)[PASS] === this.pass ? (el as Marked)[STATS] : undefined;
  }
  set(el: Element, stats: TextStats): void {
    (el as Marked)[STATS] = stats;
    (el as Marked)[PASS] = this.pass;
  }
}

/**
 * Measures every element under `root` (included) in one bottom-up pass, so
 * that later steps never call `.text()` inside a loop.
 */
export function measure(root: Element): Measured {
  const map = new Measured();
  // kind: 0 plain text, 1 inside a navigation link, 2 inside a teaser link.
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const walk = (el: Element, block: BlockAcc, kind: number, inData: boolean): TextStats => {
    const s: TextStats = { text: 0, link: 0, good: 0, weak: 0, bad: 0, card: 0, paras: 0, teasers: 0 };
    const isBlock = BLOCK_TAGS.has(el.name) || el === root;
    const acc = isBlock
      ? {
          text: 0,
          link: 0,
          card: 0,
          heading: HEADING_TAGS.has(el.name) || isArticleHeader(el),
          cell: inData && CELL_TAGS.has(el.name),
          inCell: inData && (block.cell || block.inCell),
        }
      : block;
    const k = kind === 0 && el.name === "a" ? linkKind(el, acc) : kind;
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") {
        const len = textLength(child);
        if (len === 0) continue;
        s.text += len;
        acc.text += len;
        if (k === 1) {
          s.link += len;
          acc.link += len;
        } else if (k === 2) acc.card += len;
      } else if (isElement(child) && child.type === "tag") {
        const data = child.name === "table" ? isDataTable(child) : inData;
        addStats(s, walk(child, acc, k, data));
      }
    }
    if (isBlock) classify(el.name, acc, s);
    // A list item that opens with a headline link and goes on with a summary is a teaser.
    if (
      el.name === "li" &&
      s.card === 0 &&
      s.text <= TEASER_MAX &&
      s.text - s.link >= LEAD_REST &&
      leadLink(el, map) >= LEAD_LINK
    ) {
      s.card = s.good + s.weak + s.bad;
      s.good = 0;
      s.weak = 0;
      s.bad = 0;
      s.paras = 0;
    }
    if (k === 2 && kind === 0) s.teasers++;
    // A small unit holding one teaser headline is a teaser: its summary is part of it, not prose.
    // (Several teasers make a list, whose other text may be the page's own.)
    if (s.card > 0 && s.text <= TEASER_MAX && el !== root && s.teasers <= 1) {
      s.card += s.good + s.weak;
      s.good = 0;
      s.weak = 0;
      s.paras = 0;
    }
    map.set(el, s);
    return s;
  };
  walk(root, { text: 0, link: 0, card: 0, heading: false, cell: false, inCell: false }, 0, false);
  return map;
}

/** Adds `source` into `target`, field by field. */
function addStats(target: TextStats, source: TextStats): void {
  target.text += source.text;
  target.link += source.link;
  target.good += source.good;
  target.weak += source.weak;
  target.bad += source.bad;
  target.card += source.card;
  target.paras += source.paras;
  target.teasers += source.teasers;
}

/** Sums the stats of several subtrees. */
export function sumStats(all: TextStats[]): TextStats {
  const total: TextStats = { text: 0, link: 0, good: 0, weak: 0, bad: 0, card: 0, paras: 0, teasers: 0 };
  for (const s of all) addStats(total, s);
  return total;
}

/** What dropMeasured does with a measured element: removes it, leaves it whole, or looks inside. */
export type Verdict = "drop" | "keep" | "enter";

/**
 * Removes the elements below `root` that `verdict` drops, deciding from the top down: the inside
 * of a dropped or kept element is not looked at, and elements `stats` does not hold (not
 * measured: scripts, hidden) are passed over with their insides.
 */
export function dropMeasured(
  root: Element,
  stats: Measured,
  verdict: (el: Element, s: TextStats) => Verdict,
): void {
  const doomed: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      const s = stats.get(child);
      if (!s) continue;
      const v = verdict(child, s);
      if (v === "drop") doomed.push(child);
      else if (v === "enter") visit(child);
    }
  };
  visit(root);
  for (const el of doomed) removeNode(el);
}

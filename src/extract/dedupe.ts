import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  HEADING_TAGS,
  isCollapsed,
  isElement,
  removeNode,
  type Text,
} from "./nodes.ts";
import type { Measured } from "./stats.ts";

/** Text (visible characters) from which a repeated block is a copy rather than a common phrase. */
const MIN_TEXT = 40;
/** Blocks longer than this are not keyed themselves (their parts are): joining their text costs more than it finds. */
const MAX_TEXT = 4000;

/** Code repeats on purpose (the same call in two examples); tables and their cells repeat values. */
const KEEP = new Set(["pre", "code", "table", "thead", "tbody", "tr", "td", "th"]);

/** Paragraphs and items a writer may repeat on purpose beside each other (a meal plan's "1 cup blueberries"). */
const AUTHORED = new Set(["p", "li", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6"]);

/** A subtree's text with whitespace collapsed and trimmed, and whether whitespace stood before or after it. */
interface Norm {
  text: string;
  lead: boolean;
  trail: boolean;
}

const SPACE: Norm = { text: "", lead: true, trail: true };
const NOTHING: Norm = { text: "", lead: false, trail: false };

/** `a` then `b`, as collapsing the whitespace of their joined raw text would give. */
function join(a: Norm, b: Norm): Norm {
  if (!b.text) return b.lead || b.trail ? { text: a.text, lead: a.lead || !a.text, trail: true } : a;
  if (!a.text) return { text: b.text, lead: a.lead || a.trail || b.lead, trail: b.trail };
  return { text: a.text + (a.trail || b.lead ? " " : "") + b.text, lead: a.lead, trail: b.trail };
}

/** Whitespace other than single spaces between words: what collapsing would change. */
const UNCOLLAPSED = /[^\S ]| {2}|^ | $/;

function normText(node: Text): Norm {
  const data = node.data;
  // Most text nodes of prose need nothing done (measuring found so): no regex for them.
  if (data && (isCollapsed(node) || !UNCOLLAPSED.test(data)))
    return { text: data, lead: false, trail: false };
  const collapsed = data.replace(/\s+/g, " ");
  if (collapsed === " ") return SPACE;
  const lead = collapsed.startsWith(" ");
  const trail = collapsed.endsWith(" ");
  return { text: collapsed.slice(lead ? 1 : 0, trail ? -1 : undefined), lead, trail };
}

/**
 * Whitespace-collapsed text of subtrees (a block starts with a space), each
 * built once from its children's: a wrapper's text is not collapsed again at
 * every level.
 */
export function textKeys(): (el: Element) => string {
  const memo = new Map<Element, Norm>();
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const norm = (el: Element): Norm => {
    let n = memo.get(el);
    if (n) return n;
    n = BLOCK_TAGS.has(el.name) ? SPACE : NOTHING;
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") n = join(n, normText(child));
      else if (isElement(child) && child.type === "tag") n = join(n, norm(child));
    }
    memo.set(el, n);
    return n;
  };
  return (el) => norm(el).text;
}

/**
 * Removes blocks whose text repeats an earlier block of the content: the
 * mobile and desktop copies of one section, a forum reply quoting the post
 * above it, a teaser repeated beside the full text. The first copy stays;
 * the blocks under `readFirst` (the main content, when `root` is the page) are
 * read before the rest, so their copies are the ones kept.
 * Code and tables are left alone.
 */
export function dropDuplicateBlocks(root: Element, stats: Measured, readFirst: Element[] = []): void {
  // Where each text was first seen: paragraphs repeated under the same parent are the author's, other
  // copies the page's (a second rendering, a quote).
  const seen = new Map<string, AnyNode | null>();
  const textKey = textKeys();
  const readFirstSet = new Set<AnyNode>(readFirst);
  // The elements holding a block read first (its ancestors): looked into, never dropped.
  const holders = new Set<AnyNode>();
  for (const el of readFirst) for (let p = el.parent; p && !holders.has(p); p = p.parent) holders.add(p);
  const doomed: Element[] = [];
  // Texts first seen as a heading of the main content's own.
  const headings = new Set<string>();
  // Checked on the way down, remembered on the way up: a wrapper and its only child share their text.
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child) || KEEP.has(child.name) || readFirstSet.has(child)) continue;
      // A wrapper of the main content shares its text: look inside it, never drop it.
      if (holders.has(child)) {
        visit(child);
        continue;
      }
      const text = stats.get(child)?.text ?? 0;
      if (text < MIN_TEXT) continue;
      const key = text <= MAX_TEXT && BLOCK_TAGS.has(child.name) ? textKey(child) : null;
      const first = key === null ? undefined : seen.get(key!);
      if (
        first !== undefined &&
        (first !== el || !AUTHORED.has(child.name)) &&
        !(child.name === "p" && headings.has(key!))
      ) {
        doomed.push(child);
        continue;
      }
      visit(child);
      if (key !== null && !seen.has(key)) seen.set(key, el);
    }
  };
  for (const el of readFirst) {
    visit(el);
    // A heading read first (the title set above the main content) is an original itself: a second
    // copy of the title (the page's other header, a breadcrumb's last step) goes; a paragraph saying
    // what a subtitle says (an article's first sentence, its dek above) is the text and stays.
    const text = stats.get(el)?.text ?? 0;
    if (HEADING_TAGS.has(el.name) && text >= MIN_TEXT && text <= MAX_TEXT) {
      const key = textKey(el);
      if (!seen.has(key)) {
        seen.set(key, el.parent);
        headings.add(key);
      }
    }
  }
  visit(root);
  for (const el of doomed) removeNode(el);
}

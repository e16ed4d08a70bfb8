/**
 * The lines a story opens with that are its metadata, whatever their tags: a byline ("By Rick
 * Steves" in an `h6`) and the date the page marks up as the story's.
 */
import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  isElement,
  removeNode,
  smallTextOf,
  visibleTextLength,
} from "./nodes.ts";

/**
 * Drops the line a story opens with when it reads as a byline ("By Rick
 * Steves" in an `h6`, "by Jon Foster - 2025-09-13"), whatever its class: the
 * first block of text in `root`, a lead photo aside; and the date it opens with
 * when the page marks that up as the story's (leadingDate).
 */
export function dropLeadingByline(root: Element): void {
  const first = leadingBlock(root);
  if (first && first !== root && isBylineLine(first)) removeNode(first);
  const date = leadingDate(root);
  if (date) removeNode(date);
}

/** What `el` shows first: text of its own. */
const TEXT = Symbol("text");
/** A lead photo's figure (its caption comes before the byline on many stories). */
const LEAD_PHOTO = new Set(["figure"]);
/** A lead photo, and the story's title above its date. */
const LEAD_PHOTO_OR_TITLE = new Set(["figure", "h1"]);

/**
 * What `el` shows first: TEXT when its own text does, else the first child element that shows
 * anything and is none of `passed`; null when it shows nothing.
 */
function firstShown(el: Element, passed: ReadonlySet<string>): Element | typeof TEXT | null {
  for (const child of el.children as AnyNode[]) {
    if (child.type === "text") {
      if (child.data.trim()) return TEXT;
      continue;
    }
    if (!isElement(child) || child.type !== "tag" || visibleTextLength(child, 0) === 0) continue;
    if (!passed.has(child.name)) return child;
  }
  return null;
}

/**
 * The first block holding text in `root` (a lead photo's figure aside), stepping
 * into the first element with text while it is a block; null when text comes
 * first in `root` itself.
 */
function leadingBlock(root: Element): Element | null {
  for (let el = root; ; ) {
    const next = firstShown(el, LEAD_PHOTO);
    if (next === TEXT) return el === root ? null : el;
    if (!next || !BLOCK_TAGS.has(next.name)) return el;
    el = next;
  }
}

/** A date the page marks up as its story's (`itemprop="datePublished"`, `<time>`). */
const DATE_PROPS = new Set(["datePublished", "dateModified", "dateCreated"]);
/** Text up to which a marked-up date is a date line ("sexta-feira, 22 de outubro de 2010 às 20:13"). */
const DATE_MAX = 80;

/**
 * The line a story opens with when it is the date the page marks up as the story's (its publication
 * date in `itemprop="datePublished"`, or a `<time>`), on a line of its own: the first words in
 * `root`, with nothing but blocks after them to the end of their block (ownLine). A dateline opening
 * a sentence ("<time>May 3</time> — The council voted") is the story's.
 */
function leadingDate(root: Element): Element | null {
  let el = root;
  for (let depth = 0; depth < BYLINE_NODES; depth++) {
    const next = firstShown(el, LEAD_PHOTO_OR_TITLE);
    if (next === TEXT || !next) return null;
    if (next.name === "time" || DATE_PROPS.has(next.attribs.itemprop ?? "")) {
      const text = smallTextOf(next, BYLINE_NODES);
      return text !== null && text.trim().length <= DATE_MAX && ownLine(next, root) ? next : null;
    }
    el = next;
  }
  return null;
}

/**
 * Whether nothing but blocks follows `el` up to the end of its line: in its parent, and in each
 * inline box around it up to the block it is in (or `root`).
 */
function ownLine(el: Element, root: Element): boolean {
  for (let node: Element = el; node !== root; ) {
    for (let next = node.next; next; next = next.next) {
      if (
        next.type === "text"
          ? next.data.trim() !== ""
          : isElement(next) && !BLOCK_TAGS.has(next.name) && visibleTextLength(next, 0) > 0
      )
        return false;
    }
    const parent = node.parent;
    if (!parent || !isElement(parent) || BLOCK_TAGS.has(parent.name)) return true;
    node = parent;
  }
  return true;
}

/** A line that reads as a byline: "By Rick Steves", "by Jon Foster - 2025-09-13", "BY: Ana Reyes". */
const BYLINE_LINE = /^(?:by|BY|By):?\s+[\p{Lu}\p{Lt}]/u;
/** Text up to which a leading line reading as a byline is one ("By Clare Duffy, CNN, updated ..."). */
const BYLINE_MAX = 120;
/** Nodes read of a leading block: a byline is a few. */
const BYLINE_NODES = 40;

/** A sentence's end: a word of four letters or more and a full stop ("By Tuesday the river had risen."). */
const SENTENCE_END = /\p{L}{4,}[.!?]$/u;
/** Lower-case words of three letters or more other than "and": a byline's are a few (", updated 3 hours ago"). */
const PROSE_WORD = /(?:^|\s)(?!and\b)\p{Ll}{3,}/gu;
const BYLINE_PROSE_WORDS = 3;

function isBylineLine(el: Element): boolean {
  const text = smallTextOf(el, BYLINE_NODES);
  if (text === null || text.length > BYLINE_MAX || !BYLINE_LINE.test(text)) return false;
  if (SENTENCE_END.test(text)) return false;
  return (text.slice(3).match(PROSE_WORD)?.length ?? 0) <= BYLINE_PROSE_WORDS;
}

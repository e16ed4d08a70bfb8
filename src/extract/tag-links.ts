import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  HEADING_TAGS,
  isElement,
  removeNode,
  textLength,
  wordsOf,
} from "./nodes.ts";

/**
 * A post's tag list, known by HTML's own link type: `rel="tag"` says a link
 * names a tag of the page (WordPress writes `rel="tag"` and
 * `rel="category tag"`), whatever the list's class names or language. The
 * list is a label ("Tags:", "Filed under", "Schlagwörter") and the tags with
 * separators between them; it is a way to other pages, not the page's text.
 */
const TAG_REL = /(?:^|\s)tag(?:$|\s)/i;

/** A link naming a tag of its page. */
export const isTagLink = (el: Element): boolean =>
  el.name === "a" && el.attribs.rel !== undefined && TAG_REL.test(el.attribs.rel);

/** Words before the first tag up to which they are the list's label. */
const LABEL_WORDS = 3;
/** Share of the content's text from which a tag list is the content itself (a page of tags). */
const CONTENT_SHARE = 0.5;
/** What a tag list never holds: pictures, media, tables (nor a linked heading: a headline). */
const NOT_IN_LISTS = new Set(["img", "picture", "video", "audio", "iframe", "table", "figure"]);

/** What an element holds, in document order, as far as a tag list cares. */
interface Tally {
  tags: number;
  /** Links that name no tag. */
  others: number;
  /** Words outside links before the first tag. */
  label: number;
  /** A word outside links after the first tag (a sentence, a count): not a list's separators. */
  wordsAfter: boolean;
  /** Holds something a tag list does not (see NOT_IN_LISTS). */
  other: boolean;
  /** All visible characters. */
  text: number;
}

/** Appends what comes next in document order (`next`) to what came before it (`t`). */
function follow(t: Tally, next: Tally): void {
  if (t.tags > 0) t.wordsAfter ||= next.label > 0 || next.wordsAfter;
  else {
    t.label += next.label;
    t.wordsAfter = next.wordsAfter;
  }
  t.tags += next.tags;
  t.others += next.others;
  t.other ||= next.other;
  t.text += next.text;
}

/**
 * Drops the tag lists inside `root`: the outermost elements whose links all
 * name tags, with at most a short label before the first and only
 * separators after it, and nothing else (no picture, table or headline). A
 * block needs one tag, an inline element two; a tag linked in a sentence
 * stays, as does a list holding half the content's text or more.
 */
export function dropTagLinks(root: Element): void {
  const tallies = new Map<Element, Tally>();
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const tally = (el: Element): Tally => {
    const t: Tally = {
      tags: 0,
      others: 0,
      label: 0,
      wordsAfter: false,
      other: NOT_IN_LISTS.has(el.name),
      text: 0,
    };
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") {
        const text = textLength(child);
        follow(t, {
          tags: 0,
          others: 0,
          label: text ? wordsOf(child.data).length : 0,
          wordsAfter: false,
          other: false,
          text,
        });
      } else if (isElement(child) && child.type === "tag") {
        const c = tally(child);
        if (child.name === "a") {
          const tag = isTagLink(child);
          // A link's own words are its name, not a label; links inside it count as other links.
          follow(t, {
            ...c,
            tags: tag ? 1 : 0,
            others: c.others + c.tags + (tag ? 0 : 1),
            label: 0,
            wordsAfter: false,
          });
        } else follow(t, c);
      }
    }
    // A heading is a label ("Topics") unless it holds a link: then it heads something else.
    if (HEADING_TAGS.has(el.name) && t.tags + t.others > 0) t.other = true;
    tallies.set(el, t);
    return t;
  };
  const whole = tally(root).text;
  // Recursive, as above.
  const drop = (el: Element): void => {
    for (const child of [...el.children] as AnyNode[]) {
      // A table's cells, a figure's caption, a heading: never a tag list, nor any part of them.
      if (!isElement(child) || NOT_IN_LISTS.has(child.name) || HEADING_TAGS.has(child.name)) continue;
      const t = tallies.get(child);
      if (!t?.tags) continue;
      const list =
        t.others === 0 &&
        !t.other &&
        t.label <= LABEL_WORDS &&
        !t.wordsAfter &&
        t.tags >= (BLOCK_TAGS.has(child.name) ? 1 : 2) &&
        t.text < CONTENT_SHARE * whole;
      if (list) removeNode(child);
      else drop(child);
    }
  };
  drop(root);
}

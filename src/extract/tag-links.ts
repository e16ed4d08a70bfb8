import { type AnyNode, BLOCK_TAGS, type Element, isElement, removeNode, someDescendant } from "./nodes.ts";

/**
 * A post's tag list, known by HTML's own link type: `rel="tag"` says a link
 * names a tag of the page (WordPress writes `rel="tag"` and
 * `rel="category tag"`), whatever the list's class names or language. The
 * list is the tags and a label ("Tags:", "Filed under", "Schlagwörter"), and
 * it is a way to other pages, not the page's text.
 */
const TAG_REL = /(?:^|\s)tag(?:$|\s)/i;

const isTagLink = (el: Element): boolean =>
  el.name === "a" && el.attribs.rel !== undefined && TAG_REL.test(el.attribs.rel);

/** Letters and digits outside the tags up to which a block is a tag list with its label. */
const LABEL_MAX = 30;
/** Share of the content's text from which a tag list is the content itself (a page of tags). */
const CONTENT_SHARE = 0.5;

interface Tally {
  tags: number;
  /** Links that name no tag. */
  others: number;
  /** Letters and digits outside links. */
  label: number;
  /** All visible characters. */
  text: number;
}

const WORD_CHARS = /[\p{L}\p{N}]/gu;
const countWordChars = (s: string): number => s.match(WORD_CHARS)?.length ?? 0;
const countText = (s: string): number => s.replace(/\s+/g, "").length;

/**
 * Drops the tag lists inside `root`: the outermost elements whose links all
 * name tags, with no more text than a label beside them. A block needs one
 * tag, an inline element two (so that a tag linked in a sentence, wrapped or
 * not, stays in the sentence).
 */
export function dropTagLinks(root: Element): void {
  if (!someDescendant(root, isTagLink)) return;
  const tallies = new Map<Element, Tally>();
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const tally = (el: Element): Tally => {
    const t: Tally = { tags: 0, others: 0, label: 0, text: 0 };
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") {
        const data = (child as { data: string }).data;
        t.label += countWordChars(data);
        t.text += countText(data);
      } else if (isElement(child) && child.type === "tag") {
        const c = tally(child);
        if (child.name === "a") {
          if (isTagLink(child)) t.tags++;
          else t.others++;
          t.others += c.others + c.tags;
        } else {
          t.tags += c.tags;
          t.others += c.others;
          t.label += c.label;
        }
        t.text += c.text;
      }
    }
    tallies.set(el, t);
    return t;
  };
  const whole = tally(root).text;
  // Recursive, as above.
  const drop = (el: Element): void => {
    for (const child of [...el.children] as AnyNode[]) {
      if (!isElement(child)) continue;
      const t = tallies.get(child);
      if (!t?.tags) continue;
      const list =
        t.others === 0 &&
        t.label <= LABEL_MAX &&
        t.tags >= (BLOCK_TAGS.has(child.name) ? 1 : 2) &&
        t.text < CONTENT_SHARE * whole;
      if (list) removeNode(child);
      else drop(child);
    }
  };
  drop(root);
}

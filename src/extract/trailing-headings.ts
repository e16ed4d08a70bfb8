import {
  type AnyNode,
  type Element,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  removeNode,
  someDescendant,
  textOf,
  visibleTextLength,
} from "./nodes.ts";

/** What shows without text: a picture, a video, a drawing, a formula. */
export const MEDIA = new Set([
  "img",
  "picture",
  "video",
  "audio",
  "svg",
  "iframe",
  "canvas",
  "math",
  "object",
  "embed",
]);
/** A heading's end: nothing after it that a reader sees. */
const NOTHING = Symbol("nothing");

/**
 * The heading or rule that ends (`last`) or opens `node`'s content, if one does: the last (or
 * first) thing a reader sees there. Null when text or a picture does; NOTHING when it shows nothing.
 */
function endOf(node: AnyNode, last = true): Element | null | typeof NOTHING {
  if (!isElement(node)) return node.type === "text" && /\S/.test(node.data) ? null : NOTHING;
  if (HEADING_TAGS.has(node.name) || node.name === "hr") return node;
  if (MEDIA.has(node.name)) return null;
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const kids = node.children;
  for (let i = last ? kids.length - 1 : 0; last ? i >= 0 : i < kids.length; i += last ? -1 : 1) {
    const end = endOf(kids[i]!, last);
    if (end !== NOTHING) return end;
  }
  return NOTHING;
}

/**
 * A heading that labels what follows it ("Follow:", "Share this:"): with nothing after it, it
 * labels nothing. Other headings stay: a section's title is on the page whether or not its
 * content is (an FAQ's questions over answers a click opens, a call to action).
 */
const LABEL = /:\s*$/;
/**
 * A heading over the page's comments ("Comments", "3 Responses", "Tell us what YOU think...",
 * "Leave a Reply"): with nothing after it, the comments are not in the content, and it heads nothing.
 */
const COMMENTS_HEADING =
  /^(?:\d+\s+)?(?:comments?|responses?|replies|reader comments|discussion|leave a (?:comment|reply)|post a comment|add a comment|join the (?:discussion|conversation)|tell us what you think|what do you think)\s*(?:\(\d+\))?[\s.…!?:]*$/i;

/** Whether a heading links to another page: a card's or an item's title, not a section's. */
function linksAway(heading: Element): boolean {
  return someDescendant(
    heading,
    (el) => el.name === "a" && !!el.attribs.href && !el.attribs.href.trim().startsWith("#"),
  );
}

/** Whether nothing beside `el` in its parent shows: a section's title left without its section. */
function aloneInParent(el: Element): boolean {
  const parent = el.parent;
  if (!parent || !isElement(parent)) return true;
  return parent.children.every(
    (sibling) =>
      sibling === el ||
      (isElement(sibling)
        ? !MEDIA.has(sibling.name) && !hasDescendant(sibling, MEDIA) && visibleTextLength(sibling, 0) === 0
        : sibling.type !== "text" || !/\S/.test(sibling.data)),
  );
}

/** Headings and rules ending the content taken off at most: a rail's titles one above another. */
const MOST_TAKEN = 20;

/**
 * Drops the rules and label headings that end the content with nothing after them, and the rules
 * that open it: such a rule separates nothing, and a label ("Follow:", its icons gone) labels
 * nothing. Only a heading alone in its block and linking nowhere: a card's title (beside its
 * picture, or a link to its page) is an item. A heading that is all the content has stays; one
 * followed by a picture is followed by something.
 */
export function dropTrailingHeadings(roots: readonly Element[]): void {
  for (let taken = 0; taken < MOST_TAKEN && dropLast(roots); taken++);
  // A rule opening the content separates nothing either.
  for (let taken = 0; taken < MOST_TAKEN; taken++) {
    let start: Element | null | typeof NOTHING = NOTHING;
    for (let i = 0; i < roots.length && start === NOTHING; i++) start = endOf(roots[i]!, false);
    if (start === null || start === NOTHING || start.name !== "hr" || roots.includes(start)) return;
    removeNode(start);
  }
}

/** Removes the rule or label heading that ends the content, if one does; answers whether it did. */
function dropLast(roots: readonly Element[]): boolean {
  let end: Element | null | typeof NOTHING = NOTHING;
  for (let i = roots.length - 1; i >= 0 && end === NOTHING; i--) end = endOf(roots[i]!);
  if (end === null || end === NOTHING || roots.includes(end)) return false;
  if (end.name !== "hr") {
    const text = textOf(end);
    // The comments' heading ends the story it sits beside; a label stands alone in its block.
    const comments = COMMENTS_HEADING.test(text);
    if (!(comments || LABEL.test(text)) || linksAway(end) || !(comments || aloneInParent(end))) return false;
    // The only text there is: a page that is its title keeps it.
    const total = roots.reduce((sum, root) => sum + visibleTextLength(root), 0);
    if (total - visibleTextLength(end) <= 0 && !roots.some((root) => hasDescendant(root, MEDIA)))
      return false;
  }
  removeNode(end);
  return true;
}

import type { AnyNode, Element } from "domhandler";

/** Text read at most from an element's start for the words its id may spell. */
const LEAD_CHARS = 300;
/** Words an id must spell from the text to be its slug, not a name ("social-share" is two). */
const SLUG_WORDS = 3;

/** An element's text from its start, up to about `max` characters, lower-cased. */
function leadingText(el: Element, max: number): string {
  let out = "";
  const stack: AnyNode[] = [el];
  while (stack.length && out.length < max) {
    const node = stack.pop()!;
    if (node.type === "text") out += node.data;
    else if (node.type === "tag") {
      // Elements part words ("with us</h2><p>Readers" is two words, not "usreaders").
      out += " ";
      for (let i = (node as Element).children.length - 1; i >= 0; i--)
        stack.push((node as Element).children[i]!);
    }
  }
  return out.toLowerCase();
}

/**
 * Whether an element's id is the slug of its own text, as generators write a heading's anchor
 * (`<h3 id="h-how-does-social-shopping-differ">How does social shopping differ…`) or a section's
 * from its heading: its words, three or more once a short prefix ("h", "toc", a number) is set
 * aside, all stand in the element's opening text. Such an id names what the element says, not
 * what it is, so its words ("social", "share", "menu") say nothing of chrome.
 */
export function isTextSlug(el: Element): boolean {
  const id = el.attribs.id;
  if (!id) return false;
  if (isLinkedFromHeading(el, id)) return true;
  const words = id
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !/^\d+$/.test(w) && w !== "toc");
  if (words.length < SLUG_WORDS) return false;
  const text = new Set(leadingText(el, LEAD_CHARS).split(/[^\p{L}\p{N}]+/u));
  return words.every((w) => text.has(w));
}

/** A heading's tag name (nodes.ts imports this file, so its HEADING_TAGS cannot be read here). */
const HEADING = /^h[1-6]$/;
/** Nodes of a heading read at most for its anchor: a heading is short. */
const HEADING_NODES = 32;

/**
 * Whether the element's heading links to the element's own id: a doc generator's permalink
 * (Sphinx's `<section id="cookies"><h2>Cookies<a class="headerlink" href="#cookies">¶</a>`, MkDocs'
 * and Docusaurus' `<h2 id="cookies"><a href="#cookies">`). Such an id is the section's anchor, of
 * one word as often as of several ("cookies", "sessions"), and names no chrome: a cookie banner
 * never links to itself. The heading is the element itself or its first child element.
 */
function isLinkedFromHeading(el: Element, id: string): boolean {
  let heading: Element | undefined = HEADING.test(el.name) ? el : undefined;
  if (!heading)
    for (const child of el.children) {
      if (child.type === "text" && !child.data.trim()) continue;
      if (child.type === "tag" && HEADING.test((child as Element).name)) heading = child as Element;
      break;
    }
  if (!heading) return false;
  const target = `#${id}`;
  const stack: AnyNode[] = [...heading.children];
  for (let seen = 0; stack.length && seen < HEADING_NODES; seen++) {
    const node = stack.pop()!;
    if (node.type !== "tag") continue;
    const child = node as Element;
    if (child.name === "a" && child.attribs.href === target) return true;
    stack.push(...child.children);
  }
  return false;
}

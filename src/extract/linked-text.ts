import { type AnyNode, type Element, isElement, textOf, wordsOf } from "./nodes.ts";

/**
 * Whether a link-dense paragraph or list item of the content is text
 * nonetheless, read in one walk of its words outside links:
 * - sentences around their links ("today's deals include [MacBooks from $700]
 *   and [AirPods for $150]"), which a menu, a tag list or a "Related: [a], [b]"
 *   line does not have; an item is read in a list the content keeps ("Here are
 *   my [Top Four Tips]" among items of prose), so fewer words make it one;
 * - one address under a label of its own ("Account: @handle", "Tickets:
 *   www.theater.com", "Contact: name@site.org"), however much of it the link
 *   is, or several that each read as one ("Accounts: @one, @two, @three",
 *   "Mirrors: ftp.a.org, ftp.b.org"; not "Tags: [News], [Sports]"). A link of
 *   several words under a label ("Read more: Another story's headline") is a
 *   link away, and is neither.
 */
export function isTextDespiteLinks(el: Element): boolean {
  if (el.name !== "p" && el.name !== "li") return false;
  let words = 0;
  let outside = "";
  let links = 0;
  let lastLink = "";
  let addresses = true;
  let runsOn = false;
  const stack: AnyNode[] = [...el.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") {
      words += wordsOf(node.data).length;
      outside += node.data;
    } else if (isElement(node)) {
      if (node.name === "a") {
        links++;
        // Each link's text read once: for the addresses test, the run-on test and a lone link's label.
        const text = textOf(node);
        lastLink = text;
        if (addresses) addresses = MARKED_ADDRESS.test(text);
        if (!runsOn) runsOn = runsIntoLink(node, text);
      } else stack.push(...node.children);
    }
  }
  if (words >= (el.name === "li" ? ITEM_WORDS_BESIDE_LINKS : PROSE_WORDS_BESIDE_LINKS)) return true;
  if (runsOn && words >= SENTENCE_WORDS_BESIDE_LINKS) return true;
  const address = links === 1 ? ADDRESS.test(lastLink) : links > 1 && addresses;
  return address && LABEL.test(outside);
}

/**
 * Whether a sentence runs on into the link: the text before it ends in a word (no stop, no colon)
 * and the link's own words go on in lower case ("was convicted and [sentenced to life]"), where a
 * menu's or a label's next link starts afresh ("Read more: [Another story]").
 */
function runsIntoLink(link: Element, text: string): boolean {
  const before = link.prev;
  return before?.type === "text" && RUNS_BEFORE.test(before.data) && RUNS_ON.test(text);
}
const RUNS_BEFORE = /[\p{L}\p{N}],?\s+$/u;
const RUNS_ON = /^\s*\p{Ll}/u;

/** One unbroken token of letters or digits with the marks of an address (@handle, domain, e-mail). */
const ADDRESS = /^[@#]?[\p{L}\p{N}][\p{L}\p{N}._@/:+-]*$/u;
/** An address written as one (a handle, a domain, a path, an e-mail), not a word that could be a tag's. */
const MARKED_ADDRESS = /^(?=[^\s]*[@./:])[@#]?[\p{L}\p{N}][\p{L}\p{N}._@/:+-]*$/u;
/** Label text: two letters in a row, in any script. */
const LABEL = /\p{L}{2}/u;

/** Words outside links from which a paragraph whose sentence runs on into a link is prose. */
const SENTENCE_WORDS_BESIDE_LINKS = 5;
/** Words outside links from which a link-dense paragraph is prose. */
const PROSE_WORDS_BESIDE_LINKS = 10;
/** Words outside links from which a link-dense item of a kept list is a sentence ("Here are my [...]"). */
const ITEM_WORDS_BESIDE_LINKS = 3;

import { Element as DomElement } from "domhandler";
import { type Element, forEachElement, isElement } from "./nodes.ts";
import { itemTypesOf } from "./scan.ts";

const itemTypes = (el: Element): string[] =>
  el.attribs.itemscope === undefined ? [] : itemTypesOf(el.attribs.itemtype ?? "");

const hasProperty = (el: Element, name: string): boolean =>
  (el.attribs.itemprop ?? "").split(/\s+/).includes(name);

/** The item an element's properties belong to: its nearest ancestor with `itemscope`. */
function itemOf(el: Element): Element | null {
  for (let up = el.parent; up && isElement(up); up = up.parent)
    if ((up as Element).attribs.itemscope !== undefined) return up as Element;
  return null;
}

/** The first element giving `item`'s `text` property (not a property of an item inside it, such as a comment). */
function textProperty(item: Element): Element | null {
  let found: Element | null = null;
  forEachElement(item, (el) => {
    if (!found && hasProperty(el, "text") && itemOf(el) === item) found = el;
  });
  return found;
}

/**
 * A question-and-answer page as a reader reads it: the question's text, then
 * each answer's, in the page's order, with a rule between posts. Found
 * through the schema.org microdata Q&A sites give search engines (a
 * `Question` item and its `Answer` items, each with its `text` property), so
 * vote buttons, member stats, comments under posts, "Sorted by" and the
 * site's prompts around the thread stay out. Null when the page marks up no
 * question with a text.
 */
export function qaThread(body: Element): Element[] | null {
  let question: Element | null = null;
  const answers: Element[] = [];
  forEachElement(body, (el) => {
    const types = itemTypes(el);
    if (!question && types.includes("Question")) question = el;
    else if (types.includes("Answer")) answers.push(el);
  });
  const asked = question ? textProperty(question) : null;
  if (!asked) return null;
  const posts = [asked];
  for (const answer of answers) {
    const text = textProperty(answer);
    if (text && !posts.includes(text)) posts.push(text);
  }
  return posts.flatMap((post, i) => (i === 0 ? [post] : [new DomElement("hr", {}) as Element, post]));
}

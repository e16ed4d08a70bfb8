import { Element as ElementNode, Text } from "domhandler";
import { append, prepend } from "domutils";
import { type Element, forEachElement, isElement } from "./nodes.ts";

/** The element beside `el` (`side` -1 before, 1 after), text between skipped only when blank. */
function beside(el: Element, side: -1 | 1): Element | null {
  for (let node = side < 0 ? el.prev : el.next; node; node = side < 0 ? node.prev : node.next) {
    if (isElement(node)) return node;
    if (node.type === "text" && /\S/.test(node.data)) return null;
  }
  return null;
}

/**
 * Gives each ruby annotation without them the parentheses its `<rp>` fallback would: a reading set
 * above its characters (`<ruby>今日<rt>きょう</rt></ruby>`, Japanese furigana, a pinyin gloss) ran
 * into them as text ("今日きょう"); it reads "今日(きょう)" now, in markdown and text. The marks
 * are `<rp>` elements, so the html format still shows a browser the annotation above the line.
 */
export function parenthesizeRuby(root: Element): void {
  const bare: Element[] = [];
  forEachElement(root, (el) => {
    if (el.name === "rt" && beside(el, -1)?.name !== "rp" && beside(el, 1)?.name !== "rp") bare.push(el);
  });
  for (const rt of bare) {
    prepend(rt, new ElementNode("rp", {}, [new Text("(")]));
    append(rt, new ElementNode("rp", {}, [new Text(")")]));
  }
}

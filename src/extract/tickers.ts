import { type AnyNode, type Element, isElement, unlinkSiblings, walkWithin } from "./nodes.ts";

/** Copies in a row from which one phrase is a ticker's loop rather than the author's words. */
const COPIES = 4;
/** Nodes a copy may hold: a phrase and its separator ("Book Now <span>*</span>"). */
const COPY_NODES = 12;
/** Letters: a phrase, not a rating's stars or a row of counts. */
const WORDS = /\p{L}{2}/u;
/** A ticker's phrase is a slogan or a call to act, not a paragraph. */
const PHRASE_MAX = 60;
/** A table's cells repeat values on purpose ("Yes", "Best" across a comparison's row). */
const CELLS = new Set(["tr", "td", "th", "thead", "tbody", "tfoot", "table"]);

/**
 * Drops the copies of a ticker (a marquee, a scrolling banner): a stylesheet loops one phrase by
 * repeating its element many times in a row ("Book Now *" fifty times, "Free shipping" in a
 * band), which a reader sees as one line moving and markdown would print as one long line of
 * the same words. From four copies in a row of an element with the same tag, class and short
 * text, the first stays. Different phrases in a row (a list's items), a phrase said twice or
 * three times (mobile and desktop copies, which dedupe.ts reads) and marks without words
 * (stars) are left as written.
 */
export function dropTickerCopies(el: Element): void {
  const kids = el.children;
  if (kids.length < COPIES || CELLS.has(el.name)) return;
  let removed = 0;
  let first: Element | null = null;
  // The first copy's key, read once a second element like it follows (undefined until then).
  let firstKey: string | null | undefined;
  let run: Element[] = [];
  const close = (): void => {
    if (run.length + 1 >= COPIES) {
      for (const copy of run) unlinkSiblings(copy);
      removed += run.length;
    }
    run = [];
  };
  for (const kid of kids) {
    if (!isElement(kid)) {
      if (kid.type === "text" && /\S/.test(kid.data)) {
        close();
        first = null;
      }
      continue;
    }
    let key: string | null | undefined;
    if (first && kid.name === first.name && kid.attribs.class === first.attribs.class) {
      if (firstKey === undefined) firstKey = phraseKey(first);
      if (firstKey !== null) {
        key = phraseKey(kid);
        if (key === firstKey) {
          run.push(kid);
          continue;
        }
      }
    }
    close();
    first = kid;
    firstKey = key;
  }
  close();
  if (removed) el.children = kids.filter((kid) => kid.parent === el);
}

/**
 * What a copy shows, when it is a short phrase: its text, and what its links and pictures point at
 * (cards of a carousel may share a button's words, "Get the Program", each leading elsewhere).
 * Null past COPY_NODES nodes, past PHRASE_MAX characters, or without words.
 */
function phraseKey(el: Element): string | null {
  let text = "";
  let targets = "";
  const small = walkWithin(el, COPY_NODES, (node: AnyNode) => {
    if (node.type === "text") text += node.data;
    else if (isElement(node)) {
      const target = node.attribs.href ?? node.attribs.src;
      if (target !== undefined) targets += ` ${target}`;
    }
  });
  if (!small || text.length > 4 * PHRASE_MAX) return null;
  text = text.replace(/\s+/g, " ").trim();
  return text.length <= PHRASE_MAX && WORDS.test(text) ? `${text}\n${targets}` : null;
}

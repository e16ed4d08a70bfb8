import { type AnyNode, BLOCK_TAGS, type Element, HEADING_TAGS, isElement, visibleLength } from "./nodes.ts";

/**
 * Text statistics of one element's subtree, in visible characters. Blocks of
 * text are classed where they end (the nearest block element owning the text):
 * - good: prose and headings, few links (what readers come for)
 * - weak: short pieces without links (labels, prices, table cells, list items)
 * - bad: link-dominated text (menus, tag clouds, "related" lists)
 */
export interface TextStats {
  text: number;
  link: number;
  good: number;
  weak: number;
  bad: number;
  /** Blocks of prose (paragraph-like: long, few links). */
  paras: number;
}

/** Below this a block with few links is a label, not prose. */
const PROSE_MIN = 60;
/** A block whose text is more than this share of link text is navigation. */
const LINKY = 0.5;

interface BlockAcc {
  text: number;
  link: number;
}

function classify(tag: string, acc: BlockAcc, s: TextStats): void {
  const { text, link } = acc;
  if (text === 0) return;
  const density = link / text;
  if (tag === "pre" || tag === "code") {
    s.good += text;
  } else if (density > LINKY) {
    s.bad += text;
  } else if (HEADING_TAGS.has(tag)) {
    s.good += text - link;
    s.bad += link;
  } else if (text >= PROSE_MIN) {
    s.good += text - link;
    s.bad += link * 0.5;
    s.paras++;
  } else {
    s.weak += text - link;
    s.bad += link;
  }
}

/**
 * Measures every element under `root` (included) in one bottom-up pass, so
 * that later steps never call `.text()` inside a loop.
 */
export function measure(root: Element): Map<Element, TextStats> {
  const map = new Map<Element, TextStats>();
  const walk = (el: Element, block: BlockAcc, inLink: boolean): TextStats => {
    const s: TextStats = { text: 0, link: 0, good: 0, weak: 0, bad: 0, paras: 0 };
    const isBlock = BLOCK_TAGS.has(el.name) || el === root;
    const acc = isBlock ? { text: 0, link: 0 } : block;
    const linky = inLink || el.name === "a";
    for (const child of el.children as AnyNode[]) {
      if (child.type === "text") {
        const len = visibleLength(child.data);
        if (len === 0) continue;
        s.text += len;
        acc.text += len;
        if (linky) {
          s.link += len;
          acc.link += len;
        }
      } else if (isElement(child) && child.type === "tag") {
        const c = walk(child, acc, linky);
        s.text += c.text;
        s.link += c.link;
        s.good += c.good;
        s.weak += c.weak;
        s.bad += c.bad;
        s.paras += c.paras;
      }
    }
    if (isBlock) classify(el.name, acc, s);
    map.set(el, s);
    return s;
  };
  walk(root, { text: 0, link: 0 }, false);
  return map;
}

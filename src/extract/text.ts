import { Text } from "domhandler";
import { emojiOf } from "./emoji.ts";
import { type AnyNode, BLOCK_TAGS, isElement, withoutBreakMarks } from "./nodes.ts";
import type { Notations } from "./notation.ts";

const NO_NOTATIONS: Notations = new Map();

/** Blocks separated by a single line break rather than a blank line. */
const LINE_TAGS = new Set([
  "li",
  "tr",
  "dt",
  "dd",
  "td",
  "th",
  "figcaption",
  "caption",
  "thead",
  "tbody",
  "tfoot",
]);

/**
 * Plain text of content nodes, laid out for reading: paragraphs and headings
 * separated by blank lines, list items and table rows on their own lines,
 * table cells separated by tabs, `<pre>` kept verbatim, other whitespace
 * collapsed. Math reads as its TeX source and footnotes as `[1]`, as in the
 * markdown (see notation.ts), without markdown's syntax.
 */
export function toText(nodes: AnyNode[], notations: Notations = NO_NOTATIONS): string {
  const parts: string[] = [];
  // Pending separator before the next text: 0 none, 1 line break, 2 blank line.
  let gap = 0;
  let pre = 0;
  let noteOpen = false;
  const push = (text: string): void => {
    if (noteOpen) gap = 0;
    noteOpen = false;
    if (parts.length && gap) parts.push(gap === 2 ? "\n\n" : "\n");
    gap = 0;
    parts.push(text);
  };
  /** Text in a line: after a separator it starts a new part, else it runs on from the last. */
  const inline = (text: string): void => {
    const last = parts[parts.length - 1];
    if (gap || last === undefined || last.endsWith(" ") || last.endsWith("\n")) push(text.trimStart());
    else parts.push(text);
  };
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (node: AnyNode): void => {
    if (node.type === "text") {
      if (pre) {
        push(node.data);
        return;
      }
      const text = node.data.replace(/\s+/g, " ");
      if (text === " ") {
        if (parts.length && !gap && !parts[parts.length - 1]!.endsWith(" ")) parts.push(" ");
        return;
      }
      inline(text);
      return;
    }
    if (!isElement(node)) return;
    const mark = notations.get(node);
    if (mark && mark.kind !== "fndef") {
      if (mark.kind === "math") {
        if (mark.block) gap = 2;
        push(mark.tex);
        if (mark.block) gap = 2;
      } else if (mark.kind === "fnref") parts.push(`[${mark.label}]`);
      else if (mark.kind === "text") inline(mark.text);
      return;
    }
    if (node.type !== "tag") return;
    const name = node.name;
    if (name === "br") {
      // In code a line break is a line of its own (a blank line when alone); elsewhere it separates.
      if (pre) push("\n");
      else gap = Math.max(gap, 1);
      return;
    }
    if (name === "img") {
      // An image of an emoji reads as the emoji; other images have no text.
      const emoji = emojiOf(node.attribs.alt);
      if (emoji) visit(new Text(emoji));
      return;
    }
    if (name === "td" || name === "th") {
      if (node.prev && parts.length && !gap) parts.push("\t");
      for (const c of node.children) visit(c);
      // A cell spanning columns keeps the next cell in its column.
      const span = Math.min(Number.parseInt(node.attribs.colspan ?? "1", 10) || 1, 100);
      if (span > 1 && node.next) parts.push("\t".repeat(span - 1));
      return;
    }
    const block = BLOCK_TAGS.has(name);
    // Inside `<pre>`, a block is a line a highlighter wrapped (`div.cm-line`): one line break, no blank line.
    const sep = pre || LINE_TAGS.has(name) ? 1 : 2;
    if (block) gap = Math.max(gap, sep);
    if (mark) {
      // The note's number leads its first paragraph: "[1] Source: ...".
      push(`[${mark.label}] `);
      noteOpen = true;
    }
    if (name === "pre") pre++;
    for (const c of node.children) visit(c);
    if (name === "pre") pre--;
    if (block) gap = Math.max(gap, sep);
  };
  for (const n of nodes) visit(n);
  // As in the markdown: marks of where a line may break are not text.
  return (
    withoutBreakMarks(parts.join(""))
      // From a run's start only (the lookbehind): retried inside a run of spaces that ends in a
      // letter, the pattern was quadratic (a <pre> of 80,000 spaces took 4.5 s).
      .replace(/(?<![ \t])[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

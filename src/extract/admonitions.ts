import { Element as ElementNode, Text as TextNode } from "domhandler";
import { appendChild, replaceElement } from "domutils";
import { type Element, forEachElement, rowCells, tableRows, textOf } from "./nodes.ts";

/**
 * Asciidoctor draws a note, tip or warning as a table of one row: an icon cell naming the kind
 * ("Note", or an icon whose `title` says it) beside the content cell (`<div class="admonitionblock
 * note"><table><tr><td class="icon">…</td><td class="content">…</td></tr></table></div>`). Read as
 * a table it came out as `| Note | The "master" branch… |`; a reader sees a callout. The table
 * becomes a quote whose first line is the kind in bold ("**Note:**"), then the content.
 */

const BLOCK = /(?:^|\s)admonitionblock(?:\s|$)/;
const KIND_TEXT = 40;

/** The kind an admonition's icon cell names: its text, an icon's `title`, or the block's class. */
function kindOf(icon: Element, block: Element): string {
  const text = textOf(icon);
  if (text) return text;
  let title = "";
  forEachElement(icon, (el) => {
    title ||= el.attribs.title?.trim() ?? "";
  });
  if (title) return title;
  const word = (block.attribs.class ?? "").split(/\s+/).find((w) => w && w !== "admonitionblock") ?? "";
  return word ? word[0]!.toUpperCase() + word.slice(1) : "";
}

/** Rewrites each Asciidoctor admonition table under `root` as a quote led by its kind. */
export function unwrapAdmonitions(root: Element): void {
  const tables: [Element, Element][] = [];
  forEachElement(root, (el) => {
    if (el.name !== "table") return;
    const block = el.parent;
    if (block?.type === "tag" && BLOCK.test((block as Element).attribs.class ?? ""))
      tables.push([el, block as Element]);
  });
  for (const [table, block] of tables) {
    const rows = tableRows(table);
    if (rows.length !== 1) continue;
    const cells = rowCells(rows[0]!);
    if (cells.length !== 2) continue;
    const [icon, content] = cells as [Element, Element];
    if (!/(?:^|\s)icon(?:\s|$)/.test(icon.attribs.class ?? "")) continue;
    const kind = kindOf(icon, block);
    if (!kind || kind.length > KIND_TEXT) continue;
    const strong = new ElementNode("strong", {});
    appendChild(strong, new TextNode(`${kind}:`));
    const label = new ElementNode("p", {});
    appendChild(label, strong);
    const quote = new ElementNode("blockquote", {});
    appendChild(quote, label);
    for (const child of [...content.children]) appendChild(quote, child);
    replaceElement(table, quote);
  }
}

import { prepend } from "domutils";
import {
  type Element,
  forEachElement,
  hasDescendant,
  isElement,
  removeNode,
  tableRows,
  textOf,
} from "./nodes.ts";

/**
 * Code laid out as a table: a gutter of line numbers in one cell beside the
 * code in the other, one row (Pygments' `highlighttable`, as Sphinx and
 * MkDocs print code with line numbers; Hexo's `figure.highlight`; Rouge's
 * `rouge-table`). Read as a table, it came out as a GFM table whose two
 * cells held fences joined by `<br>`. A reader sees one block of code: the
 * table becomes what its code cell holds, without the numbers.
 */

const CELLS = new Set(["td", "th"]);
const PRE = new Set(["pre"]);
/** A gutter's text: line numbers and the whitespace between them, at least one number. */
const LINE_NUMBERS = /^\s*\d+(?:\s+\d+)*\s*$/;

/** The code cell of a line-numbered code table, or null when `table` is not one. */
function codeCell(table: Element): Element | null {
  const rows = tableRows(table);
  if (rows.length !== 1) return null;
  const cells = rows[0]!.children.filter((c): c is Element => isElement(c) && CELLS.has(c.name));
  if (cells.length !== 2) return null;
  const [gutter, code] = cells as [Element, Element];
  return LINE_NUMBERS.test(textOf(gutter)) && hasDescendant(code, PRE) ? code : null;
}

/** Whether `html` has both a table and a code block, read off the string: most pages spare the walk. */
export function mayHoldCodeTables(html: string): boolean {
  return /<table[\s>]/i.test(html) && /<pre[\s>]/i.test(html);
}

/** Replaces every line-numbered code table under `root` with its code cell's content. */
export function unwrapCodeTables(root: Element): void {
  const found: [Element, Element][] = [];
  forEachElement(root, (el) => {
    if (el.name !== "table") return;
    const code = codeCell(el);
    if (code) found.push([el, code]);
  });
  // The cell's children take the table's place, so the highlighter's wrappers around the code
  // (Sphinx's `highlight-python` two levels up) still name its language.
  for (const [table, code] of found) {
    for (const child of [...code.children]) prepend(table, child);
    removeNode(table);
  }
}

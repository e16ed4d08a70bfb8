import { prependChild } from "domutils";
import {
  type AnyNode,
  type Element,
  isElement,
  removeNode,
  rowCells,
  tableRows,
  textLength,
} from "./nodes.ts";

/**
 * One table drawn as two: a frozen first column (team names, tickers, people)
 * in a table of its own beside a scrolling table of the figures, row for row
 * (sports standings, price lists, leaderboards). A reader sees one table; read
 * apart, the figures lose what they are about, and the column alone (a link a
 * row) reads like a menu and is dropped with the menus. Joined here, before
 * the main content is chosen: each row's first cells go in front of the
 * matching row of the other table.
 *
 * Two tables count as one when, with nothing but whitespace around them in
 * their nearest common element: the first has one cell a row (without row or
 * column spans), the second more than one, both have the same number of rows
 * (at least `MIN_ROWS`), and their header rows line up.
 */

const MIN_ROWS = 3;

/** A header row: in a thead, or all its cells th. */
const isHeader = (row: Element): boolean =>
  (row.parent !== null && isElement(row.parent) && row.parent.name === "thead") ||
  rowCells(row).every((cell) => cell.name === "th");

const spans = (cell: Element): boolean =>
  Number(cell.attribs.rowspan ?? 1) > 1 || Number(cell.attribs.colspan ?? 1) > 1;

/** Tables not inside another table, in document order (walked without recursion). */
function outerTables(root: Element): Element[] {
  const tables: Element[] = [];
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.name === "table") {
      tables.push(node);
      continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return tables;
}

/** The nearest element holding both `a` and `b`. */
function commonParent(a: Element, b: Element): Element | null {
  const above = new Set<AnyNode>();
  for (let p = a.parent; p; p = p.parent) above.add(p);
  for (let p = b.parent; p; p = p.parent) if (above.has(p)) return isElement(p) ? p : null;
  return null;
}

/** Whether `holder` shows text anywhere outside the two tables. */
function textBeside(holder: Element, a: Element, b: Element): boolean {
  const stack: AnyNode[] = [...holder.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === a || node === b) continue;
    if (node.type === "text" && textLength(node) > 0) return true;
    if (isElement(node)) for (const child of node.children) stack.push(child);
  }
  return false;
}

/** The rows of `column` joined in front of `figures`' rows, when the two are one table drawn as two. */
function join(column: Element, figures: Element): boolean {
  const left = tableRows(column);
  const right = tableRows(figures);
  if (left.length < MIN_ROWS || left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) {
    const cells = rowCells(left[i]!);
    if (cells.length !== 1 || spans(cells[0]!)) return false;
    if (rowCells(right[i]!).length < 2) return false;
    if (isHeader(left[i]!) !== isHeader(right[i]!)) return false;
  }
  const holder = commonParent(column, figures);
  if (!holder || textBeside(holder, column, figures)) return false;
  for (let i = 0; i < left.length; i++) {
    const cell = rowCells(left[i]!)[0]!;
    removeNode(cell);
    prependChild(right[i]!, cell);
  }
  removeNode(column);
  return true;
}

/** Joins every frozen first column under `root` to the table of figures beside it. */
export function joinSplitTables(root: Element): void {
  const tables = outerTables(root);
  for (let i = 0; i + 1 < tables.length; i++) if (join(tables[i]!, tables[i + 1]!)) i++;
}

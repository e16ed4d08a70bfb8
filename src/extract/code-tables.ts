import { Element as ElementNode, Text as TextNode } from "domhandler";
import { prepend, textContent } from "domutils";
import type { PageMarks } from "./marks.ts";
import {
  type AnyNode,
  type Element,
  forEachElement,
  hasDescendant,
  nameWords,
  removeNode,
  rowCells,
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
 *
 * Or a row a line (a gist's, Gitea's or an old GitHub file view: a cell
 * numbered by `data-line-number` or by its text, 1, 2, 3..., beside the
 * line of code): the table becomes one `<pre>` of the lines as written.
 */

const PRE = new Set(["pre"]);
/** A gutter's text: line numbers and the whitespace between them, at least one number. */
const LINE_NUMBERS = /^\s*\d+(?:\s+\d+)*\s*$/;

/** The code cell of a line-numbered code table, or null when `table` is not one. */
function codeCell(table: Element): Element | null {
  const rows = tableRows(table);
  if (rows.length !== 1) return null;
  const cells = rowCells(rows[0]!);
  if (cells.length !== 2) return null;
  const [gutter, code] = cells as [Element, Element];
  return LINE_NUMBERS.test(textOf(gutter)) && hasDescendant(code, PRE) ? code : null;
}

/** Class words of a table or cell holding code (`highlight`, `blob-code`, `code-line`, `source`). */
const CODE_NAME = /(?:^|[\s_-])(?:highlight|code|source|blob|sourcecode|lines?)(?:$|[\s_-])/;

/** Rows from which a table of numbered lines is code rather than a two-column list. */
const MIN_LINES = 2;

/** The lines of a table laid out a line of code a row, or null when `table` is not one. */
function codeLines(table: Element): string[] | null {
  const rows = tableRows(table);
  if (rows.length < MIN_LINES) return null;
  const lines: string[] = [];
  for (const [i, row] of rows.entries()) {
    const cells = rowCells(row);
    if (cells.length !== 2) return null;
    const [number, line] = cells as [Element, Element];
    // Numbered by the attribute line views set, or by its text in a table named for code: a
    // ranking (1 | Rovers, 2 | United) is numbered too, and stays a table.
    const numbered =
      number.attribs["data-line-number"] !== undefined ||
      (textOf(number) === String(i + 1) &&
        (CODE_NAME.test(nameWords(table)) || CODE_NAME.test(nameWords(line))));
    if (!numbered || !/^\d*$/.test(textOf(number))) return null;
    // The line as written: its indentation is the code's.
    lines.push(textContent(line).replace(/\n$/, ""));
  }
  return lines;
}

/** What stands in a code table's place: its code cell's content, or one `<pre>` of its lines. */
function codeOf(table: Element): AnyNode[] | null {
  const code = codeCell(table);
  if (code) return [...code.children];
  const lines = codeLines(table);
  return lines ? [new ElementNode("pre", {}, [new TextNode(lines.join("\n"))])] : null;
}

/** What a page laying code out in a table has somewhere: a code block, line numbers, a class naming code. */
const CODE_MARKS = ["<pre", "<PRE", "data-line-number", "highlight", "code", "blob", "source", "line"];

/** Whether a page with these marks may lay code out in a table: most pages (no table) spare the walk. */
export function mayHoldCodeTables(html: string, marks: PageMarks): boolean {
  // Plain substring tests: a pattern reaching from a tag to its class word backtracked for minutes
  // on a page of 100,000 unquoted class attributes in one tag.
  return marks.tables > 0 && CODE_MARKS.some((mark) => html.includes(mark));
}

/**
 * Replaces every code table under `root` with its code. A code cell's children take the table's
 * place, so the highlighter's wrappers around the code (Sphinx's `highlight-python` two levels
 * up) still name its language.
 */
export function unwrapCodeTables(root: Element): void {
  const found: [Element, AnyNode[]][] = [];
  forEachElement(root, (el) => {
    const code = el.name === "table" ? codeOf(el) : null;
    if (code) found.push([el, code]);
  });
  for (const [table, code] of found) {
    for (const node of code) prepend(table, node);
    removeNode(table);
  }
}

/** Class words of a line's number inside code (Pygments' inline `linenos`, `lineno`, `line-number`, a gutter). */
const LINE_NUMBER_NAME = /(?:^|[\s_-])(?:line-?nos?|line-?num(?:ber)?s?|gutter)(?:$|[\s_-])/;
/** A line's number as a highlighter prints it before the line: digits, padded. */
const LINE_NUMBER = /^\s*\d+\s*$/;
/** What a page numbering the lines inside its code blocks has: a code block and such a class word. */
const LINE_NUMBER_MARKS = ["lineno", "line-num", "linenum", "line_num", "gutter"];

/** Whether a page with these marks may number lines inside its code blocks: only one with a `<pre>`. */
export function mayHoldLineNumbers(html: string, marks: PageMarks): boolean {
  return marks.pre && LINE_NUMBER_MARKS.some((mark) => html.includes(mark));
}

/**
 * Removes the line numbers a highlighter prints inside a code block (`<span class="linenos">1</span>`
 * before each line): markdown and text wrote them into the code ("1const a = 1;"), which a reader
 * copying it does not get from the page, where they sit in a margin or are not selectable.
 */
export function dropLineNumbers(root: Element): void {
  // A set: a code block inside another is walked with each.
  const doomed = new Set<Element>();
  forEachElement(root, (el) => {
    if (el.name !== "pre") return;
    forEachElement(el, (inner) => {
      if (LINE_NUMBER_NAME.test(nameWords(inner)) && LINE_NUMBER.test(textOf(inner))) doomed.add(inner);
    });
  });
  for (const el of doomed) removeNode(el);
}

import type TurndownService from "turndown";
import { unescapeInlineStart } from "./markdown-escape.ts";

/**
 * Tables for turndown, replacing the gfm plugin's row and cell rules: cells
 * spanning columns or rows keep every later cell in its column (the plugin
 * misaligns them and breaks the divider), the header is the `<thead>` rows or
 * the first rows of `<th>` (several read as one, a group's heading over each
 * of its columns), else an empty one as GFM requires; a table laid out
 * as one column, or holding another table, is a layout grid and comes out as
 * its content, one block per cell.
 */

/** Markdown of each converted cell, read by the table rule (turndown converts children first). */
const cellMarkdown = new WeakMap<Node, string>();

const isCell = (n: Node): n is HTMLElement => n.nodeName === "TD" || n.nodeName === "TH";

/** The rows of a table in reading order: head, bodies and direct rows, foot; nested tables' rows excluded. */
function rowsOf(table: HTMLElement): HTMLElement[] {
  const head: HTMLElement[] = [];
  const body: HTMLElement[] = [];
  const foot: HTMLElement[] = [];
  for (const part of Array.from(table.childNodes)) {
    if (part.nodeName === "TR") body.push(part as HTMLElement);
    else if (part.nodeName === "THEAD" || part.nodeName === "TBODY" || part.nodeName === "TFOOT") {
      const rows = part.nodeName === "THEAD" ? head : part.nodeName === "TFOOT" ? foot : body;
      for (const row of Array.from(part.childNodes)) if (row.nodeName === "TR") rows.push(row as HTMLElement);
    }
  }
  return [...head, ...body, ...foot];
}

function span(cell: HTMLElement, attr: string): number {
  const n = Number.parseInt(cell.getAttribute(attr) ?? "1", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 100) : 1;
}

/** A cell's or caption's markdown read inline, trimmed: a heading in it is its text (markdown reads none in a table). */
function inlineText(md: string): string {
  return md.trim().replace(/^#{1,6} +/gm, "");
}

/**
 * One cell's markdown on one line, headings as their text: line breaks (a hard break's trailing spaces with them) become
 * `<br>`, and every pipe not already escaped is (`a||b` is `a\\|\\|b`; an escaped backslash before
 * a pipe does not escape it). A cell's lines are one line of the row: none starts a markdown line
 * ("1. First" is no list).
 */
function cellText(cell: HTMLElement): string {
  return unescapeInlineStart(inlineText(cellMarkdown.get(cell) ?? ""))
    .replace(/[ \t]*\n+[ \t]*/g, "<br>")
    .replace(/\\[\s\S]|\|/g, (m) => (m === "|" ? "\\|" : m));
}

/**
 * Places each cell's `value` on a grid, honouring column and row spans; spanned slots are empty,
 * or with `fill` hold the spanning cell's value (a group header over each of its columns).
 */
function place(rows: HTMLElement[], value: (cell: HTMLElement) => string, fill: boolean): string[][] {
  const out: string[][] = rows.map(() => []);
  const taken: boolean[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let col = 0;
    for (const node of Array.from(row.childNodes)) {
      if (!isCell(node)) continue;
      while (taken[r]![col]) col++;
      const cols = span(node, "colspan");
      const down = Math.min(span(node, "rowspan"), rows.length - r);
      const text = value(node);
      for (let dr = 0; dr < down; dr++)
        for (let dc = 0; dc < cols; dc++) {
          taken[r + dr]![col + dc] = true;
          out[r + dr]![col + dc] = fill || (dr === 0 && dc === 0) ? text : "";
        }
      col += cols;
    }
  });
  return out;
}

function isHeaderRow(row: HTMLElement): boolean {
  if (row.parentNode?.nodeName === "THEAD") return true;
  const cells = Array.from(row.childNodes).filter(isCell);
  return cells.length > 0 && cells.every((c) => c.nodeName === "TH");
}

/** A cell's markdown that is bold as a whole ("**Services**"; not "**$455** an hour", nor "**a** and **b**"). */
const WHOLLY_BOLD = /^\*\*(?:(?!\*\*).)+\*\*$/;

/** A row with something in one of its cells. */
const isFilled = (cells: string[]): boolean => cells.some((c) => c !== "");

/** A row whose cells are bold as a whole, two or more of them, the rest empty (a corner cell). */
function isBoldRow(cells: string[]): boolean {
  const filled = cells.filter((c) => c !== "");
  return filled.length >= 2 && filled.every((c) => WHOLLY_BOLD.test(c));
}

/** A header cell's alignment as a divider writes it, or "" when it sets none. */
function alignMark(cell: HTMLElement): string {
  const align = cell.getAttribute("align")?.toLowerCase();
  return align === "center" ? ":---:" : align === "right" ? "---:" : align === "left" ? ":---" : "";
}

/** The divider's marks: each column's alignment as the lowest header cell starting in it (or the first row's) sets it. */
function alignment(rows: HTMLElement[], heads: number, width: number): string[] {
  const marks = place(rows.slice(0, Math.max(1, heads)), alignMark, false);
  return Array.from({ length: width }, (_, c) => {
    for (let r = marks.length - 1; r >= 0; r--) if (marks[r]![c]) return marks[r]![c]!;
    return "---";
  });
}

/** Header rows read as one: a table's grouped headings ("Scores" over "Q1" and "Q2"). */
const MOST_HEADER_ROWS = 4;

/**
 * The header of a table whose first `count` rows are header rows, as the one row GFM allows: each
 * column's headings from the top down, a heading spanning rows or columns once per column
 * ("Name", "Scores Q1", "Scores Q2").
 */
function mergedHeader(rows: HTMLElement[], count: number, width: number): string[] {
  const filled = place(rows.slice(0, count), cellText, true);
  return Array.from({ length: width }, (_, c) => {
    const parts: string[] = [];
    for (const row of filled) {
      const text = row[c] ?? "";
      if (text && text !== parts[parts.length - 1]) parts.push(text);
    }
    return parts.join(" ");
  });
}

const line = (cells: string[]): string => `| ${cells.map((c) => c || " ").join(" | ")} |`;

function hasNestedTable(table: HTMLElement): boolean {
  return Array.from(table.getElementsByTagName("table")).length > 0;
}

/** Markdown of each converted caption, read by the table rule. */
const captionMarkdown = new WeakMap<Node, string>();

/**
 * A caption as the line above its table: its markdown, its blocks (a card's heading over its
 * subtitle: "Undergraduate", "Full-time") parted by spaces and headings as their text.
 */
function captionLine(caption: Node): string {
  return inlineText(captionMarkdown.get(caption) ?? "").replace(/\s*\n\s*/g, " ");
}

/** Adds the cell, row and table rules to a service that already uses the gfm plugin (these win). */
export function addTableRules(td: TurndownService): void {
  td.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content, node) => {
      cellMarkdown.set(node, content);
      // A layout table is unwrapped: its cells come out as blocks.
      return `\n\n${content}\n\n`;
    },
  });
  td.addRule("tableCaption", {
    filter: "caption",
    replacement: (content, node) => {
      captionMarkdown.set(node, content);
      // A layout table is unwrapped: its caption comes out as a block of its own.
      return `\n\n${content}\n\n`;
    },
  });
  td.addRule("tableRow", {
    filter: "tr",
    replacement: (content) => content,
  });
  td.addRule("table", {
    filter: "table",
    replacement: (content, node) => {
      const table = node as HTMLElement;
      const rows = rowsOf(table);
      const cells = place(rows, cellText, false);
      const width = Math.max(0, ...cells.map((r) => r.length));
      if (width < 2 || hasNestedTable(table)) return `\n\n${content}\n\n`;
      for (const r of cells) while (r.length < width) r.push("");
      const caption = Array.from(table.childNodes).find((n) => n.nodeName === "CAPTION");
      const title = caption && captionLine(caption);
      let heads = 0;
      while (heads < rows.length && isHeaderRow(rows[heads]!)) heads++;
      // A table of header cells only, or of more header rows than a group of headings has, keeps
      // its first row as the header and the rest as rows.
      if (heads === rows.length || heads > MOST_HEADER_ROWS) heads = Math.min(heads, 1);
      // A first row set all in bold is the header an editor drew without header cells.
      const boldHead = heads === 0 && rows.length > 1 && isBoldRow(cells[0]!);
      if (boldHead) heads = 1;
      const header =
        heads > 1
          ? mergedHeader(rows, heads, width)
          : heads === 1
            ? boldHead
              ? cells[0]!.map((c) => c.slice(2, -2))
              : cells[0]!
            : Array.from({ length: width }, () => "");
      cells.splice(0, heads);
      // Without a header, the columns align as the first row with something in it does.
      const filled = heads ? 0 : Math.max(0, cells.findIndex(isFilled));
      const aligned = alignment(rows.slice(filled), heads, width);
      // A row with nothing in any cell is a layout's spacer (`<tr class="spacer" style="height:5px">`):
      // on the page a gap, in markdown a row of blanks.
      const body = cells.filter(isFilled);
      // So is a column with nothing in any row, its heading included (a spacer cell in every row),
      // as long as two columns are left.
      const shown = header.map((h, c) => h !== "" || body.some((r) => r[c] !== ""));
      const dropColumns = shown.filter(Boolean).length >= 2 && shown.includes(false);
      const keep = <T>(r: T[]): T[] => (dropColumns ? r.filter((_, c) => shown[c]) : r);
      const lines = [
        line(keep(header)),
        `| ${keep(aligned).join(" | ")} |`,
        ...body.map((r) => line(keep(r))),
      ];
      return `\n\n${title ? `${title}\n\n` : ""}${lines.join("\n")}\n\n`;
    },
  });
}

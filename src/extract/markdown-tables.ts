import type TurndownService from "turndown";

/**
 * Tables for turndown, replacing the gfm plugin's row and cell rules: cells
 * spanning columns or rows keep every later cell in its column (the plugin
 * misaligns them and breaks the divider), the header is the `<thead>` row or
 * a first row of `<th>`, else an empty one as GFM requires; a table laid out
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

/**
 * One cell's markdown on one line: line breaks (a hard break's trailing spaces with them) become
 * `<br>`, and every pipe not already escaped is (`a||b` is `a\\|\\|b`; an escaped backslash before
 * a pipe does not escape it).
 */
function cellText(cell: HTMLElement): string {
  const md = cellMarkdown.get(cell) ?? "";
  return md
    .trim()
    .replace(/[ \t]*\n+[ \t]*/g, "<br>")
    .replace(/\\[\s\S]|\|/g, (m) => (m === "|" ? "\\|" : m));
}

/** Places cells on a grid, honouring column and row spans; spanned slots are empty. */
function grid(rows: HTMLElement[]): string[][] {
  const out: string[][] = rows.map(() => []);
  const taken: boolean[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let col = 0;
    for (const node of Array.from(row.childNodes)) {
      if (!isCell(node)) continue;
      while (taken[r]![col]) col++;
      const cols = span(node, "colspan");
      const down = Math.min(span(node, "rowspan"), rows.length - r);
      for (let dr = 0; dr < down; dr++)
        for (let dc = 0; dc < cols; dc++) {
          taken[r + dr]![col + dc] = true;
          out[r + dr]![col + dc] = dr === 0 && dc === 0 ? cellText(node) : "";
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

function alignment(row: HTMLElement | undefined, width: number): string[] {
  const marks = Array.from({ length: width }, () => "---");
  if (!row) return marks;
  let col = 0;
  for (const node of Array.from(row.childNodes)) {
    if (!isCell(node)) continue;
    const align = node.getAttribute("align")?.toLowerCase();
    if (align === "center") marks[col] = ":---:";
    else if (align === "right") marks[col] = "---:";
    else if (align === "left") marks[col] = ":---";
    col += span(node, "colspan");
  }
  return marks;
}

const line = (cells: string[]): string => `| ${cells.map((c) => c || " ").join(" | ")} |`;

function hasNestedTable(table: HTMLElement): boolean {
  return Array.from(table.getElementsByTagName("table")).length > 0;
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
  td.addRule("tableRow", {
    filter: "tr",
    replacement: (content) => content,
  });
  td.addRule("table", {
    filter: "table",
    replacement: (content, node) => {
      const table = node as HTMLElement;
      const rows = rowsOf(table);
      const cells = grid(rows);
      const width = Math.max(0, ...cells.map((r) => r.length));
      if (width < 2 || hasNestedTable(table)) return `\n\n${content}\n\n`;
      for (const r of cells) while (r.length < width) r.push("");
      const caption = Array.from(table.childNodes).find((n) => n.nodeName === "CAPTION");
      const title = caption?.textContent?.replace(/\s+/g, " ").trim();
      const header =
        rows[0] && isHeaderRow(rows[0]) ? cells.shift()! : Array.from({ length: width }, () => "");
      const lines = [line(header), `| ${alignment(rows[0], width).join(" | ")} |`, ...cells.map(line)];
      return `\n\n${title ? `${title}\n\n` : ""}${lines.join("\n")}\n\n`;
    },
  });
}

import {
  addValue,
  childElements,
  clean,
  type Element,
  type ParentNode,
  textOf,
  walkElements,
} from "./dom.ts";
import type { Data, Found } from "./types.ts";

/** Lists under a heading longer than this are navigation or archives, not a recipe's ingredients. */
const MAX_LIST_ITEMS = 60;
const HEADINGS = new Set(["h2", "h3", "h4", "h5", "h6"]);
/** Regions whose tables and lists are site chrome, not the page's content. */
const CHROME = new Set(["nav", "header", "footer", "aside", "script", "style", "template", "form", "select"]);

/**
 * Data tables and key/value markup:
 * - a table with a header row (`<thead>`, or a first row of `<th>`) and at least two columns is
 *   a "Table" `{ caption?, headers, rows }`, each row a record keyed by the header cells;
 * - a table whose rows each start with a `<th>` (a spec sheet) is a "PropertyTable" `{ label: value }`;
 * - layout tables (no header cells, one column, or holding other tables) are skipped.
 */
export function findTables(root: ParentNode): Found[] {
  const found: Found[] = [];
  walkElements(root, (el) => {
    if (CHROME.has(el.name)) return false;
    if (el.name !== "table") return undefined;
    const table = readTable(el);
    if (table) found.push(table);
    return undefined;
  });
  return found;
}

/** The table's own rows, not those of tables nested in its cells. */
function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of childElements(table)) {
    if (child.name === "tr") rows.push(child);
    else if (child.name === "thead" || child.name === "tbody" || child.name === "tfoot") {
      for (const row of childElements(child)) if (row.name === "tr") rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  const cells: Element[] = [];
  for (const cell of childElements(row)) {
    if (cell.name !== "td" && cell.name !== "th") continue;
    const span = Math.min(Math.max(Number.parseInt(cell.attribs.colspan ?? "1", 10) || 1, 1), 20);
    for (let i = 0; i < span; i++) cells.push(cell);
  }
  return cells;
}

function readTable(table: Element): Found | null {
  let nested = false;
  walkElements(table, (el) => {
    if (el.name === "table") nested = true;
    return nested ? false : undefined;
  });
  if (nested) return null;
  const rows = rowsOf(table);
  if (rows.length < 2) return null;
  const caption = childElements(table).find((c) => c.name === "caption");
  const first = cellsOf(rows[0]!);
  const inHead = rows[0]!.parent !== table && (rows[0]!.parent as Element).name === "thead";
  const headerRow = first.length >= 2 && (inHead || first.every((c) => c.name === "th"));

  if (headerRow) {
    const headers = uniqueHeaders(first.map((c, i) => clean(textOf(c)) ?? `Column ${i + 1}`));
    const records: Data[] = [];
    for (const row of rows.slice(1)) {
      const cells = cellsOf(row);
      if (cells.length < 2 || (row.parent as Element).name === "thead") continue;
      const record: Data = {};
      headers.forEach((header, i) => {
        const cell = cells[i];
        record[header] = cell ? clean(textOf(cell)) : null;
      });
      if (Object.values(record).some((v) => v !== null)) records.push(record);
    }
    if (!records.length) return null;
    const data: Data = { headers, rows: records };
    if (caption) data.caption = clean(textOf(caption));
    return { type: "Table", data, signal: "table" };
  }

  // A spec sheet: every row a <th> label and its value cells.
  const properties: Data = {};
  for (const row of rows) {
    const cells = childElements(row).filter((c) => c.name === "td" || c.name === "th");
    if (cells.length < 2 || cells[0]!.name !== "th") return null;
    const label = clean(textOf(cells[0]!));
    const value = clean(cells.slice(1).map(textOf).join(" "));
    if (label && value) addValue(properties, label, value);
  }
  if (Object.keys(properties).length < 2) return null;
  if (caption) properties["@caption"] = clean(textOf(caption));
  return { type: "PropertyTable", data: properties, signal: "table" };
}

function uniqueHeaders(headers: string[]): string[] {
  const seen = new Map<string, number>();
  return headers.map((h) => {
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return n > 1 ? `${h} ${n}` : h;
  });
}

/**
 * Key/value markup outside site chrome: each `<dl>` is a "DefinitionList" `{ term: definition }`
 * (a term with several definitions gets an array), and the lists under each heading are one
 * "Lists" Found `{ heading: [items] }`: a heading over a list is a term and its definitions
 * ("Ingredients" over the ingredients, "Requirements" over the requirements).
 */
export function findDefinitionLists(root: ParentNode): Found[] {
  const found: Found[] = [];
  const lists: Data = {};
  let heading: string | null = null;
  walkElements(root, (el) => {
    if (CHROME.has(el.name)) return false;
    if (HEADINGS.has(el.name)) {
      heading = clean(textOf(el));
      return false;
    }
    if (el.name === "dl") {
      const data = readDl(el);
      if (Object.keys(data).length) found.push({ type: "DefinitionList", data, signal: "definition-list" });
      return false;
    }
    if ((el.name === "ul" || el.name === "ol") && heading) {
      const items = childElements(el)
        .filter((li) => li.name === "li")
        .map((li) => clean(textOf(li)))
        .filter((t): t is string => t !== null);
      if (items.length && items.length <= MAX_LIST_ITEMS && lists[heading] === undefined)
        lists[heading] = items;
      return false;
    }
    return undefined;
  });
  if (Object.keys(lists).length) found.push({ type: "Lists", data: lists, signal: "definition-list" });
  return found;
}

function readDl(dl: Element): Data {
  const data: Data = {};
  let terms: string[] = [];
  let afterDd = false;
  const visit = (el: Element, depth = 0): void => {
    if (el.name === "dt") {
      if (afterDd) terms = [];
      afterDd = false;
      const term = clean(textOf(el));
      if (term) terms.push(term.replace(/:$/, ""));
    } else if (el.name === "dd") {
      afterDd = true;
      const value = clean(textOf(el));
      if (value) for (const term of terms) addValue(data, term, value);
      // Groups of dt and dd may sit in a <div>; deeper nesting is not a definition list's.
    } else if (el.name === "div" && depth < 2) for (const child of childElements(el)) visit(child, depth + 1);
  };
  for (const child of childElements(dl)) visit(child);
  return data;
}

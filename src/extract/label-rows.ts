import { Text } from "domhandler";
import { prepend } from "domutils";
import { type AnyNode, type Element, isElement, walkWithin } from "./nodes.ts";

/**
 * A label and its value drawn as one row out of boxes: `<div><div>Delivery:</div><div>Varies</div></div>`
 * (a shop's item facts), `<div>Length: <div>13 feet</div></div>` (a product card's specs). A
 * stylesheet sets the two side by side, as a reader sees "Delivery: Varies"; read as markup, the
 * boxes are two paragraphs, the label on a line of its own and its value under it. Where a row
 * holds exactly a short label ending in a colon and one short value, each on one line, markdown and
 * text read it as one line. Paragraphs, headings, lists, code and longer text are left as written
 * ("Example:" above a code block, "Learn how to:" above a list).
 */

/** Tags a label or value may be made of: boxes, and inline markup of a line's words. */
const LINE_TAGS = new Set([
  "div",
  "span",
  "label",
  "strong",
  "b",
  "em",
  "i",
  "small",
  "a",
  "code",
  "kbd",
  "q",
  "cite",
  "u",
  "time",
  "data",
  "abbr",
  "sup",
  "sub",
  "s",
  "del",
  "ins",
  "mark",
  "bdi",
  "font",
]);
/** The boxes that would start a line of their own: read as inline markup inside a row. */
const BOXES = new Set(["div"]);
/**
 * Elements that may hold a row: boxes, list items, a description's or a cell's content. Not a
 * quote, whose title ("khixxx said:") sits above the words quoted.
 */
const ROW_TAGS = new Set(["div", "li", "dd", "td", "th", "span", "label"]);
/** A label: a few words ending in a colon (":" or the full-width "："). */
const LABEL = /^(?=.*\p{L})[^\n]{1,40}[:：]$/u;
const LABEL_MAX = 41;
/** A value: a short line with a letter or digit, not a label itself. */
const VALUE = /[\p{L}\p{N}]/u;
const VALUE_MAX = 80;
/** Nodes a label or value holds at most: a row is a few wrappers deep, never a section. */
const ROW_NODES = 24;

/** A child that shows something: an element, or text other than whitespace (comments are not). */
function shows(node: AnyNode): boolean {
  return isElement(node) || (node.type === "text" && /\S/.test((node as Text).data));
}

/**
 * The text of a label or value when it is one line of allowed markup, each box in it the only
 * thing its parent shows (a chain of wrappers, not two boxes stacked); null otherwise. `boxes`
 * collects the boxes to read inline.
 */
function lineText(node: AnyNode, boxes: Element[]): string | null {
  let text = "";
  let ok = true;
  const small = walkWithin(node, ROW_NODES, (n) => {
    if (!ok) return;
    if (n.type === "text") text += (n as Text).data;
    else if (isElement(n)) {
      if (!LINE_TAGS.has(n.name)) ok = false;
      else if (BOXES.has(n.name)) {
        if (n !== node && n.parent && n.parent.children.filter(shows).length > 1) ok = false;
        boxes.push(n);
      }
    }
  });
  return small && ok ? text.replace(/\s+/g, " ").trim() : null;
}

/** `row`'s label and value, with the boxes to read inline, when it is a label row; null otherwise. */
function labelRow(row: Element): { label: AnyNode; value: AnyNode; boxes: Element[] } | null {
  if (!ROW_TAGS.has(row.name)) return null;
  let label: AnyNode | null = null;
  let value: AnyNode | null = null;
  for (const kid of row.children) {
    if (!shows(kid)) continue;
    if (!label) label = kid;
    else if (!value) value = kid;
    else return null;
  }
  if (!label || !value) return null;
  const boxes: Element[] = [];
  const labelText = lineText(label, boxes);
  if (labelText === null || labelText.length > LABEL_MAX || !LABEL.test(labelText)) return null;
  const valueText = lineText(value, boxes);
  if (
    valueText === null ||
    valueText.length > VALUE_MAX ||
    !VALUE.test(valueText) ||
    /[:：]$/.test(valueText)
  )
    return null;
  // Inline markup alone already reads as one line.
  return boxes.length ? { label, value, boxes } : null;
}

/**
 * Reads `el` as one line when it is a label row (see above): its boxes become inline markup and a
 * space parts the label from its value. True when it was one; its insides are then read.
 */
export function joinLabelRow(el: Element): boolean {
  const row = labelRow(el);
  if (!row) return false;
  for (const box of row.boxes) box.name = "span";
  const { label, value } = row;
  const end = label.type === "text" ? (label as Text).data : "";
  const start = value.type === "text" ? (value as Text).data : "";
  if (!/\s$/.test(end) && !/^\s/.test(start)) prepend(value, new Text(" "));
  return true;
}

import {
  absoluteUrl,
  addValue,
  childElements,
  clean,
  type Element,
  localName,
  type ParentNode,
  textOf,
  walkElements,
} from "./dom.ts";
import type { Data, Found } from "./types.ts";

const URL_ATTRIBUTES = ["resource", "href", "src"] as const;
/** Items nested deeper than this are read as text: real pages nest a few levels, hostile ones thousands. */
const MAX_NESTING = 32;

/**
 * Every top-level RDFa Lite item (an element with `typeof` that is not another item's
 * `property`) with its properties by local name ("schema:name" and "https://schema.org/name"
 * are both "name"); nested items are objects with their own "@type".
 */
export function findRdfa(root: ParentNode, base: string): Found[] {
  const tops: Element[] = [];
  walkElements(root, (el) => {
    if (el.attribs.typeof === undefined) return undefined;
    if (el.attribs.property === undefined || !insideItem(el)) tops.push(el);
    // Items under this one are found while reading it; an untyped-property nested item is its own top.
    return undefined;
  });
  return tops.map((el) => {
    const data = readItem(el, base);
    return { type: typeof data["@type"] === "string" ? data["@type"] : "Thing", data, signal: "rdfa" };
  });
}

function insideItem(el: Element): boolean {
  for (let p = el.parent; p && p.type !== "root"; p = p.parent) {
    if ((p as Element).attribs?.typeof !== undefined) return true;
  }
  return false;
}

function readItem(item: Element, base: string, depth = 0): Data {
  const data: Data = {};
  const types = (item.attribs.typeof ?? "").split(/\s+/).filter(Boolean).map(localName);
  if (types.length) data["@type"] = types[0];
  const id = item.attribs.resource ?? item.attribs.about;
  if (id) data["@id"] = absoluteUrl(id, base) ?? id;
  // Depth-first without recursion (pages nest deeply); nested items up to MAX_NESTING levels.
  const stack = childElements(item).reverse();
  while (stack.length) {
    const el = stack.pop()!;
    const names = (el.attribs.property ?? "").split(/\s+/).filter(Boolean);
    const nested = el.attribs.typeof !== undefined;
    if (names.length) {
      const value = nested
        ? depth < MAX_NESTING
          ? readItem(el, base, depth + 1)
          : clean(textOf(el))
        : propertyValue(el, base);
      if (value !== null && value !== "") for (const name of names) addValue(data, localName(name), value);
    }
    if (nested) continue;
    const children = childElements(el);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return data;
}

/** RDFa's order: content, then a link (resource, href, src), then datetime, then the text. */
function propertyValue(el: Element, base: string): string | null {
  const a = el.attribs;
  if (a.content !== undefined) return clean(a.content);
  if (a.datatype === undefined) {
    for (const attr of URL_ATTRIBUTES)
      if (a[attr] !== undefined) return absoluteUrl(a[attr], base) ?? clean(a[attr]);
  }
  if (el.name === "time" && a.datetime) return clean(a.datetime);
  return clean(textOf(el));
}

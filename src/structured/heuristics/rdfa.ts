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

function readItem(item: Element, base: string): Data {
  const data: Data = {};
  const types = (item.attribs.typeof ?? "").split(/\s+/).filter(Boolean).map(localName);
  if (types.length) data["@type"] = types[0];
  const id = item.attribs.resource ?? item.attribs.about;
  if (id) data["@id"] = absoluteUrl(id, base) ?? id;
  const visit = (el: Element): void => {
    const names = (el.attribs.property ?? "").split(/\s+/).filter(Boolean);
    const nested = el.attribs.typeof !== undefined;
    if (names.length) {
      const value = nested ? readItem(el, base) : propertyValue(el, base);
      if (value !== null && value !== "") for (const name of names) addValue(data, localName(name), value);
    }
    if (nested) return;
    for (const child of childElements(el)) visit(child);
  };
  for (const child of childElements(item)) visit(child);
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

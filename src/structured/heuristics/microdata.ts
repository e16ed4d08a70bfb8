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

/** Elements whose itemprop value is a URL attribute, per the HTML standard's microdata value rules. */
const URL_ATTRIBUTE: Record<string, string> = {
  a: "href",
  area: "href",
  link: "href",
  audio: "src",
  embed: "src",
  iframe: "src",
  img: "src",
  source: "src",
  track: "src",
  video: "src",
  object: "data",
};

/** Items nested deeper than this are read as text: real pages nest a few levels, hostile ones thousands. */
const MAX_NESTING = 32;

/**
 * Properties whose value is a link. Pages often put other properties on an `<a>` (an author's
 * name linking to their page); for those the link's text is the value, as search engines read it.
 */
const LINK_PROPERTIES = new Set([
  "url",
  "sameAs",
  "image",
  "logo",
  "photo",
  "thumbnailUrl",
  "contentUrl",
  "embedUrl",
  "downloadUrl",
  "item",
  "mainEntityOfPage",
  "license",
  "relatedLink",
  "significantLink",
  "availability",
  "itemCondition",
  "eventStatus",
  "eventAttendanceMode",
  "hasMap",
  "video",
  "audio",
  "codeRepository",
  "discussionUrl",
]);

/**
 * Every top-level microdata item (itemscope without itemprop) with its properties, nested items
 * as objects with their own "@type", repeated properties as arrays and `itemref` followed.
 */
export function findMicrodata(root: ParentNode, base: string): Found[] {
  const ids = new Map<string, Element>();
  const tops: Element[] = [];
  walkElements(root, (el) => {
    const a = el.attribs;
    if (a.id && !ids.has(a.id)) ids.set(a.id, el);
    if (a.itemscope !== undefined && a.itemprop === undefined) tops.push(el);
    return undefined;
  });
  return tops.map((el) => {
    const data = readItem(el, base, ids, new Set());
    return { type: typeof data["@type"] === "string" ? data["@type"] : "Thing", data, signal: "microdata" };
  });
}

function readItem(item: Element, base: string, ids: Map<string, Element>, seen: Set<Element>): Data {
  const data: Data = {};
  const types = (item.attribs.itemtype ?? "").split(/\s+/).filter(Boolean).map(localName);
  if (types.length) data["@type"] = types[0];
  const id = item.attribs.itemid?.trim();
  if (id) data["@id"] = absoluteUrl(id, base) ?? id;
  const inner = new Set(seen).add(item);

  const roots: Element[] = [...childElements(item)];
  for (const ref of (item.attribs.itemref ?? "").split(/\s+/).filter(Boolean)) {
    const target = ids.get(ref);
    if (target) roots.push(target);
  }
  // Depth-first without recursion (pages nest deeply); a nested item is read as its own, up to MAX_NESTING.
  const stack = [...roots].reverse();
  while (stack.length) {
    const el = stack.pop()!;
    const names = (el.attribs.itemprop ?? "").split(/\s+/).filter(Boolean);
    const scope = el.attribs.itemscope !== undefined;
    if (names.length) {
      const value = scope
        ? inner.has(el) || inner.size > MAX_NESTING
          ? clean(textOf(el))
          : readItem(el, base, ids, inner)
        : propertyValue(el, base, names);
      if (value !== null && value !== "") for (const name of names) addValue(data, localName(name), value);
    }
    // A nested item's properties are its own, not this item's.
    if (scope) continue;
    const children = childElements(el);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return data;
}

/** The value of an itemprop element: content, URL, datetime, value or text, by element. */
function propertyValue(el: Element, base: string, names: string[]): string | null {
  const a = el.attribs;
  // Not in the standard, but pages (and Google) use content="" on any element for the machine value.
  if (a.content !== undefined) return clean(a.content);
  if ((el.name === "a" || el.name === "area") && !names.some((n) => LINK_PROPERTIES.has(localName(n)))) {
    const text = clean(textOf(el));
    if (text) return text;
  }
  const urlAttr = URL_ATTRIBUTE[el.name];
  if (urlAttr) return absoluteUrl(a[urlAttr], base) ?? clean(textOf(el));
  if (el.name === "time") return clean(a.datetime) ?? clean(textOf(el));
  if (el.name === "data" || el.name === "meter") return clean(a.value) ?? clean(textOf(el));
  return clean(textOf(el));
}

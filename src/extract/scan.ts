import type { CheerioAPI } from "cheerio";
import { textContent } from "domutils";
import { type AnyNode, type Element, forEachElement, type ParentNode } from "./nodes.ts";
import { isTagLink } from "./tag-links.ts";

/** What metadata and link extraction read from the original document, found in one walk. */
export interface PageScan {
  /** The first `<base href>`. */
  baseHref: string | undefined;
  /** `<meta content>` elements, in document order. */
  metas: Element[];
  /** `<script type="application/ld+json">` elements, in document order. */
  jsonLd: Element[];
  /** The first `<title>` child of `<head>`, and the first `<title>` anywhere. */
  headTitle: Element | undefined;
  title: Element | undefined;
  h1: Element | undefined;
  /** The first element with rel="author", and with itemprop="author". */
  relAuthor: Element | undefined;
  itempropAuthor: Element | undefined;
  /** The first `<time datetime>`. */
  time: Element | undefined;
  /** The first `<link rel="canonical">`. */
  canonical: Element | undefined;
  /** `href` of every `<a href>` and `<area href>`, in document order. */
  hrefs: string[];
  /** The schema.org type names of microdata items (`itemtype`), in document order. */
  itemTypes: string[];
  /** Whether a link names a tag of the page (`rel="tag"`: see tag-links.ts). */
  tagLinks: boolean;
}

const scans = new WeakMap<AnyNode, PageScan>();

/** The schema.org type names an `itemtype` attribute lists ("https://schema.org/Answer" -> "Answer"). */
export function itemTypesOf(itemtype: string): string[] {
  return itemtype.split(/\s+/).filter(Boolean).map(typeName);
}

/** "https://schema.org/Product" and "schema:Product" are "Product". */
export function typeName(iri: string): string {
  return iri.slice(Math.max(iri.lastIndexOf("/"), iri.lastIndexOf(":"), iri.lastIndexOf("#")) + 1);
}

function walk(root: ParentNode): PageScan {
  const scan: PageScan = {
    baseHref: undefined,
    metas: [],
    jsonLd: [],
    headTitle: undefined,
    title: undefined,
    h1: undefined,
    relAuthor: undefined,
    itempropAuthor: undefined,
    time: undefined,
    canonical: undefined,
    hrefs: [],
    itemTypes: [],
    tagLinks: false,
  };
  // Document order, as the CSS selectors it replaces returned.
  forEachElement(root, (el) => {
    const a = el.attribs;
    switch (el.name) {
      case "a":
        if (a.rel !== undefined && !scan.tagLinks) scan.tagLinks = isTagLink(el);
        if (a.href !== undefined) scan.hrefs.push(a.href);
        break;
      case "area":
        if (a.href !== undefined) scan.hrefs.push(a.href);
        break;
      case "meta":
        if (a.content !== undefined) scan.metas.push(el);
        break;
      case "script":
        if (a.type === "application/ld+json") scan.jsonLd.push(el);
        break;
      case "title":
        scan.title ??= el;
        if (!scan.headTitle && el.parent?.type === "tag" && (el.parent as Element).name === "head")
          scan.headTitle = el;
        break;
      case "h1":
        scan.h1 ??= el;
        break;
      case "base":
        if (a.href !== undefined) scan.baseHref ??= a.href;
        break;
      case "time":
        if (a.datetime !== undefined) scan.time ??= el;
        break;
      case "link":
        if (a.rel === "canonical") scan.canonical ??= el;
        break;
    }
    if (a.itemtype !== undefined) scan.itemTypes.push(...itemTypesOf(a.itemtype));
    if (a.rel === "author") scan.relAuthor ??= el;
    if (a.itemprop === "author") scan.itempropAuthor ??= el;
  });
  return scan;
}

/**
 * One walk over the original document for the base URL, metadata and links:
 * a CSS selector per item walked the whole tree each time (about a seventh
 * of extraction). Remembered per document; call it before cleaning changes
 * the tree.
 */
export function scanPage($: CheerioAPI): PageScan {
  const root = $.root()[0] as ParentNode;
  let scan = scans.get(root);
  if (!scan) {
    scan = walk(root);
    scans.set(root, scan);
  }
  return scan;
}

/** All text of an element and its descendants, script text included, as cheerio's `.text()` gives it. */
export function allText(el: Element | undefined): string {
  return el ? textContent(el) : "";
}

export type JsonLdNode = Record<string, unknown>;

const jsonLd = new WeakMap<PageScan, JsonLdNode[]>();

/**
 * The page's JSON-LD nodes, arrays and `@graph` flattened (nested objects
 * stay inside their parents); malformed blocks are skipped. Parsed once per scan.
 */
export function jsonLdNodes(scan: PageScan): JsonLdNode[] {
  let nodes = jsonLd.get(scan);
  if (nodes) return nodes;
  const found: JsonLdNode[] = [];
  // Depth-first with a stack, in document order: JSON.parse reads any depth, so a block of
  // 200,000 nested arrays would overflow a recursive walk.
  const visit = (block: unknown): void => {
    const stack = [block];
    while (stack.length) {
      const value = stack.pop();
      if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
      else if (value && typeof value === "object") {
        const node = value as JsonLdNode;
        found.push(node);
        if (node["@graph"]) stack.push(node["@graph"]);
      }
    }
  };
  for (const el of scan.jsonLd) {
    try {
      visit(JSON.parse(allText(el)));
    } catch {
      // Pages often ship broken JSON-LD; it is a hint, never a reason to fail.
    }
  }
  nodes = found;
  jsonLd.set(scan, nodes);
  return nodes;
}

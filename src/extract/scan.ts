import type { CheerioAPI } from "cheerio";
import type { AnyNode, Element } from "domhandler";
import { textContent } from "domutils";

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
}

const scans = new WeakMap<AnyNode, PageScan>();

function walk(root: AnyNode): PageScan {
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
  };
  // Iterative pre-order walk: document order, as the CSS selectors it replaces returned.
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const node = stack.pop() as AnyNode;
    if (!("children" in node)) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
    if (node.type !== "tag" && node.type !== "script" && node.type !== "style") continue;
    const el = node as Element;
    const a = el.attribs;
    switch (el.name) {
      case "a":
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
    if (a.rel === "author") scan.relAuthor ??= el;
    if (a.itemprop === "author") scan.itempropAuthor ??= el;
  }
  return scan;
}

/**
 * One walk over the original document for the base URL, metadata and links:
 * a CSS selector per item walked the whole tree each time (about a seventh
 * of extraction). Remembered per document; call it before cleaning changes
 * the tree.
 */
export function scanPage($: CheerioAPI): PageScan {
  const root = $.root()[0] as AnyNode;
  let scan = scans.get(root);
  if (!scan) {
    scan = walk(root);
    scans.set(root, scan);
  }
  return scan;
}

/** Text of an element and its descendants, as cheerio's `.text()` gives it. */
export function textOf(el: Element | undefined): string {
  return el ? textContent(el) : "";
}

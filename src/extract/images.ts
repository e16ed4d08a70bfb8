import { BLOCK_TAGS, type Element, forEachElement, isElement, visibleTextLength } from "./nodes.ts";
import type { ImageInfo } from "./types.ts";

function dimension(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * An image declared a pixel wide or tall (a tracking pixel, a spacer a table layout pads with:
 * `<img src="s.gif" height="1" width="14">`), or none and given no size otherwise. Next.js
 * declares its responsive images `width="0" height="0"` and sizes them with a class or a style
 * (`md:w-full`, `width:100%`): those show.
 */
export function isPixel(el: Element): boolean {
  const a = el.attribs;
  const width = dimension(a.width);
  const height = dimension(a.height);
  if (width === 1 || height === 1) return true;
  if (width !== 0 && height !== 0) return false;
  return a.class === undefined && a.style === undefined && a.sizes === undefined && a.srcset === undefined;
}

/** A drawing's file: an icon set's glyph more often than a picture. */
const SVG_FILE = /\.svg(?:[?#]|$)/i;

/**
 * An icon beside words: an SVG image without a description (`alt` absent or empty, so a screen
 * reader skips it too) whose box holds text (`<div class="feature"><img src="hd.svg"><p>HD
 * camera</p></div>`, `<li><img src="check.svg"> Free returns</li>`). It decorates the words, and
 * in markdown it is a bare `![](…svg)` line. An image alone in its box (a logo heading a
 * comparison table's column) stays.
 */
export function isIconBesideText(el: Element): boolean {
  const src = el.attribs.src;
  if (src === undefined || !SVG_FILE.test(src) || (el.attribs.alt ?? "").trim() !== "") return false;
  let box = el.parent;
  while (box && isElement(box) && !BLOCK_TAGS.has(box.name)) box = box.parent;
  return box !== null && isElement(box) && visibleTextLength(box, 1) > 0;
}

function attr(el: Element, name: string): string | null {
  const value = el.attribs[name]?.replace(/\s+/g, " ").trim();
  return value ? value : null;
}

/**
 * Images of the content, in document order and deduplicated by source:
 * absolute `src` (run after URL resolution), alt, title and the declared
 * width/height. Inline `data:` images and 1x1 tracking pixels are skipped.
 */
export function collectImages(roots: Element[]): ImageInfo[] {
  const seen = new Set<string>();
  const images: ImageInfo[] = [];
  const visit = (el: Element): void => {
    if (el.name !== "img") return;
    const src = el.attribs.src?.trim();
    if (!src || /^(?:data|blob|javascript):/i.test(src) || !/^https?:/i.test(src)) return;
    if (isPixel(el)) return;
    const width = dimension(el.attribs.width);
    const height = dimension(el.attribs.height);
    if (seen.has(src)) return;
    seen.add(src);
    images.push({ src, alt: attr(el, "alt"), title: attr(el, "title"), width, height });
  };
  for (const root of roots) {
    visit(root);
    forEachElement(root, visit);
  }
  return images;
}

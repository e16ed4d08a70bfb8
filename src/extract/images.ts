import { type Element, forEachElement } from "./nodes.ts";
import type { ImageInfo } from "./types.ts";

function dimension(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : null;
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
    const width = dimension(el.attribs.width);
    const height = dimension(el.attribs.height);
    if ((width !== null && width <= 1) || (height !== null && height <= 1)) return;
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

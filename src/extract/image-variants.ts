import { type Element, forEachElement, removeNode } from "./nodes.ts";

/** Size words image pipelines put before a file name: "lg_photo.jpg", "thumb-photo.jpg". */
const SIZE_PREFIX = /^(?:xs|sm|md|lg|xl|xxl|small|medium|large|thumb|thumbnail|mobile|tablet|desktop)[_-]/i;
/** ...and after it: "photo-640x480.jpg", "photo@2x.png", "photo_large.jpg", "photo-1200w.webp". */
const SIZE_SUFFIX =
  /[_@-](?:\d+x\d*|x\d+|\d+[wh]|xs|sm|md|lg|xl|xxl|small|medium|large|thumb|thumbnail|mobile|tablet|desktop)(?=\.[a-z0-9]+$)/i;

/** The file name of an image without the size it was cut to, or null when its URL has none. */
export function imageIdentity(src: string): string | null {
  let path: string;
  try {
    path = new URL(src).pathname;
  } catch {
    return null;
  }
  const name = path
    .slice(path.lastIndexOf("/") + 1)
    .replace(SIZE_PREFIX, "")
    .replace(SIZE_SUFFIX, "");
  return name ? name.toLowerCase() : null;
}

/**
 * Removes the other sizes of an image already in the content. A page often
 * sends one picture at several sizes and lets its stylesheet show one per
 * screen width (a card's "lg_" picture on top for wide screens, its "sm_" one
 * beside the text for narrow ones); a reader of the markdown would see it
 * twice. An image is another size of an earlier one when both describe it
 * alike (the same alt text, not empty) and their file names are the same
 * once the size is taken out. Runs on the settled content, with URLs resolved.
 */
export function dropImageVariants(roots: Element[]): void {
  const seen = new Set<string>();
  const variants: Element[] = [];
  for (const root of roots) {
    forEachElement(root, (el) => {
      if (el.name !== "img") return;
      const alt = el.attribs.alt?.replace(/\s+/g, " ").trim().toLowerCase();
      const identity = el.attribs.src ? imageIdentity(el.attribs.src) : null;
      if (!alt || !identity) return;
      const key = `${alt}\n${identity}`;
      if (seen.has(key)) variants.push(el);
      else seen.add(key);
    });
  }
  for (const el of variants) removeNode(el);
}

import {
  BLOCK_TAGS,
  type Element,
  forEachElement,
  isElement,
  removeNode,
  visibleTextLength,
} from "./nodes.ts";
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

/** Class words of a person's picture beside their name: a member's avatar, a byline's headshot. */
export const AVATAR_CLASS =
  /(?:^|[\s_-])(?:avatars?|gravatar|userpic|user-?pic|profile-?(?:pic|photo|image|img)|author-?(?:avatar|photo|image|img|pic))(?:$|[\s_-])/i;

/** Where sites keep those pictures: an `avatars` folder, Gravatar, a default profile picture. */
export const AVATAR_SRC =
  /(?:\/avatars?\/|gravatar\.com\/|[/_-]default[_-](?:profile|avatar|user)|\/avatar[_-]default|\/profile[_-](?:pic|photo|image)s?\/)/i;

/** Levels of inline wrappers (a profile link, a span) whose class may name the picture. */
const AVATAR_WRAPPERS = 2;

/**
 * A person's picture beside their name (a forum member's avatar, a commenter's Gravatar, a
 * byline's headshot): named so by its class or its wrappers' (`avatar`, `userpic`,
 * `author-photo`) or kept where sites keep them (`/data/avatars/m/2/2708.jpg`,
 * `secure.gravatar.com/avatar/...`, `avatar-default.png`). The name is the text beside it; in
 * markdown the picture is a `![name](…)` line before every post.
 */
export function isAvatar(el: Element): boolean {
  const src = el.attribs.src ?? "";
  if (AVATAR_SRC.test(src)) return true;
  let node: Element | null = el;
  for (let level = 0; node && level <= AVATAR_WRAPPERS; level++) {
    const cls = node.attribs.class;
    if (cls !== undefined && AVATAR_CLASS.test(cls)) return true;
    const parent: Element["parent"] = node.parent;
    node = parent && isElement(parent) && !BLOCK_TAGS.has(parent.name) ? parent : null;
  }
  return false;
}

/**
 * Removes, under `roots`, the people's pictures (isAvatar). Run once the content is chosen: the name
 * beside a picture still reads as it did when choosing (a post's author, a byline), only the
 * picture goes (a link left empty writes nothing in markdown).
 */
export function dropAvatars(roots: Element[]): void {
  const doomed: Element[] = [];
  for (const root of roots)
    forEachElement(root, (el) => {
      if (el.name === "img" && isAvatar(el)) doomed.push(el);
    });
  for (const img of doomed) removeNode(img);
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

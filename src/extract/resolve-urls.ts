import { type Element, forEachElement, isElement, removeNode } from "./nodes.ts";
import { resolveHref } from "./resolve.ts";
import { formatSrcset, parseSrcset, widestCandidate } from "./srcset.ts";

/** Attributes holding one URL, per element name. */
const URL_ATTRS: Record<string, string[]> = {
  a: ["href"],
  area: ["href"],
  img: ["src"],
  source: ["src"],
  video: ["src", "poster"],
  audio: ["src"],
  track: ["src"],
  q: ["cite"],
  blockquote: ["cite"],
};

function absolute(value: string, base: string): string | null {
  const v = value.trim();
  if (!v || v.startsWith("#") || /^(?:data|javascript|mailto|tel):/i.test(v)) return null;
  return resolveHref(v, base);
}

function absoluteSrcset(value: string, base: string): string {
  return formatSrcset(parseSrcset(value).map((c) => ({ ...c, url: absolute(c.url, base) ?? c.url })));
}

/**
 * A lazy loader's stand-in: an inline image, or a file named for what it is, a word at most
 * either side (`placeholder.gif`, `img-blank.png`, `lazy-load.svg`, `spacer.gif`, `1x1.png`),
 * shown until a script swaps in the real one. A product's `white-sock-transparent.png` is real.
 */
const PLACEHOLDER_FILE =
  /(?:^|\/)(?:[a-z\d]+[-_])?(?:placeholder|blank|lazy|lazyload|lazy-load|spacer|transparent|loading|loader|1x1)(?:[-_.][a-z\d]+)?\.(?:gif|png|svg|jpe?g|webp)(?:[?#]|$)/i;

function isPlaceholder(src: string | undefined): boolean {
  return !src || src.startsWith("data:") || PLACEHOLDER_FILE.test(src);
}

/** Class words of an image a lazy loader fills in (`lazy`, `lazyload`, `b-lazy`): its `src` waits for the script. */
const LAZY_CLASS = /(?:^|[\s_-])(?:lazy|lazyload|lazy-load)(?:$|[\s_-])/i;

/** A candidate's width or density descriptor followed by the next candidate: "a.jpg 1000w, b.jpg". */
const SRCSET_LIST = /\s\d+(?:\.\d+)?[wx]\s*,\s*\S/i;

/**
 * A `src` a template filled with a whole `srcset` ("a.jpg?c=1 1000w, b.jpg?c=1 1250w, ..."): no
 * single address, so the browser shows what the `srcset` offers; read as one URL it was a link to
 * nothing, every candidate glued together.
 */
function isSrcsetList(src: string): boolean {
  return SRCSET_LIST.test(src);
}

/** The `srcset` of the first `<source>` beside `img` in its `<picture>` (lazy ones read already). */
function pictureSrcset(img: Element): string | undefined {
  const picture = img.parent;
  if (!picture || !isElement(picture) || picture.name !== "picture") return undefined;
  for (const child of picture.children)
    if (isElement(child) && child.name === "source") {
      const set = child.attribs.srcset || child.attribs["data-srcset"] || child.attribs["data-lazy-srcset"];
      if (set) return set;
    }
  return undefined;
}

/**
 * Rewrites relative URLs in the content to absolute ones against `baseUrl`
 * (the page URL or its `<base href>`), so links and images still work once
 * the content leaves the page. Lazy-loaded images get their real source in
 * `src` when `src` is missing or a placeholder (an inline image, a
 * `placeholder.gif`): from `data-src` and friends, else (a picture) the
 * widest of its `srcset` or lazy `data-srcset` (which becomes the
 * `srcset`), else of the first `<source>` beside it in its `<picture>`. A
 * `src` holding a whole candidate list (a template's slip) gets the widest
 * candidate of its `srcset`, or of that list. An image classed for a lazy
 * loader (`lazy`) takes its `data-src` whatever its `src` shows. An image
 * left with only a stand-in's file and no `srcset` (`blank.png` whose real
 * source a script computes) goes: the page does not hold its picture.
 */
export function resolveUrls(roots: Element[], baseUrl: string): void {
  const standIns: Element[] = [];
  const fix = (el: Element): void => {
    if (el.name === "img" || el.name === "source") {
      const a = el.attribs;
      // Empty attributes count as missing (`srcset=""`, `data-src=""` wait for the loader).
      const lazySet = a["data-srcset"] || a["data-lazy-srcset"];
      if (lazySet && !a.srcset) a.srcset = lazySet;
      const lazy = a["data-src"] || a["data-lazy-src"] || a["data-original"];
      // A loader's image shows its own stand-in (`preloaderbig.gif`) until the script swaps in data-src.
      if (isPlaceholder(a.src) || (lazy && LAZY_CLASS.test(a.class ?? ""))) {
        const set = el.name === "img" ? a.srcset || pictureSrcset(el) : undefined;
        const real = lazy || (set ? widestCandidate(set) : undefined);
        if (real) a.src = real;
        // Still the stand-in, with no source to show: the saved page does not hold the picture.
        else if (el.name === "img" && a.src && PLACEHOLDER_FILE.test(a.src)) {
          standIns.push(el);
          return;
        }
      } else if (isSrcsetList(a.src!)) {
        // The element's own srcset is what a browser shows; without one, the list in src is.
        a.src = widestCandidate(a.srcset || a.src!) ?? a.src!;
      }
      if (a.srcset) a.srcset = absoluteSrcset(a.srcset, baseUrl);
    }
    const attrs = URL_ATTRS[el.name];
    if (!attrs) return;
    for (const attr of attrs) {
      const value = el.attribs[attr];
      if (value === undefined) continue;
      const abs = absolute(value, baseUrl);
      if (abs) el.attribs[attr] = abs;
    }
  };
  for (const root of roots) {
    fix(root);
    forEachElement(root, fix);
  }
  for (const img of standIns) if (!roots.includes(img)) removeNode(img);
}

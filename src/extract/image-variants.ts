import { type Element, forEachElement, removeNode } from "./nodes.ts";

/** Size words image pipelines put before a file name: "lg_photo.jpg", "thumb-photo.jpg". */
const SIZE_PREFIX = /^(?:xs|sm|md|lg|xl|xxl|small|medium|large|thumb|thumbnail|mobile|tablet|desktop)[_-]/i;
/** ...and after it: "photo-640x480.jpg", "photo@2x.png", "photo_large.jpg", "photo-1200w.webp". */
const SIZE_SUFFIX =
  /[_@-](?:\d+x\d*|x\d+|\d+[wh]|xs|sm|md|lg|xl|xxl|small|medium|large|thumb|thumbnail|mobile|tablet|desktop)(?=\.[a-z0-9]+$)/i;
/** The colour scheme a picture was drawn for, before its extension: "diagram.dark.png", "logo-light.svg". */
const THEME_SUFFIX = /[._-](dark|light)(?:-?mode)?(?=\.[a-z0-9]+$)/i;

/** A path naming a picture file: what an image script's parameter holds ("/images/post_6.jpg"). */
const PICTURE_FILE = /\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$/i;
/** Addresses of pictures looked into inside an image URL's parameters, one inside another. */
const MAX_NESTED = 2;
/** A server script's name ("image.php", "thumb.aspx"): the script, not the picture it serves. */
const SCRIPT_FILE = /\.(?:php\d?|aspx?|ashx|jsp|cgi|pl|py)$/i;

/**
 * The file name of the picture an image URL serves, or null when its URL names none. An image
 * optimizer's or resizing script's URL carries the picture's own address in a parameter
 * (Next.js's `/_next/image/?url=%2Fimg%2Fdesk.jpg&w=640`, `image.php?src=/images/post_6.jpg&w=660`,
 * TimThumb's `?src=`): that address names it. A script's URL naming no picture file names no
 * picture either (`image.php?id=7`), as every picture it serves has that name.
 */
function pictureFile(src: string, depth = 0): string | null {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  // The `url` parameter (an optimizer's, with or without an extension), or one naming a picture file.
  // An optimizer's URL inside another's is looked into, not one nested deeper: each level parses
  // what is left of the URL, so a URL nesting itself thousands of times cost seconds.
  if (depth < MAX_NESTED)
    for (const [key, value] of url.searchParams) {
      if (key !== "url" && !PICTURE_FILE.test(value.split(/[?#]/)[0]!)) continue;
      try {
        const own = pictureFile(new URL(value, url).href, depth + 1);
        if (own) return own;
      } catch {
        // Not an address: the URL's own path names the picture, if anything does.
      }
    }
  const name = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
  return name && !SCRIPT_FILE.test(name) ? name : null;
}

/** The file name of an image without the size it was cut to or its colour scheme, or null when its URL has none. */
export function imageIdentity(src: string): string | null {
  const name = pictureFile(src)?.replace(SIZE_PREFIX, "").replace(THEME_SUFFIX, "").replace(SIZE_SUFFIX, "");
  return name ? name.toLowerCase() : null;
}

/** Whether an image's file is the one drawn for a dark colour scheme. */
function forDarkScheme(src: string): boolean {
  return THEME_SUFFIX.exec(pictureFile(src) ?? "")?.[1]?.toLowerCase() === "dark";
}

/**
 * Removes the other sizes of an image already in the content. A page often
 * sends one picture at several sizes and lets its stylesheet show one per
 * screen width (a card's "lg_" picture on top for wide screens, its "sm_" one
 * beside the text for narrow ones); a reader of the markdown would see it
 * twice. An image is another size of an earlier one when both describe it
 * alike (the same alt text, not empty) and their file names are the same
 * once the size is taken out. A picture drawn for each colour scheme
 * ("diagram.dark.png" beside "diagram.png") is one picture too: the one a
 * page shows by default, not the dark one, stays. Runs on the settled
 * content, with URLs resolved.
 */
export function dropImageVariants(roots: Element[]): void {
  const seen = new Map<string, Element>();
  const variants: Element[] = [];
  for (const root of roots) {
    forEachElement(root, (el) => {
      if (el.name !== "img") return;
      const alt = el.attribs.alt?.replace(/\s+/g, " ").trim().toLowerCase();
      const src = el.attribs.src;
      const identity = src ? imageIdentity(src) : null;
      if (!alt || !src || !identity) return;
      const key = `${alt}\n${identity}`;
      const first = seen.get(key);
      if (!first) seen.set(key, el);
      else if (forDarkScheme(first.attribs.src!) && !forDarkScheme(src)) {
        variants.push(first);
        seen.set(key, el);
      } else variants.push(el);
    });
  }
  for (const el of variants) removeNode(el);
}

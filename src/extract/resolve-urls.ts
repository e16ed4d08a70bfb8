import { type Element, forEachElement } from "./nodes.ts";
import { resolveHref } from "./resolve.ts";

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
  return value
    .split(",")
    .map((candidate) => {
      const [url, ...descriptor] = candidate.trim().split(/\s+/);
      const abs = url ? absolute(url, base) : null;
      return [abs ?? url, ...descriptor].join(" ");
    })
    .join(", ");
}

/**
 * Rewrites relative URLs in the content to absolute ones against `baseUrl`
 * (the page URL or its `<base href>`), so links and images still work once
 * the content leaves the page. Lazy-loaded images get their real source in
 * `src` (from data-src and friends) when `src` is missing or a placeholder.
 */
export function resolveUrls(roots: Element[], baseUrl: string): void {
  const fix = (el: Element): void => {
    if (el.name === "img" || el.name === "source") {
      const src = el.attribs.src;
      const lazy = el.attribs["data-src"] ?? el.attribs["data-lazy-src"] ?? el.attribs["data-original"];
      if (lazy && (!src || src.startsWith("data:"))) el.attribs.src = lazy;
      const srcset = el.attribs.srcset;
      if (srcset) el.attribs.srcset = absoluteSrcset(srcset, baseUrl);
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
}

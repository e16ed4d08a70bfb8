import { type Element, forEachElement } from "./nodes.ts";

/** An address as a link to a page writes it: without its fragment, nor its path's trailing slash. */
function pageKey(href: string): string | null {
  try {
    const url = new URL(href);
    url.hash = "";
    return url.href.replace(/\/$/, "");
  } catch {
    return null;
  }
}

/**
 * Takes the address off links to the page itself (a headline linking to its own story, "this
 * page" in a sentence): to a reader of the markdown, a link to the page they are reading goes
 * nowhere new, as a same-page `#` anchor does, and its text stays. Runs on the settled content
 * with URLs resolved, after the `html` format is rendered, which keeps the page's markup.
 */
export function unlinkSelf(roots: readonly Element[], pageUrl: string): void {
  const own = pageKey(pageUrl);
  if (own === null) return;
  // Links are absolute by now: only those to the page's own origin are parsed.
  const origin = new URL(own).origin;
  for (const root of roots)
    forEachElement(root, (el) => {
      const href = el.name === "a" ? el.attribs.href : undefined;
      if (href?.startsWith(origin) && pageKey(href) === own) delete el.attribs.href;
    });
}

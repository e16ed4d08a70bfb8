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

const NOWHERE = (): boolean => false;

/**
 * A test of whether a link leads to the page at `pageUrl` itself (a headline linking to its own
 * story, "this page" in a sentence): to a reader of the markdown such a link goes nowhere new, as a
 * same-page `#` anchor does, and is its text. Links are absolute by the time markdown is written,
 * so only those to the page's own origin are parsed.
 */
export function leadsToPage(pageUrl: string | undefined): (href: string) => boolean {
  const own = pageUrl === undefined ? null : pageKey(pageUrl);
  if (own === null) return NOWHERE;
  const origin = new URL(own).origin;
  return (href) => href.startsWith(origin) && pageKey(href) === own;
}

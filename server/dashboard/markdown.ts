import { Marked, type Tokens } from "marked";
import { escapeHtml, raw, type SafeHtml } from "./html.ts";

/** Link targets a rendered page may point at: web, mail, and the page's own anchors. */
function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (trimmed.startsWith("#")) return trimmed;
  try {
    const url = new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:"
      ? url.href
      : null;
  } catch {
    return null;
  }
}

/**
 * Markdown from web pages, rendered for the dashboard. The markdown is the page author's, so
 * nothing in it may become markup of the dashboard's: raw HTML is shown as text, links keep only
 * http(s), mailto and in-page targets (javascript:, data: and the rest become plain text), and
 * images become links to them, so a rendered page loads nothing from anywhere.
 */
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const target = safeHref(href);
      if (!target) return inner;
      const titled = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(target)}"${titled} rel="nofollow noopener noreferrer">${inner}</a>`;
    },
    image({ href, text }: Tokens.Image) {
      const label = `image: ${text || "untitled"}`;
      const target = safeHref(href);
      return target
        ? `<a class="md-image" href="${escapeHtml(target)}" rel="nofollow noopener noreferrer">[${escapeHtml(label)}]</a>`
        : `[${escapeHtml(label)}]`;
    },
  },
});

/** Renders markdown from a web page to HTML that is safe inside the dashboard (see above). */
export function renderMarkdown(markdown: string): SafeHtml {
  return raw(marked.parse(markdown, { async: false }));
}

import type { OutputFormat } from "../extract/types.ts";
import { codeFence, escapeHtml } from "./escape.ts";
import { type Feed, parseXml, type Sitemap } from "./xml-parse.ts";

/** An XML document rendered for reading, with the absolute URLs it points to. */
export interface XmlContent {
  title: string;
  content: string;
  links: string[];
}

/** Resolves a feed or sitemap link against the document URL; unusable links are dropped, not guessed. */
function absolute(link: string | null, baseUrl: string): string | null {
  if (!link) return null;
  try {
    const url = new URL(link, baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Square brackets would end a markdown link text early. */
function markdownLinkText(text: string): string {
  return text.replace(/([[\]\\])/g, "\\$1");
}

/** Parentheses and spaces would end a markdown link destination early; the <...> form allows both. */
function markdownLinkUrl(url: string): string {
  return /[\s()]/.test(url) ? `<${url}>` : url;
}

function renderFeed(feed: Feed, format: OutputFormat, baseUrl: string): XmlContent {
  const items = feed.items.map((item) => ({
    ...item,
    title: item.title || item.link || "Untitled",
    link: absolute(item.link, baseUrl),
  }));
  const links = [absolute(feed.link, baseUrl), ...items.map((item) => item.link)].filter(
    (link): link is string => link !== null,
  );
  const blocks: string[] = [];
  if (format === "html") {
    if (feed.title) blocks.push(`<h1>${escapeHtml(feed.title)}</h1>`);
    if (feed.description) blocks.push(paragraphsHtml(feed.description));
    for (const item of items) {
      const title = escapeHtml(item.title);
      const heading = item.link ? `<a href="${escapeHtml(item.link)}">${title}</a>` : title;
      const parts = [`<h2>${heading}</h2>`];
      if (item.date) parts.push(`<p><time>${escapeHtml(item.date)}</time></p>`);
      if (item.summary) parts.push(paragraphsHtml(item.summary));
      blocks.push(`<article>${parts.join("")}</article>`);
    }
    return { title: feed.title, content: blocks.join("\n"), links: [...new Set(links)] };
  }
  const markdown = format === "markdown";
  if (feed.title) blocks.push(markdown ? `# ${feed.title}` : feed.title);
  if (feed.description) blocks.push(feed.description);
  for (const item of items) {
    const heading = markdown
      ? `## ${item.link ? `[${markdownLinkText(item.title)}](${markdownLinkUrl(item.link)})` : item.title}`
      : [item.title, item.link].filter(Boolean).join("\n");
    blocks.push(heading);
    if (item.date) blocks.push(markdown ? `*${item.date}*` : item.date);
    if (item.summary) blocks.push(item.summary);
  }
  return { title: feed.title, content: blocks.join("\n\n"), links: [...new Set(links)] };
}

function paragraphsHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => `<p>${block.split("\n").map(escapeHtml).join("<br>")}</p>`)
    .join("");
}

function renderSitemap(sitemap: Sitemap, format: OutputFormat, baseUrl: string): XmlContent {
  const title = sitemap.index ? "Sitemap index" : "Sitemap";
  const entries = sitemap.entries.flatMap((entry) => {
    const url = absolute(entry.url, baseUrl);
    return url ? [{ url, lastmod: entry.lastmod }] : [];
  });
  const links = [...new Set(entries.map((entry) => entry.url))];
  const suffix = (lastmod: string | null) => (lastmod ? ` (updated ${lastmod})` : "");
  let content: string;
  if (format === "html") {
    const items = entries.map(
      (e) =>
        `<li><a href="${escapeHtml(e.url)}">${escapeHtml(e.url)}</a>${escapeHtml(suffix(e.lastmod))}</li>`,
    );
    content = `<h1>${title}</h1>\n<ul>${items.join("")}</ul>`;
  } else if (format === "markdown") {
    content = [`# ${title}`, entries.map((e) => `- ${e.url}${suffix(e.lastmod)}`).join("\n")].join("\n\n");
  } else {
    content = [title, entries.map((e) => `${e.url}${suffix(e.lastmod)}`).join("\n")].join("\n\n");
  }
  return { title, content, links };
}

function renderRaw(text: string, title: string, format: OutputFormat): XmlContent {
  const raw = text.replace(/^\uFEFF/, "").trim();
  if (format === "text") return { title, content: raw, links: [] };
  if (format === "html") {
    return { title, content: `<pre><code class="language-xml">${escapeHtml(raw)}</code></pre>`, links: [] };
  }
  const fence = codeFence(raw);
  return { title, content: `${fence}xml\n${raw}\n${fence}`, links: [] };
}

/**
 * Renders an XML body. RSS and Atom feeds become a readable list (feed title,
 * description, then per item a heading linking to it, its date and its
 * summary as plain text); sitemaps become a list of their URLs; any other
 * XML is returned verbatim in an xml code block. Never throws.
 */
export function xmlToContent(text: string, format: OutputFormat, baseUrl: string): XmlContent {
  const parsed = parseXml(text);
  if (parsed.kind === "feed") return renderFeed(parsed.feed, format, baseUrl);
  if (parsed.kind === "sitemap") return renderSitemap(parsed.sitemap, format, baseUrl);
  return renderRaw(text, parsed.title, format);
}

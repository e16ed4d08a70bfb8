/**
 * llms.txt and llms-full.txt of a site from its pages (the llms.txt convention): llms.txt has
 * one H1 (the site's name), a blockquote summary, and H2 sections (one per top-level path:
 * /docs/… under "Docs", pages at the root under "Pages") of markdown links, each with a short
 * description; llms-full.txt has every page's main-content markdown under its title and URL.
 */

/** One page of the site, as the crawl read it. */
export interface LlmsPage {
  url: string;
  title: string;
  /** Its short description (the page's own, or written by an LLM). */
  description: string;
  /** Its main-content markdown. */
  markdown: string;
}

/** The site's name and summary. */
export interface LlmsSite {
  url: string;
  title: string;
  summary: string;
}

const SEPARATOR = /\s+[|–—·•:-]\s+/;

/** The name a site gives itself: the title suffix most of its pages share, else the start page's title, else its host. */
export function siteTitle(pages: { url: string; title: string }[], start: string): string {
  const host = new URL(start).hostname;
  const suffixes = new Map<string, number>();
  for (const page of pages) {
    const parts = page.title.split(SEPARATOR);
    if (parts.length > 1) {
      const suffix = parts.at(-1)?.trim() ?? "";
      if (suffix) suffixes.set(suffix, (suffixes.get(suffix) ?? 0) + 1);
    }
  }
  const [common, count] = [...suffixes].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  if (common && pages.length > 1 && count >= pages.length / 2) return common;
  return pages.find((p) => p.url === start)?.title.trim() || pages[0]?.title.trim() || host;
}

/** A page's title without the site's name. */
function pageTitle(title: string, site: string, url: string): string {
  const parts = title.split(SEPARATOR);
  const own = parts.length > 1 && parts.at(-1)?.trim() === site ? parts.slice(0, -1).join(" - ") : title;
  return own.trim() || new URL(url).pathname;
}

/** The section of a page: its first path segment in words ("getting-started" -> "Getting started"), root pages under "Pages". */
function sectionOf(url: string): string {
  const segments = new URL(url).pathname.split("/").filter(Boolean);
  if (segments.length < 2) return "Pages";
  const words = decodeURIComponent(segments[0] ?? "")
    .replace(/[-_]+/g, " ")
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Pages";
}

/** Text on one line, at most `max` characters (cut at a word). */
export function oneLine(text: string, max = 200): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.lastIndexOf(" ", max - 1);
  return `${line.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

const linkText = (text: string) => text.replace(/([[\]\\])/g, "\\$1");

/** The markdown without a leading H1 that repeats one of the page's titles. */
function withoutTitle(markdown: string, titles: string[]): string {
  const text = markdown.trimStart();
  const match = /^#[ \t]+(.+?)[ \t#]*(\n|$)/.exec(text);
  const repeats = match && titles.some((title) => title.trim() === match[1]?.trim());
  return repeats && match ? text.slice(match[0].length).trim() : markdown.trim();
}

/** llms.txt of the site: H1, blockquote summary, H2 sections of links with descriptions. */
export function buildLlmsTxt(site: LlmsSite, pages: LlmsPage[]): string {
  const sections = new Map<string, string[]>();
  for (const page of pages) {
    const section = sectionOf(page.url);
    const title = pageTitle(page.title, site.title, page.url);
    const description = oneLine(page.description);
    const line = `- [${linkText(title)}](${page.url})${description ? `: ${description}` : ""}`;
    sections.set(section, [...(sections.get(section) ?? []), line]);
  }
  const out = [`# ${oneLine(site.title, 120)}`, "", `> ${oneLine(site.summary, 300)}`];
  for (const [section, lines] of sections) out.push("", `## ${section}`, "", ...lines);
  return `${out.join("\n")}\n`;
}

/** llms-full.txt of the site: the H1 and summary, then every page's markdown under its title and URL. */
export function buildLlmsFullTxt(site: LlmsSite, pages: LlmsPage[]): string {
  const out = [`# ${oneLine(site.title, 120)}`, "", `> ${oneLine(site.summary, 300)}`];
  for (const page of pages) {
    const title = pageTitle(page.title, site.title, page.url);
    out.push(
      "",
      "---",
      "",
      `## ${title}`,
      "",
      `Source: ${page.url}`,
      "",
      withoutTitle(page.markdown, [title, page.title]),
    );
  }
  return `${out.join("\n")}\n`;
}

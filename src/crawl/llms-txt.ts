/**
 * A site's /llms.txt (the llms.txt convention): a markdown file with one H1 (the site's name),
 * an optional blockquote summary, and H2 sections of markdown links, each optionally followed by
 * `: description`. Sites list the markdown twins of their pages there (`page.html.md`,
 * `page.md`). Read here for crawls (twins as site markdown) and for `siphon llmstxt` (a site that
 * publishes one already).
 */
import { decodeBody } from "../fetch/decode.ts";
import type { FetchEngine } from "../fetch/types.ts";

/** One link of an llms.txt: its section, title, absolute URL and description. */
export interface LlmsTxtLink {
  section: string;
  title: string;
  url: string;
  description?: string;
}

/** A parsed llms.txt. */
export interface LlmsTxt {
  /** Where it was read. */
  url: string;
  /** The file as the site serves it. */
  text: string;
  title: string;
  summary?: string;
  links: LlmsTxtLink[];
}

const MAX_CHARS = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** Parses llms.txt `text` served at `url`: its title, summary and links (made absolute). */
export function parseLlmsTxt(text: string, url: string): LlmsTxt {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let title = "";
  let summary: string | undefined;
  let section = "";
  const links: LlmsTxtLink[] = [];
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      if (heading[1] === "#" && !title) title = heading[2] ?? "";
      else section = heading[2] ?? "";
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote && summary === undefined && !section) {
      summary = quote[1]?.trim();
      continue;
    }
    const link = /^\s*[-*+]\s*\[([^\]]*)\]\(\s*<?([^)\s>]+)>?\s*\)\s*(?::\s*(.*))?$/.exec(line);
    if (!link) continue;
    try {
      const absolute = new URL(link[2] ?? "", url).href;
      const description = link[3]?.trim();
      links.push({
        section,
        title: link[1]?.trim() ?? "",
        url: absolute,
        ...(description ? { description } : {}),
      });
    } catch {
      // not a URL: skipped
    }
  }
  return { url, text, title, summary, links };
}

/**
 * Reads a site's text file at `url` (llms.txt, llms-full.txt) through `engine` (SSRF-checked,
 * body limit, 10 s, at most 2 MB of text): undefined when it has none (not 2xx, not text, an HTML
 * page) or it cannot be read. Never throws.
 */
export async function loadSiteText(
  url: string,
  engine: FetchEngine,
  signal?: AbortSignal,
): Promise<{ url: string; text: string } | undefined> {
  try {
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    const page = await engine.fetch(url, {
      headers: { accept: "text/markdown, text/plain;q=0.9, */*;q=0.1" },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (page.status < 200 || page.status >= 300) return undefined;
    const type = page.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() ?? "";
    if (type && !type.startsWith("text/")) return undefined;
    const text = decodeBody(page.body, page.headers["content-type"]).text.slice(0, MAX_CHARS);
    return /^\s*</.test(text) ? undefined : { url: page.url, text };
  } catch {
    return undefined;
  }
}

/**
 * Reads `origin`/llms.txt (see loadSiteText): undefined when the site has none (also without an
 * H1) or it cannot be read. Never throws.
 */
export async function loadLlmsTxt(
  origin: string,
  engine: FetchEngine,
  signal?: AbortSignal,
): Promise<LlmsTxt | undefined> {
  const file = await loadSiteText(`${origin}/llms.txt`, engine, signal);
  if (!file) return undefined;
  const parsed = parseLlmsTxt(file.text, file.url);
  return parsed.title ? parsed : undefined;
}

/** The page URL a markdown twin stands for: `a.html.md` -> `a.html`, `a/index.html.md` -> `a/`, `a.md` -> `a`. */
function pageOfTwin(twin: URL): string[] {
  const path = twin.pathname;
  if (!/\.md$/i.test(path)) return [];
  const stem = path.slice(0, -3);
  const pages = [stem];
  if (/\/index(\.html?)?$/i.test(stem)) pages.push(stem.replace(/index(\.html?)?$/i, ""));
  if (/\.html?$/i.test(stem)) pages.push(stem.replace(/\.html?$/i, ""));
  return pages.map((p) => `${twin.origin}${p}`);
}

/** A page URL without its query, fragment and trailing slash, for matching twins. */
const plain = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
};

/**
 * The markdown twins an llms.txt lists, as a lookup from a page URL (query and trailing slash
 * ignored) to its twin on the same origin.
 */
export function twinLookup(llms: LlmsTxt): (url: string) => string | undefined {
  const twins = new Map<string, string>();
  const origin = new URL(llms.url).origin;
  for (const link of llms.links) {
    const twin = new URL(link.url);
    if (twin.origin !== origin) continue;
    for (const page of pageOfTwin(twin)) {
      const key = plain(page);
      if (!twins.has(key)) twins.set(key, twin.href);
    }
  }
  return (url) => {
    try {
      return twins.get(plain(url));
    } catch {
      return undefined;
    }
  };
}

import type { CheerioAPI } from "cheerio";
import { loadHtml } from "../extract/dom.ts";

/** What a page's markup says of its brand: links, stylesheets, logo, icon, name and web fonts. */

/** `href` made absolute against `base`; null for none, data: and javascript: URLs. */
export function absolute(href: string | undefined, base: string): string | null {
  if (!href?.trim() || href.startsWith("data:") || href.startsWith("javascript:")) return null;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/** The page's base URL (<base href>, else its own). */
export function baseOf($: CheerioAPI, url: string): string {
  return absolute($("base[href]").attr("href"), url) ?? url;
}

/** The stylesheets a page links to (rel=stylesheet, not print-only), absolute, in order. */
export function stylesheetLinks(html: string, url: string): string[] {
  const $ = loadHtml(html);
  const base = baseOf($, url);
  const links: string[] = [];
  $('link[rel~="stylesheet"], link[rel~="Stylesheet"]').each((_, el) => {
    const media = $(el).attr("media")?.toLowerCase() ?? "";
    if (media && !/all|screen/.test(media)) return;
    const href = absolute($(el).attr("href"), base);
    if (href && /^https?:/.test(href) && !links.includes(href)) links.push(href);
  });
  return links;
}

/** The name and logo of the organisation, brand or site its JSON-LD describes. */
export function jsonLdOrganization($: CheerioAPI): { name?: string; logo?: string } {
  const found: { name?: string; logo?: string } = {};
  const read = (record: Record<string, unknown>): void => {
    const type = String(record["@type"] ?? "");
    if (!/Organization|Corporation|Brand|WebSite/.test(type)) return;
    if (!found.name && typeof record.name === "string") found.name = record.name;
    const logo = record.logo;
    if (!found.logo) {
      if (typeof logo === "string") found.logo = logo;
      else if (logo && typeof logo === "object" && typeof (logo as { url?: unknown }).url === "string")
        found.logo = (logo as { url: string }).url;
    }
  };
  // Depth-first with a stack, in document order: JSON.parse reads any depth, a recursive walk would not.
  const visit = (block: unknown): void => {
    const stack = [block];
    while (stack.length) {
      const node = stack.pop();
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      } else if (node && typeof node === "object") {
        const record = node as Record<string, unknown>;
        read(record);
        // Reversed, so that they are visited as @graph, publisher, brand, author.
        for (const key of ["author", "brand", "publisher", "@graph"]) stack.push(record[key]);
      }
    }
  };
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      visit(JSON.parse($(el).text()));
    } catch {
      // Broken JSON-LD is common and only a hint.
    }
  });
  return found;
}

/** The logo: an image named or placed as one (header, home link), else JSON-LD's or a meta tag's. */
export function findLogo($: CheerioAPI, base: string, org: { logo?: string }): string | null {
  const candidates: { src: string; score: number }[] = [];
  $("img").each((_, el) => {
    const img = $(el);
    const hints = [img.attr("id"), img.attr("class"), img.attr("alt"), img.attr("src")]
      .join(" ")
      .toLowerCase();
    const inChrome = img.closest("header, nav, [class*=header], [class*=navbar]").length > 0;
    const homeLink = img.closest('a[href="/"], a[href="./"]').length > 0;
    const parentHint = /logo/i.test(`${img.parent().attr("class") ?? ""} ${img.parent().attr("id") ?? ""}`);
    const score =
      (hints.includes("logo") ? 3 : 0) + (parentHint ? 2 : 0) + (homeLink ? 2 : 0) + (inChrome ? 1 : 0);
    const src = absolute(img.attr("src") ?? img.attr("data-src"), base);
    if (src && score >= 2) candidates.push({ src, score });
  });
  candidates.sort((a, b) => b.score - a.score);
  return (
    candidates[0]?.src ??
    absolute(org.logo, base) ??
    absolute($('meta[property="og:logo"], meta[itemprop="logo"]').attr("content"), base) ??
    null
  );
}

/** The first icon the page links to. */
export function findFavicon($: CheerioAPI, base: string): string | null {
  const icons = $('link[rel~="icon"], link[rel="shortcut icon"], link[rel~="apple-touch-icon"]');
  for (const el of icons.toArray()) {
    const href = absolute($(el).attr("href"), base);
    if (href) return href;
  }
  return null;
}

/** The site's name: og:site_name or application-name, JSON-LD, else the last part of the title. */
export function brandNameOf($: CheerioAPI, org: { name?: string }): string | undefined {
  const meta =
    $('meta[property="og:site_name"]').attr("content") ?? $('meta[name="application-name"]').attr("content");
  if (meta?.trim()) return meta.trim();
  if (org.name?.trim()) return org.name.trim();
  const title = $("title").first().text().trim();
  if (!title) return undefined;
  const parts = title.split(/\s+[|–—-]\s+/).filter(Boolean);
  return (parts.length > 1 ? parts[parts.length - 1] : parts[0])?.trim() || undefined;
}

/** The families a Google Fonts link loads. */
export function googleFontFamilies($: CheerioAPI): string[] {
  const families: string[] = [];
  $('link[href*="fonts.googleapis.com"]').each((_, el) => {
    try {
      const url = new URL($(el).attr("href") ?? "", "https://fonts.googleapis.com");
      for (const value of url.searchParams.getAll("family")) {
        for (const part of value.split("|")) {
          const name = part.split(":")[0]?.replace(/\+/g, " ").trim();
          if (name) families.push(name);
        }
      }
    } catch {
      // An unreadable link names no font.
    }
  });
  return families;
}

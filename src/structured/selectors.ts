import * as cheerio from "cheerio/slim";
import { SiphonError } from "../errors.ts";
import { loadHtml } from "../extract/dom.ts";

/** A field's selector as written: "css", "css@attr", or ["css"] / ["css@attr"] for every match. */
export type SelectorSpec = string | string[];

interface Parsed {
  css: string;
  attr?: string;
  all: boolean;
}

/** "img.main@src" -> css img.main, attribute src; an @ inside brackets or quotes is CSS's own. */
function parseOne(field: string, spec: string, all: boolean): Parsed {
  const at = /@([a-zA-Z_:][-a-zA-Z0-9_:.]*)$/.exec(spec);
  const css = (at ? spec.slice(0, at.index) : spec).trim();
  if (!css) throw badSelector(field, spec, "it has no CSS before the @");
  const why = cssError(css);
  if (why !== undefined) throw badSelector(field, spec, why);
  return { css, attr: at?.[1], all };
}

/** Why `css` is not a CSS selector cheerio can run, or undefined when it is one. */
export function cssError(css: string): string | undefined {
  // cheerio compiles a selector when it is used: try it once on an empty document.
  try {
    cheerio.load("")(css);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function badSelector(field: string, spec: string, why: string): SiphonError {
  return new SiphonError("invalid_request", `selectors.${field}: "${spec}" is not a CSS selector: ${why}`, {
    hint: 'Use "css" for text, "css@attr" for an attribute, ["css"] for every match.',
  });
}

/** Parses every selector; a 400 naming the first that does not parse. */
export function parseSelectors(selectors: Record<string, SelectorSpec>): Map<string, Parsed> {
  const parsed = new Map<string, Parsed>();
  for (const [field, spec] of Object.entries(selectors)) {
    if (Array.isArray(spec) && spec.length !== 1) {
      throw new SiphonError("invalid_request", `selectors.${field}: a list holds exactly one selector`);
    }
    parsed.set(
      field,
      Array.isArray(spec) ? parseOne(field, spec[0] as string, true) : parseOne(field, spec, false),
    );
  }
  return parsed;
}

/** Attributes that hold URLs: made absolute against the page. */
const URL_ATTRIBUTES = new Set(["href", "src", "srcset", "action", "poster", "data-src", "content"]);

function absolute(value: string, base: string, attr: string): string {
  if (!URL_ATTRIBUTES.has(attr) || attr === "content") return value;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/**
 * Applies selectors to a page: each field is the first match's text (whitespace collapsed) or
 * attribute (URLs made absolute), or with [..] every match's; null (or []) when nothing matches.
 */
export function applySelectors(
  html: string,
  url: string,
  selectors: Record<string, SelectorSpec>,
): Record<string, unknown> {
  // The page's tree as extraction sees it (htmlparser2, bounded in depth like a browser's):
  // parse5 slows down quadratically on deep nesting, and an unbounded tree overflows `.text()`.
  const $ = loadHtml(html);
  const data: Record<string, unknown> = {};
  for (const [field, { css, attr, all }] of parseSelectors(selectors)) {
    const read = (element: Parameters<typeof $>[0]): string | null => {
      const node = $(element);
      if (attr) {
        const value = node.attr(attr);
        return value === undefined ? null : absolute(value.trim(), url, attr);
      }
      return node.text().replace(/\s+/g, " ").trim();
    };
    const matches = $(css).toArray();
    if (all) data[field] = matches.map(read).filter((v): v is string => v !== null);
    else data[field] = matches.length ? read(matches[0]) : null;
  }
  return data;
}

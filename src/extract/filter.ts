import type { CheerioAPI } from "cheerio";
import { contains, type Element, removeNode } from "./nodes.ts";

/** Accepts tag names and CSS selectors alike; an invalid selector is ignored rather than failing the fetch. */
function matches($: CheerioAPI, roots: Element[], selector: string): Element[] {
  const sel = selector.trim();
  if (!sel) return [];
  try {
    return $(roots).find(sel).add($(roots).filter(sel)).toArray() as Element[];
  } catch {
    return [];
  }
}

/** Removes the elements matching any of `excludeTags` from the content. */
export function excludeElements($: CheerioAPI, roots: Element[], excludeTags: string[]): void {
  for (const sel of excludeTags) for (const el of matches($, roots, sel)) removeNode(el);
}

/**
 * Keeps only the elements matching `includeTags`: returns them as the new
 * content roots in document order, outermost first, without nesting twice.
 */
export function includeElements($: CheerioAPI, roots: Element[], includeTags: string[]): Element[] {
  // cheerio's add() keeps the set unique and in document order.
  let found = $([] as Element[]);
  for (const sel of includeTags) found = found.add(matches($, roots, sel));
  const kept: Element[] = [];
  for (const el of found.toArray()) if (!kept.some((k) => contains(k, el))) kept.push(el);
  return kept;
}

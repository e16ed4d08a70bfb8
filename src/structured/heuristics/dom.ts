import { decodeHTML } from "entities";
import { loadHtml } from "../../extract/dom.ts";
import { type AnyNode, BLOCK_TAGS, type Element, isElement, type ParentNode } from "../../extract/nodes.ts";

export type { Element, ParentNode };

/** Parses a page into the htmlparser2 tree the finders walk. */
export function parseDocument(html: string): ParentNode {
  return loadHtml(html).root()[0] as ParentNode;
}

/** Visits every element under `root` in document order; `visit` returning false skips the element's subtree. */
export function walkElements(root: ParentNode, visit: (el: Element) => boolean | undefined): void {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (visit(node) === false) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/** Child elements of `el`, in order. */
export function childElements(el: ParentNode): Element[] {
  return el.children.filter(isElement);
}

const SKIPPED_TEXT = new Set(["script", "style", "noscript", "template"]);

/** Visible text of an element with whitespace collapsed; blocks and `<br>` never run into each other. */
export function textOf(node: AnyNode): string {
  let out = "";
  // Depth-first without recursion: hostile pages nest elements a hundred thousand deep.
  const stack: (AnyNode | string)[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === "string") {
      out += n;
      continue;
    }
    if (n.type === "text") out += n.data;
    else if (isElement(n)) {
      if (SKIPPED_TEXT.has(n.name)) continue;
      if (n.name === "br") {
        out += " ";
        continue;
      }
      const block = BLOCK_TAGS.has(n.name);
      if (block) {
        out += " ";
        stack.push(" ");
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out.replace(/\s+/g, " ").trim();
}

/** Raw text of an element (script contents included), as `<script type="application/ld+json">` needs. */
export function rawText(el: Element): string {
  let out = "";
  for (const c of el.children) if (c.type === "text" || c.type === "cdata") out += "data" in c ? c.data : "";
  return out;
}

/** `href` resolved against the page URL; null when missing or not a URL. */
export function absoluteUrl(href: string | undefined, base: string): string | null {
  const value = href?.trim();
  if (!value) return null;
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
}

/** The type name at the end of a vocabulary IRI or CURIE: "https://schema.org/Product" and "schema:Product" -> "Product". */
export function localName(iri: string): string {
  const trimmed = iri.trim().replace(/[/#]+$/, "");
  const cut = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("#"), trimmed.lastIndexOf(":"));
  return cut >= 0 ? trimmed.slice(cut + 1) : trimmed;
}

/** Decodes HTML entities left in strings that were never HTML-decoded (JSON-LD authored through templates). */
export function decodeEntities(text: string): string {
  return text.includes("&") ? decodeHTML(text) : text;
}

/** Collapses whitespace; null for empty strings. */
export function clean(text: string | null | undefined): string | null {
  const value = text?.replace(/\s+/g, " ").trim();
  return value ? value : null;
}

/**
 * Adds `value` under `key`, turning repeated keys into arrays: how microdata, RDFa and meta
 * tags say a property has several values.
 */
export function addValue(data: Record<string, unknown>, key: string, value: unknown): void {
  const existing = data[key];
  if (existing === undefined) data[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else data[key] = [existing, value];
}

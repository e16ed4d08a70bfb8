import type { CheerioAPI } from "cheerio";
import { textContent } from "domutils";
import { parseBounded } from "./depth.ts";
import { type Element, textOf, wordsOf } from "./nodes.ts";
import { type JsonLdNode, jsonLdNodes, type PageScan, typeName } from "./scan.ts";

/** Words below which a declared description is a tagline, not worth adding. */
const MIN_WORDS = 12;
/** Share of the description's words the content must already hold for it to count as shown. */
const SHOWN_SHARE = 0.6;

function isProduct(node: JsonLdNode): boolean {
  const type = node["@type"];
  return (Array.isArray(type) ? type : [type]).some(
    (t) => typeof t === "string" && typeName(t) === "Product",
  );
}

/**
 * The description the page's one schema.org Product declares in JSON-LD (at
 * the top level, in a `@graph` or as a page's `mainEntity`), tags and
 * entities removed; null when there is none or several products are declared
 * (a listing's cards describe themselves).
 */
export function declaredProductDescription(scan: PageScan): string | null {
  const products: JsonLdNode[] = [];
  for (const node of jsonLdNodes(scan)) {
    if (isProduct(node)) products.push(node);
    const main = node.mainEntity;
    if (main && typeof main === "object" && !Array.isArray(main) && isProduct(main as JsonLdNode))
      products.push(main as JsonLdNode);
  }
  if (products.length !== 1) return null;
  const raw = products[0]!.description;
  if (typeof raw !== "string") return null;
  // Shops put HTML (escaped or not) in the field: read it as HTML (bounded like the page) to get its text.
  const text = textContent(parseBounded(percentDecoded(raw), { decodeEntities: true }))
    .replace(/\s+/g, " ")
    .trim();
  return text || null;
}

/**
 * A description a template wrote URL-encoded ("An%20elegant%20sofa%20..."): no space in it, and
 * its spaces written `%20`. Anything else is as written (a "100%" or a "%20" inside a sentence).
 */
function percentDecoded(raw: string): string {
  if (/\s/.test(raw) || !/%20/i.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    // A stray "%" that starts no escape: the text as written.
    return raw;
  }
}

/**
 * The product description a page declares but its content leaves out (shops
 * render it from script, or keep it in a panel the cleaner could not tell
 * from chrome), as a paragraph to add after the content; null when the
 * content already shows most of its words or the description is a tagline.
 */
export function missingDescription(
  $: CheerioAPI,
  roots: Element[],
  description: string | null,
): Element | null {
  if (!description) return null;
  const words = wordsOf(description);
  if (words.length < MIN_WORDS) return null;
  const shown = new Set(roots.flatMap((root) => wordsOf(textOf(root))));
  const present = words.filter((w) => shown.has(w)).length;
  if (present >= SHOWN_SHARE * words.length) return null;
  return $("<p></p>").text(description)[0] as Element;
}

import { type JsonLdNode, jsonLdNodes, type PageScan, typeName } from "./scan.ts";

/**
 * What kind of page this is, which decides what its main content is: an
 * article's body without its comments, every post of a forum thread, a
 * product's details, the cards of a listing or collection, a documentation
 * page's text and code, every section of a service page.
 */
export type PageType = "article" | "forum" | "product" | "listing" | "documentation" | "service";

/** The schema.org and OpenGraph types a page declares about itself. */
export interface DeclaredTypes {
  /** schema.org type names from JSON-LD (at any depth) and microdata, with how often each occurs. */
  schema: Map<string, number>;
  /** `og:type`, lower case, or null. */
  ogType: string | null;
}

/** Objects visited in the JSON-LD of one page; a page declaring more is not describing itself. */
const MAX_LD_OBJECTS = 5000;

/** Every schema.org type the page declares, counted. */
export function declaredTypes(scan: PageScan): DeclaredTypes {
  const schema = new Map<string, number>();
  const add = (name: string): void => {
    schema.set(name, (schema.get(name) ?? 0) + 1);
  };
  for (const t of scan.itemTypes) add(t);
  // Iterative: JSON-LD may nest deeper than the stack.
  // jsonLdNodes lists the members of a @graph already: not walked twice.
  const stack: unknown[] = [...jsonLdNodes(scan)];
  let visited = 0;
  while (stack.length && visited < MAX_LD_OBJECTS) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const v of value) stack.push(v);
      continue;
    }
    if (!value || typeof value !== "object") continue;
    visited++;
    const node = value as JsonLdNode;
    const type = node["@type"];
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === "string") add(typeName(t));
    for (const key in node) {
      if (key === "@graph") continue;
      const v = node[key];
      if (v && typeof v === "object") stack.push(v);
    }
  }
  let ogType: string | null = null;
  for (const el of scan.metas) {
    if ((el.attribs.property ?? el.attribs.name)?.toLowerCase() === "og:type") {
      ogType = el.attribs.content?.trim().toLowerCase() || null;
      break;
    }
  }
  return { schema, ogType };
}

const FORUM_TYPES = ["DiscussionForumPosting", "QAPage", "SocialMediaPosting"];
const ARTICLE_TYPES = [
  "Article",
  "NewsArticle",
  "BlogPosting",
  "Report",
  "ReportageNewsArticle",
  "AnalysisNewsArticle",
  "OpinionNewsArticle",
  "LiveBlogPosting",
  "ScholarlyArticle",
];
const DOC_TYPES = ["TechArticle", "APIReference"];
const LISTING_TYPES = ["ItemList", "CollectionPage", "SearchResultsPage"];

const has = (d: DeclaredTypes, names: string[]): boolean => names.some((n) => d.schema.has(n));

/**
 * Whether a declared article says so in schema.org (JSON-LD or microdata)
 * rather than only in `og:type`, which many sites set on every page.
 */
export function declaresArticleSchema(d: DeclaredTypes): boolean {
  return has(d, ARTICLE_TYPES);
}

/**
 * The page type a page declares, or null when it says nothing that decides
 * it: forum postings and Q&A pages are threads; one Product (with offers),
 * or one ProductGroup with its variants, is a product page, several are a
 * collection; item lists and collection pages are listings; articles and
 * `og:type` article are articles.
 */
export function declaredPageType(d: DeclaredTypes): PageType | null {
  if (has(d, FORUM_TYPES) || d.ogType === "forum") return "forum";
  const products = d.schema.get("Product") ?? 0;
  // One ProductGroup is one product in its sizes and colours, each variant declared a Product.
  if (d.schema.get("ProductGroup") === 1) return "product";
  if (products >= 3) return "listing";
  if (products > 0 || d.ogType === "product" || d.ogType === "product.item") return "product";
  if (has(d, LISTING_TYPES) || d.ogType === "product.group") return "listing";
  if (has(d, DOC_TYPES)) return "documentation";
  if (has(d, ARTICLE_TYPES) || d.ogType === "article") return "article";
  return null;
}

import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { declaredPageType, declaredTypes } from "./page-type.ts";
import { scanPage } from "./scan.ts";

const typeOf = (head: string, body = ""): string | null =>
  declaredPageType(
    declaredTypes(scanPage(loadHtml(`<html><head>${head}</head><body>${body}</body></html>`))),
  );
const ld = (json: unknown): string => `<script type="application/ld+json">${JSON.stringify(json)}</script>`;

test("forum postings and Q&A pages are threads, in JSON-LD or microdata", () => {
  expect(typeOf(ld({ "@type": "DiscussionForumPosting", headline: "x" }))).toBe("forum");
  expect(typeOf(ld({ "@context": "https://schema.org", "@graph": [{ "@type": "QAPage" }] }))).toBe("forum");
  expect(typeOf("", `<div itemscope itemtype="https://schema.org/DiscussionForumPosting"></div>`)).toBe(
    "forum",
  );
  expect(typeOf(`<meta property="og:type" content="forum">`)).toBe("forum");
});

test("one product is a product page, several are a listing", () => {
  const product = { "@type": "Product", name: "Mug", offers: { "@type": "Offer", price: "12" } };
  expect(typeOf(ld(product))).toBe("product");
  expect(typeOf(ld({ "@type": "ItemList", itemListElement: [product, product, product] }))).toBe("listing");
  expect(typeOf(`<meta property="og:type" content="product">`)).toBe("product");
});

test("one product group is a product page, whatever number of variants it declares", () => {
  const variant = (size: string) => ({ "@type": "Product", size, offers: { "@type": "Offer", price: "60" } });
  const group = {
    "@type": "ProductGroup",
    name: "Faux leather jacket",
    hasVariant: ["S", "M", "L", "XL"].map(variant),
  };
  expect(typeOf(ld(group))).toBe("product");
});

test("articles, documentation and pages that say nothing", () => {
  expect(typeOf(ld({ "@type": ["NewsArticle"], author: { "@type": "Person" } }))).toBe("article");
  expect(typeOf(`<meta property="og:type" content="article">`)).toBe("article");
  expect(typeOf(ld({ "@type": "TechArticle" }))).toBe("documentation");
  expect(typeOf(ld({ "@type": "Organization" }))).toBeNull();
  expect(typeOf(`<script type="application/ld+json">{broken</script>`)).toBeNull();
});

test("JSON-LD nested deeper than the stack is read without overflowing", () => {
  const n = 100_000;
  const deep = `${'{"child":'.repeat(n)}{"@type":"Product"}${"}".repeat(n)}`;
  expect(() => typeOf(`<script type="application/ld+json">${deep}</script>`)).not.toThrow();
});

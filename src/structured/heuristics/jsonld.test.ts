import { describe, expect, test } from "bun:test";
import { parseDocument } from "./dom.ts";
import { findJsonLd, parseLenient } from "./jsonld.ts";

const BASE = "https://shop.example/p/1";
const page = (...blocks: string[]) =>
  `<html><head>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join("")}</head><body></body></html>`;
const find = (...blocks: string[]) => findJsonLd(parseDocument(page(...blocks)), BASE);

describe("findJsonLd", () => {
  test("a top-level node becomes a Found of its type, with links resolved and @context dropped", () => {
    const found = find(
      JSON.stringify({
        "@context": "https://schema.org",
        "@type": "Product",
        name: "Mill",
        image: "/img/mill.jpg",
      }),
    );
    expect(found).toEqual([
      {
        type: "Product",
        data: { "@type": "Product", name: "Mill", image: "https://shop.example/img/mill.jpg" },
        signal: "json-ld",
      },
    ]);
  });

  test("@graph members and top-level arrays are each found; @id references are replaced by their node", () => {
    const graph = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebSite", "@id": "#site", name: "Site" },
        { "@type": "Person", "@id": "#ann", name: "Ann Lee" },
        { "@type": "NewsArticle", headline: "Floods", author: { "@id": "#ann" } },
      ],
    };
    const list = [
      { "@type": "Recipe", name: "Soup" },
      { "@type": "Event", name: "Gig" },
    ];
    const found = find(JSON.stringify(graph), JSON.stringify(list));
    expect(found.map((f) => f.type)).toEqual(["WebSite", "Person", "NewsArticle", "Recipe", "Event"]);
    expect(found[2]!.data.author).toEqual({ "@type": "Person", "@id": "#ann", name: "Ann Lee" });
  });

  test("a self-reference ends instead of looping", () => {
    const node = {
      "@type": "Organization",
      "@id": "#org",
      name: "Org",
      parentOrganization: { "@id": "#org" },
    };
    expect(find(JSON.stringify(node))[0]!.data.parentOrganization).toEqual({ "@id": "#org" });
  });

  test("@type arrays and full IRIs give the first type's local name", () => {
    const found = find(
      JSON.stringify({ "@type": ["http://schema.org/Product", "Thing"], "schema:name": "Mill" }),
    );
    expect(found[0]!.type).toBe("Product");
    expect(found[0]!.data.name).toBe("Mill");
  });

  test("a WebPage's mainEntity is found too, a FAQPage's questions are not", () => {
    const found = find(
      JSON.stringify({ "@type": "ItemPage", mainEntity: { "@type": "Product", name: "Mill" } }),
      JSON.stringify({ "@type": "FAQPage", mainEntity: [{ "@type": "Question", name: "Why?" }] }),
    );
    expect(found.map((f) => f.type)).toEqual(["ItemPage", "Product", "FAQPage"]);
  });

  test("malformed blocks are repaired when they can be and skipped when not, never thrown", () => {
    const trailing = '{"@type": "Product", "name": "Mill", "offers": {"price": "12.50",},}';
    const rawNewline = '{"@type": "Article", "headline": "Line one\nline two"}';
    const broken = '{"@type": "Event", "name": ';
    const found = find(trailing, broken, rawNewline, "<!-- -->", "");
    expect(found.map((f) => f.type)).toEqual(["Product", "Article"]);
    expect(found[1]!.data.headline).toBe("Line one\nline two");
  });

  test("HTML entities a template left in strings are decoded", () => {
    expect(find('{"@type": "Product", "name": "Salt &amp; Pepper"}')[0]!.data.name).toBe("Salt & Pepper");
  });

  test("parseLenient reads commented and CDATA-wrapped JSON", () => {
    expect(parseLenient('<!-- {"a": 1} -->')).toEqual({ a: 1 });
    expect(parseLenient('//<![CDATA[\n{"a": 2}\n//]]>')).toEqual({ a: 2 });
    expect(parseLenient("not json")).toBeUndefined();
  });
});

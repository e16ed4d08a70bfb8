import { describe, expect, test } from "bun:test";
import { loadHtml } from "../../extract/dom.ts";
import type { ParentNode } from "./dom.ts";
import { findStructured, findStructuredIn, groupByType, groupSources } from "./index.ts";

const PAGE = `<html><head>
  <meta property="og:title" content="Mill"><meta property="product:price:amount" content="49.90">
  <script type="application/ld+json">{"@type": "Product", "name": "Mill"}</script>
  <script type="application/ld+json">{"@type": "BreadcrumbList", "itemListElement": []</script>
</head><body><main>
  <div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Mill</span></div>
  <table><tr><th>Size</th><th>Price</th></tr><tr><td>S</td><td>€10</td></tr></table>
  <a href="mailto:shop@mill.example">Mail us</a>
</main></body></html>`;

describe("findStructured", () => {
  test("lists what every finder found, most reliable signal first; a broken block is skipped", () => {
    const found = findStructured(PAGE, "https://mill.example/p");
    expect(found.map((f) => `${f.signal}:${f.type}`)).toEqual([
      "json-ld:Product",
      "microdata:Product",
      "opengraph:Product",
      "table:Table",
      "pattern:Email",
    ]);
  });

  test("with the page text, its patterns are listed too", () => {
    const found = findStructured(PAGE, "https://mill.example/p", "Now €49,90. Call +49 30 901820.");
    expect(found.filter((f) => f.signal === "pattern").map((f) => f.type)).toEqual([
      "Email",
      "Price",
      "Phone",
    ]);
  });

  test("an already parsed document gives the same Founds", () => {
    const root = loadHtml(PAGE).root()[0] as ParentNode;
    expect(findStructuredIn(root, "https://mill.example/p")).toEqual(
      findStructured(PAGE, "https://mill.example/p"),
    );
  });

  test("garbage in, an empty list out, no throw", () => {
    expect(findStructured("", "https://x.example/")).toEqual([]);
    expect(() =>
      findStructured("<<<>>><script type=application/ld+json>{{{</script>", "not a url"),
    ).not.toThrow();
  });

  test("elements and JSON nested a hundred thousand deep are read without overflowing the stack", () => {
    const deep = "<span>".repeat(100_000);
    const html = `<script type="application/ld+json">${"[".repeat(50_000)}{"@type": "Product"}${"]".repeat(50_000)}</script>
      <div itemscope itemtype="https://schema.org/Product"><div typeof="Product">
      <table><tr><th>A</th><th>B</th></tr><tr><td>${deep}<span itemprop="name" property="name">Mill</span></td><td>x</td></tr></table>`;
    const found = findStructured(html, "https://x.example/");
    expect(found.map((f) => `${f.signal}:${f.type}`)).toEqual([
      "microdata:Product",
      "rdfa:Product",
      "table:Table",
    ]);
    expect(found[0]!.data.name).toBe("Mill");
  }, 30_000);
});

test("groupByType groups data by type, and groupSources names each entry's signal", () => {
  const found = findStructured(PAGE, "https://mill.example/p");
  const groups = groupByType(found);
  expect(Object.keys(groups)).toEqual(["Product", "Table", "Email"]);
  expect(groups.Product).toHaveLength(3);
  expect(groups.Product![0]).toEqual({ "@type": "Product", name: "Mill" });
  expect(groupSources(found)).toEqual({
    "Product[0]": "json-ld",
    "Product[1]": "microdata",
    "Product[2]": "opengraph",
    "Table[0]": "table",
    "Email[0]": "pattern",
  });
});

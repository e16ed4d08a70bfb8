import { describe, expect, test } from "bun:test";
import { parseDocument } from "./dom.ts";
import { findMeta, pageTitle } from "./meta.ts";

const find = (head: string, body = "") =>
  findMeta(
    parseDocument(`<html lang="de"><head>${head}</head><body>${body}</body></html>`),
    "https://news.example/a/1",
  );

describe("findMeta", () => {
  test("OpenGraph article tags make an Article under schema.org names, links absolute", () => {
    const [og] = find(`
      <meta property="og:type" content="article">
      <meta property="og:title" content="Dam opens">
      <meta property="og:image" content="/img/dam.jpg">
      <meta property="article:published_time" content="2024-05-14T08:30:00+02:00">
      <meta property="article:tag" content="energy"><meta property="article:tag" content="water">`);
    expect(og).toEqual({
      type: "Article",
      signal: "opengraph",
      data: {
        "@type": "Article",
        name: "Dam opens",
        headline: "Dam opens",
        image: "https://news.example/img/dam.jpg",
        datePublished: "2024-05-14T08:30:00+02:00",
        keywords: ["energy", "water"],
      },
    });
  });

  test("product price tags make a Product with an Offer, as schema.org nests them", () => {
    const [og] = find(`
      <meta property="og:title" content="Mill">
      <meta property="product:price:amount" content="49.90">
      <meta property="product:price:currency" content="EUR">
      <meta property="product:brand" content="Hario">`);
    expect(og!.type).toBe("Product");
    expect(og!.data).toEqual({
      "@type": "Product",
      name: "Mill",
      brand: "Hario",
      offers: { "@type": "Offer", price: "49.90", priceCurrency: "EUR" },
    });
  });

  test("Twitter cards, their label/data pairs included, are a Page of their own", () => {
    const found = find(`
      <meta name="twitter:card" content="summary"><meta name="twitter:title" content="Mill">
      <meta name="twitter:label1" content="Price"><meta name="twitter:data1" content="$19.99">`);
    expect(found[0]).toEqual({
      type: "Page",
      signal: "twitter",
      data: { "@type": "Page", card: "summary", name: "Mill", Price: "$19.99" },
    });
  });

  test("plain meta tags, the first h1, time, rel=author, canonical and lang make the meta Page", () => {
    const found = find(
      `<title>Dam opens – Energy | The Times</title><meta name="description" content="A dam.">
       <link rel="canonical" href="/a/1">`,
      `<h1>Dam opens</h1><a rel="author" href="/ann">Ann Lee</a><time datetime="2024-05-14">14 May</time>`,
    );
    expect(found).toEqual([
      {
        type: "Page",
        signal: "meta",
        data: {
          "@type": "Page",
          description: "A dam.",
          author: "Ann Lee",
          datePublished: "2024-05-14",
          url: "https://news.example/a/1",
          inLanguage: "de",
          name: "Dam opens",
          pageTitle: "Dam opens – Energy | The Times",
          siteName: "The Times",
        },
      },
    ]);
  });

  test("without rel=author, a byline names the author; a tags block gives keywords; the first large content image is the image", () => {
    const [page] = find(
      "",
      `<header class="site"><p class="author">Site Owner</p><img src="/logo.png" width="400" height="400"></header>
       <article><header><h1>Dam opens</h1><p class="byline">By Ann de Vries, energy correspondent · 14 May</p></header>
       <img src="/icon.png" width="32" height="32"><img src="/dam.jpg" width="1200">
       <p class="tags">Tags: <a href="/t/a">energy</a>, <a href="/t/b">water</a></p></article>`,
    );
    expect(page!.data).toMatchObject({
      author: "Ann de Vries",
      keywords: ["energy", "water"],
      image: "https://news.example/dam.jpg",
      name: "Dam opens",
    });
  });

  test("og:title that is the heading plus a site or company is read as the heading", () => {
    const [og] = find(
      `<meta property="og:title" content="Backend Engineer – Kestrel Logistics">`,
      "<main><h1>Backend Engineer</h1></main>",
    );
    expect(og!.data.name).toBe("Backend Engineer");
  });

  test("a page with no meta tags finds nothing but its language", () => {
    expect(find("")).toEqual([{ type: "Page", signal: "meta", data: { "@type": "Page", inLanguage: "de" } }]);
  });
});

describe("pageTitle", () => {
  test("drops the site name, or keeps the longest part when the site is unknown", () => {
    expect(pageTitle("Soup – Recipes | Fixture Kitchen", "Fixture Kitchen")).toBe("Soup – Recipes");
    expect(pageTitle("Pão de queijo with cheese | FK", null)).toBe("Pão de queijo with cheese");
    expect(pageTitle("Plain", null)).toBe("Plain");
  });
});

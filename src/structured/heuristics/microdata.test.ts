import { describe, expect, test } from "bun:test";
import { parseDocument } from "./dom.ts";
import { findMicrodata } from "./microdata.ts";

const BASE = "https://shop.example/p/1";
const find = (body: string) => findMicrodata(parseDocument(`<html><body>${body}</body></html>`), BASE);

describe("findMicrodata", () => {
  test("values follow the element rules: meta content, link href, img src, time datetime, data value, text", () => {
    const [product] = find(`
      <div itemscope itemtype="https://schema.org/Product">
        <h1 itemprop="name">  Ceramic   Mill </h1>
        <img itemprop="image" src="/img/mill.jpg" alt="">
        <meta itemprop="sku" content="MM-2">
        <link itemprop="url" href="/p/1">
        <time itemprop="releaseDate" datetime="2024-02-01">February</time>
        <data itemprop="weight" value="320">320 grams</data>
        <span itemprop="color" content="black">Schwarz</span>
      </div>`);
    expect(product!.type).toBe("Product");
    expect(product!.data).toEqual({
      "@type": "Product",
      name: "Ceramic Mill",
      image: "https://shop.example/img/mill.jpg",
      sku: "MM-2",
      url: "https://shop.example/p/1",
      releaseDate: "2024-02-01",
      weight: "320",
      color: "black",
    });
  });

  test("nested items are objects with their own type; their properties stay theirs", () => {
    const [product] = find(`
      <div itemscope itemtype="https://schema.org/Product">
        <span itemprop="name">Mill</span>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <span itemprop="price" content="49.90">49,90 €</span>
          <meta itemprop="priceCurrency" content="EUR">
        </div>
      </div>`);
    expect(product!.data).toEqual({
      "@type": "Product",
      name: "Mill",
      offers: { "@type": "Offer", price: "49.90", priceCurrency: "EUR" },
    });
  });

  test("repeated properties become arrays, several names share a value, itemref is followed", () => {
    const [recipe] = find(`
      <div itemscope itemtype="https://schema.org/Recipe" itemref="extra">
        <li itemprop="recipeIngredient">Flour</li><li itemprop="recipeIngredient">Milk</li>
        <span itemprop="name alternateName">Crêpes</span>
      </div>
      <p id="extra"><span itemprop="recipeYield">4</span></p>`);
    expect(recipe!.data).toEqual({
      "@type": "Recipe",
      recipeIngredient: ["Flour", "Milk"],
      name: "Crêpes",
      alternateName: "Crêpes",
      recipeYield: "4",
    });
  });

  test("an <a> is its href for link properties and its text for others, as pages mean it", () => {
    const [article] = find(`<div itemscope itemtype="https://schema.org/Article">
      <a itemprop="author" href="/authors/ann">Ann Lee</a> <a itemprop="url" href="/a/1">Permalink</a></div>`);
    expect(article!.data).toEqual({ "@type": "Article", author: "Ann Lee", url: "https://shop.example/a/1" });
  });

  test("each top-level itemscope is its own Found; nested ones are not", () => {
    const found = find(`
      <div itemscope itemtype="https://schema.org/BreadcrumbList"><span itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><span itemprop="name">Shop</span></span></div>
      <div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Gig</span></div>`);
    expect(found.map((f) => f.type)).toEqual(["BreadcrumbList", "Event"]);
  });
});

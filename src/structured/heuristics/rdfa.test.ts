import { describe, expect, test } from "bun:test";
import { parseDocument } from "./dom.ts";
import { findRdfa } from "./rdfa.ts";

const find = (body: string) =>
  findRdfa(parseDocument(`<html><body>${body}</body></html>`), "https://news.example/a/1");

describe("findRdfa", () => {
  test("vocab/typeof/property items, nested items, content and link values", () => {
    const [article] = find(`
      <article vocab="https://schema.org/" typeof="NewsArticle">
        <h1 property="headline">Dam opens</h1>
        <span property="author" typeof="Person"><span property="name">Ann Lee</span></span>
        <span property="datePublished" content="2024-05-14">14 May</span>
        <a property="url" href="/a/1">link</a>
        <time property="dateModified" datetime="2024-05-15">15 May</time>
      </article>`);
    expect(article!.type).toBe("NewsArticle");
    expect(article!.data).toEqual({
      "@type": "NewsArticle",
      headline: "Dam opens",
      author: { "@type": "Person", name: "Ann Lee" },
      datePublished: "2024-05-14",
      url: "https://news.example/a/1",
      dateModified: "2024-05-15",
    });
  });

  test("prefixed properties are read by local name; OpenGraph meta outside items is not RDFa's to report", () => {
    const found = find(`<meta property="og:title" content="x">
      <div typeof="schema:Product"><span property="schema:name">Mill</span></div>`);
    expect(found).toEqual([{ type: "Product", data: { "@type": "Product", name: "Mill" }, signal: "rdfa" }]);
  });
});

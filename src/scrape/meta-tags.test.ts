import { describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { withDeadline } from "./deadline.ts";
import { pageMetaTags } from "./meta-tags.ts";

describe("pageMetaTags", () => {
  test("every meta tag under its own name, the well-known ones under Firecrawl's names too", () => {
    const meta = pageMetaTags(
      `<html lang="de"><head>
        <meta charset="utf-8">
        <meta name="description" content="Ein Test">
        <meta property="og:title" content="Titel">
        <meta property="og:locale:alternate" content="en_US"><meta property="og:locale:alternate" content="fr_FR">
        <meta name="DC.Subject" content="Tee">
        <meta name="dcterms.keywords" content="a, b">
        <meta property="article:tag" content="one"><meta property="article:tag" content="two">
        <meta itemprop="price" content="4.50">
        <meta name="empty" content="">
        <link rel="shortcut icon" href="/fav.ico">
      </head></html>`,
      "https://example.de/seite",
    );
    expect(meta.tags).toEqual({
      description: "Ein Test",
      "og:title": "Titel",
      "og:locale:alternate": ["en_US", "fr_FR"],
      "DC.Subject": "Tee",
      "dcterms.keywords": "a, b",
      "article:tag": ["one", "two"],
      price: "4.50",
    });
    expect(meta.named).toEqual({
      description: "Ein Test",
      ogTitle: "Titel",
      ogLocaleAlternate: ["en_US", "fr_FR"],
      dcSubject: "Tee",
      dcTermsKeywords: "a, b",
      articleTag: "one",
    });
    expect(meta.language).toBe("de");
    expect(meta.favicon).toBe("https://example.de/fav.ico");
  });
});

describe("withDeadline", () => {
  test("answers timeout when the time is up, even if the work goes on, and aborts its signal", async () => {
    let aborted = false;
    const started = performance.now();
    const error = await withDeadline(50, undefined, (signal) => {
      signal.addEventListener("abort", () => {
        aborted = true;
      });
      return new Promise(() => {});
    }).catch((e) => e);
    expect(error).toBeInstanceOf(SiphonError);
    expect((error as SiphonError).type).toBe("timeout");
    expect(aborted).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await withDeadline(1000, undefined, async () => "done")).toBe("done");
  });
});

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const MAIN = { format: "text", onlyMainContent: true, images: false } as const;
const DESCRIPTION =
  "Cushioned all day with a ribbed arch that holds the sock in place, knitted without a seam across the toes &amp; <b>washable</b> at forty degrees.";

function productPage(description: string, visible: string): string {
  const ld = JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Trail Sock",
    description,
  });
  return `<html><head><script type="application/ld+json">${ld}</script></head><body>
    <main><h1>Trail Sock</h1><div class="buy"><span>$17.00</span><button>Add to cart</button></div>${visible}</main>
    <footer><a href="/help">Help</a></footer></body></html>`;
}

test("a product page gains the description its JSON-LD declares but its markup leaves out, in both modes", () => {
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(productPage(DESCRIPTION, ""), "https://shop.example/p/sock", {
      ...MAIN,
      onlyMainContent,
    });
    expect(content).toContain("knitted without a seam across the toes & washable at forty degrees.");
    expect(content).not.toContain("<b>");
  }
});

test("a declared description the page already shows is not repeated", () => {
  const shown =
    "<p>Cushioned all day with a ribbed arch that holds the sock in place, knitted without a seam across the toes and washable at forty degrees.</p>";
  const { content } = extractHtml(productPage(DESCRIPTION, shown), "https://shop.example/p/sock", MAIN);
  expect(content.match(/ribbed arch/g)?.length).toBe(1);
});

test("several declared products (a listing) add no description", () => {
  const item = (n: number) => ({ "@type": "Product", name: `Sock ${n}`, description: DESCRIPTION });
  const ld = JSON.stringify({ "@context": "https://schema.org", "@graph": [item(1), item(2)] });
  const html = `<html><head><script type="application/ld+json">${ld}</script></head><body><main><h1>Socks</h1><p>Two socks.</p></main></body></html>`;
  const { content } = extractHtml(html, "https://shop.example/socks", MAIN);
  expect(content).not.toContain("ribbed arch");
});

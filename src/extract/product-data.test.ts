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

test("a description the template wrote URL-encoded is read decoded; a percent in a sentence stays", () => {
  const encoded = encodeURIComponent(
    "An elegant sofa with a curved frame & rounded cushions, 100% linen|The Atelier Sofa seats three.",
  );
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(productPage(encoded, ""), "https://shop.example/p/sofa", {
      ...MAIN,
      onlyMainContent,
    });
    expect(content).toContain(
      "An elegant sofa with a curved frame & rounded cushions, 100% linen|The Atelier Sofa",
    );
    expect(content).not.toContain("%20");
  }
  const written =
    "Knitted from merino, it keeps its shape after many washes: enter SAVE%20 at checkout for a second pair.";
  const { content } = extractHtml(productPage(written, ""), "https://shop.example/p/sock", MAIN);
  expect(content).toContain(written);
  const stray =
    "An%20elegant%20sofa%20at%20100%%20of%20its%20width,%20with%20rounded%20cushions%20and%20a%20curved%20frame";
  expect(extractHtml(productPage(stray, ""), "https://shop.example/p/sofa", MAIN).content).toContain(stray);
});

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const main = { format: "text", onlyMainContent: true, images: false } as const;
const product = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Linen shirt","offers":{"@type":"Offer","price":"45.00","priceCurrency":"USD"}}</script>`;

test("a product page drops the grid of other products with their prices", () => {
  const card = (i: number) =>
    `<li><img src="/i/${i}.jpg" alt=""><h3>Other summer shirt model ${i} in cotton and linen blend</h3><span>Pre-owned</span><span>$${20 + i}.99</span><span>+ $5.00 delivery</span></li>`;
  const html = `<html><head>${product}</head><body><main>
    <div class="summary"><h1>Linen shirt</h1><span class="price">$45.00</span></div>
    <section><h2>Similar items</h2><ul class="carousel">${[1, 2, 3, 4, 5, 6].map(card).join("")}</ul></section>
    <section><h2>About this item</h2><p>A relaxed linen shirt, washed for softness, with a camp collar and a straight hem to wear untucked.</p></section>
  </main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    // The default mode keeps a shop's grid beside its introduction (page-content.ts), not other products beside one.
    const { content } = extractHtml(html, "https://shop.example/linen-shirt", { ...main, onlyMainContent });
    expect(content).toContain("A relaxed linen shirt");
    expect(content).toContain("$45.00");
    expect(content).not.toContain("Other summer shirt model");
  }
});

test("a product page keeps its own price tiers table", () => {
  const row = (q: string, p: string) => `<tr><td>${q}</td><td>$${p}</td></tr>`;
  const html = `<html><head>${product}</head><body><main><h1>Linen shirt</h1>
    <p>A relaxed linen shirt, washed for softness, with a camp collar and a straight hem to wear untucked.</p>
    <table><tr><th>Quantity</th><th>Price each</th></tr>${row("1-9", "45.00")}${row("10-49", "39.00")}${row("50+", "33.00")}</table>
  </main></body></html>`;
  const { content } = extractHtml(html, "https://shop.example/linen-shirt", main);
  expect(content).toContain("$39.00");
  expect(content).toContain("$33.00");
});

test("a product with little prose is its own block, not the lists of links around it", () => {
  const facts = `<dl><dt>Fabric</dt><dd>Linen</dd><dt>Collar</dt><dd>Camp collar</dd><dt>Fit</dt><dd>Regular</dd><dt>Care</dt><dd>Machine wash at 30 °C</dd></dl>`;
  const links = (label: string, n: number) =>
    Array.from(
      { length: n },
      (_, i) => `<li><a href="/c/${label}-${i}">${label} category ${i}</a></li>`,
    ).join("");
  // The block around the product adds only lists of links (other brands, other categories).
  const linked = `<html><head>${product}</head><body><div class="wrap"><main>
    <div class="col"><h1>Linen shirt</h1><span>$45.00</span>${facts}</div></main>
    <div class="more"><h2>More brands</h2><ul>${links("Brand", 30)}</ul><h2>More ideas</h2><ul>${links("Idea", 30)}</ul></div>
  </div></body></html>`;
  const { content } = extractHtml(linked, "https://shop.example/linen-shirt", main);
  expect(content).toContain("Linen shirt");
  expect(content).toContain("Machine wash at 30 °C");
  expect(content).not.toContain("Brand category");
  expect(content).not.toContain("Idea category");
});

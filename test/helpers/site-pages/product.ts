import { readFileSync } from "node:fs";
import { join } from "node:path";
import { esc, layout } from "./layout.ts";

export const PRODUCT_NAME = "Aeropress Go Travel Coffee Maker";
/** The price as shown on the page. */
export const PRODUCT_PRICE = "€39.95";
export const PRODUCT_DESCRIPTION =
  "A compact coffee press that packs into its own mug, brews in one minute and cleans up in seconds.";
/** A row of the specs table: label and value. */
export const PRODUCT_SPEC = ["Capacity", "237 ml"] as const;

const SPECS: [string, string][] = [
  [PRODUCT_SPEC[0], PRODUCT_SPEC[1]],
  ["Weight", "320 g"],
  ["Material", "BPA-free polypropylene"],
  ["Dimensions", "9.6 × 9.6 × 13.3 cm"],
];

/** A shop product page: gallery, price, description, specs table, reviews and JSON-LD Product. */
export function productPage(origin: string): string {
  const jsonLd = {
    "@context": "https://schema.org/",
    "@type": "Product",
    name: PRODUCT_NAME,
    image: [`${origin}/images/aeropress-go.jpg`],
    description: PRODUCT_DESCRIPTION,
    sku: "AP-GO-01",
    brand: { "@type": "Brand", name: "Aeropress" },
    offers: {
      "@type": "Offer",
      priceCurrency: "EUR",
      price: "39.95",
      availability: "https://schema.org/InStock",
    },
    aggregateRating: { "@type": "AggregateRating", ratingValue: "4.7", reviewCount: "312" },
  };
  const head = `<meta name="description" content="${esc(PRODUCT_DESCRIPTION)}">
  <meta property="og:type" content="product">
  <meta property="og:image" content="${origin}/images/aeropress-go.jpg">
  <script type="application/ld+json">${JSON.stringify(jsonLd)}</script>`;
  const specs = SPECS.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join("\n");
  const body = `<main class="product-page">
  <nav class="breadcrumbs"><a href="/shop">Shop</a> › <a href="/shop/coffee">Coffee</a> › ${esc(PRODUCT_NAME)}</nav>
  <div class="gallery"><img src="/images/aeropress-go.jpg" alt="${esc(PRODUCT_NAME)}" width="800" height="800"></div>
  <section class="buy-box">
    <h1 itemprop="name">${esc(PRODUCT_NAME)}</h1>
    <p class="rating">★★★★★ 4.7 (312 reviews)</p>
    <p class="price"><span class="amount">${PRODUCT_PRICE}</span> <span class="vat">incl. VAT</span></p>
    <p class="stock">In stock — ships in 1–2 business days</p>
    <form class="add-to-cart"><input type="number" value="1" min="1"><button>Add to basket</button></form>
  </section>
  <section class="description">
    <h2>Description</h2>
    <p>${esc(PRODUCT_DESCRIPTION)}</p>
    <p>Includes 350 micro-filters, a stirrer and a scoop. Dishwasher safe.</p>
  </section>
  <section class="specs">
    <h2>Specifications</h2>
    <table><tbody>
${specs}
    </tbody></table>
  </section>
  <section class="reviews">
    <h2>Customer reviews</h2>
    <div class="review"><p class="stars">★★★★★</p><p>Perfect for camping, makes a better cup than my machine at home.</p><p class="reviewer">— Tomasz, verified buyer</p></div>
    <div class="review"><p class="stars">★★★★☆</p><p>Great coffee, the mug lid is a little loose.</p><p class="reviewer">— Priya, verified buyer</p></div>
  </section>
  <aside class="recommendations"><h2>Customers also bought</h2><ul>
    <li><a href="/product/filters">Paper micro-filters (350)</a> €5.95</li>
    <li><a href="/product/grinder">Hand grinder</a> €49.00</li>
  </ul></aside>
</main>`;
  return layout({ title: `${PRODUCT_NAME} – ${PRODUCT_PRICE} | Fixture Shop`, head, body });
}

/**
 * /product/streamed: a product page streamed after its shell (React's out-of-order rendering),
 * the golden page test/fixtures/pages/product-streamed.
 */
export function streamedProductPage(): string {
  return readFileSync(
    join(import.meta.dir, "..", "..", "fixtures", "pages", "product-streamed", "source.html"),
    "utf8",
  );
}

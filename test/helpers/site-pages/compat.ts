import { html } from "./dynamic.ts";
import { layout } from "./layout.ts";

/**
 * Pages for the Firecrawl-compatible API: a branded page (its CSS inline and in a linked
 * stylesheet, a logo, a favicon and every kind of meta tag Firecrawl reports), an article to
 * summarise, and a page whose price changes on each request (change tracking).
 */

export const BRAND_TITLE = "Kettle & Co - Loose Leaf Tea";
export const BRAND_PRIMARY = "#c2410c";
export const BRAND_BACKGROUND = "#fffbeb";
export const BRAND_TEXT = "#1c1917";
/** Set in the linked stylesheet only. */
export const BRAND_LINK = "#0e7490";
export const BRAND_FONT = "Merriweather";
export const BRAND_LOGO_PATH = "/compat/img/kettle-logo.svg";
export const BRAND_FAVICON_PATH = "/compat/favicon.png";
/** An image in the article (the images format lists it). */
export const BRAND_CONTENT_IMAGE_PATH = "/compat/img/tins.jpg";
export const BRAND_DESCRIPTION = "Small-batch loose leaf tea, blended in Bristol since 1998.";
/** A meta tag Firecrawl has no name for: reported under its own name. */
export const BRAND_CUSTOM_META = { name: "kettle:roast-level", content: "medium" };
/** A sentence of the branded page's main content. */
export const BRAND_SENTENCE =
  "Every blend is packed by hand within a week of the harvest reaching our Bristol shop.";

const BRAND_CSS = `a { color: ${BRAND_LINK}; text-decoration: underline; }
h1, h2 { font-family: "${BRAND_FONT}", Georgia, serif; font-size: 2.25rem; }`;

/** The branded page: meta tags of every kind, inline and linked CSS, a logo in the header. */
export function brandPage(): string {
  return `<!DOCTYPE html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>${BRAND_TITLE}</title>
  <meta name="description" content="${BRAND_DESCRIPTION}">
  <meta name="keywords" content="tea, loose leaf, Bristol">
  <meta name="robots" content="index, follow">
  <meta name="theme-color" content="${BRAND_PRIMARY}">
  <meta property="og:title" content="Kettle &amp; Co">
  <meta property="og:description" content="Loose leaf tea from Bristol">
  <meta property="og:site_name" content="Kettle &amp; Co">
  <meta property="og:image" content="/compat/img/og.jpg">
  <meta property="og:locale" content="en_GB">
  <meta property="og:locale:alternate" content="fr_FR">
  <meta property="og:locale:alternate" content="de_DE">
  <meta property="article:published_time" content="2025-05-01T08:00:00Z">
  <meta property="article:modified_time" content="2025-06-02T09:30:00Z">
  <meta name="DC.date" content="2025-05-01">
  <meta name="dcterms.created" content="2025-04-30">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="${BRAND_CUSTOM_META.name}" content="${BRAND_CUSTOM_META.content}">
  <link rel="icon" href="${BRAND_FAVICON_PATH}">
  <link rel="stylesheet" href="/compat/brand.css">
  <style>
    :root { --brand-primary: ${BRAND_PRIMARY}; }
    body { background: ${BRAND_BACKGROUND}; color: ${BRAND_TEXT}; font-family: "Inter", Arial, sans-serif; font-size: 17px; }
    .btn-primary { background: var(--brand-primary); color: #ffffff; border-radius: 6px; }
  </style>
</head>
<body>
  <header><a href="/"><img class="logo" src="${BRAND_LOGO_PATH}" alt="Kettle &amp; Co"></a>
    <nav><a href="/compat/shop">Shop</a> <a href="/compat/about">About</a></nav></header>
  <main><article>
    <h1>Loose leaf tea, blended by hand</h1>
    <p>Kettle &amp; Co blends loose leaf tea from small estates in Assam, Darjeeling and Yunnan.
    ${BRAND_SENTENCE} Our tea is sold in paper tins that can be refilled at the shop.</p>
    <figure><img src="${BRAND_CONTENT_IMAGE_PATH}" alt="Refillable paper tins of tea" width="640" height="400">
      <figcaption>Our refillable paper tins.</figcaption></figure>
    <p><a class="btn-primary" href="/compat/shop">Shop the teas</a></p>
  </article></main>
  <footer><p>Kettle &amp; Co, 12 Harbour Street, Bristol</p></footer>
</body>
</html>`;
}

/** The article the summary tests read: its subject is named in every paragraph. */
export const SUMMARY_TITLE = "How tide mills work";
export const SUMMARY_FIRST_SENTENCE =
  "Tide mills are water mills driven by the rise and fall of the tide in an estuary or a tidal inlet.";

export function summaryPage(): string {
  return layout({
    title: SUMMARY_TITLE,
    body: `<main><article>
<h1>${SUMMARY_TITLE}</h1>
<p>${SUMMARY_FIRST_SENTENCE} A dam with a sluice is built across the inlet, and the rising tide fills the mill pond behind it.</p>
<p>When the tide goes out, the water held in the mill pond is released through the mill wheel, which turns the millstones.
A tide mill can work for about four hours on each tide, twice a day, whatever the weather.</p>
<p>The oldest known tide mills were built in Ireland in the early Middle Ages. A few tide mills in Europe still grind flour today as working museums.</p>
</article></main>`,
  });
}

/** Prices the changing page shows on its first, second and later requests (per id). */
export const CHANGING_PRICES = ["12.00", "14.50", "14.50"];

/** The changing page: its price moves on the second request for an id, then stays. */
export function changingPage(visit: number): string {
  const price = CHANGING_PRICES[Math.min(visit, CHANGING_PRICES.length - 1)];
  return layout({
    title: "Assam breakfast tea",
    body: `<main><article>
<h1>Assam breakfast tea</h1>
<p>A malty, full-bodied black tea from the Brahmaputra valley, strong enough for milk.</p>
<p>Price: ${price} GBP for 100 g</p>
<p>Brew with boiling water for four minutes.</p>
</article></main>`,
  });
}

/** Routes of this module: path and handler, mounted by the fixture site. */
export function compatSiteRoutes(): [string, (request: Request, url: URL) => Response][] {
  const visits = new Map<string, number>();
  return [
    ["/compat/brand", () => html(brandPage())],
    ["/compat/brand.css", () => new Response(BRAND_CSS, { headers: { "content-type": "text/css" } })],
    ["/compat/summary", () => html(summaryPage())],
    [
      "/compat/changing",
      (_request, url) => {
        const id = url.searchParams.get("id") ?? "";
        const visit = visits.get(id) ?? 0;
        visits.set(id, visit + 1);
        return html(changingPage(visit));
      },
    ],
    [
      "/compat/gone",
      () => html("<html><body><h1>Gone</h1><p>This tea is no longer sold.</p></body></html>", 404),
    ],
  ];
}

import { esc, layout } from "./layout.ts";

/**
 * Pages for structured extraction without an LLM: a product, a news article, a recipe, an event
 * and a job posting, each in four variants that show the same visible page but describe it
 * differently: JSON-LD, microdata, only OpenGraph (and product) meta tags, or nothing structured
 * at all; plus a page of data tables. Each type has a JSON Schema asked as a user would write it
 * (plain field names, not schema.org's) and the values a right answer holds, so tests and
 * scripts/bench/extract-structured.ts share them. The pages carry the noise real ones do:
 * site chrome, struck-through prices, related items with their own prices and dates, reviews,
 * and European number and date formats.
 */

export type StructuredType = "product" | "article" | "recipe" | "event" | "job" | "table";
export type StructuredVariant = "json-ld" | "microdata" | "opengraph" | "none";

export interface StructuredPage {
  path: string;
  type: StructuredType;
  variant: StructuredVariant;
}

export const STRUCTURED_VARIANTS: readonly StructuredVariant[] = [
  "json-ld",
  "microdata",
  "opengraph",
  "none",
];

/** Every page: each content type in each variant, and the table page (nothing structured). */
export const STRUCTURED_PAGES: StructuredPage[] = [
  ...(["product", "article", "recipe", "event", "job"] as const).flatMap((type) =>
    STRUCTURED_VARIANTS.map((variant) => ({ path: `/structured/${type}/${variant}`, type, variant })),
  ),
  { path: "/structured/table/none", type: "table", variant: "none" },
];

type Schema = Record<string, unknown>;
const str = { type: "string" };
const num = { type: "number" };
const int = { type: "integer" };
const date = { type: "string", format: "date" };
const dateTime = { type: "string", format: "date-time" };
const strings = { type: "array", items: str };

/** The schema each page type is asked with. */
export const STRUCTURED_SCHEMAS: Record<StructuredType, Schema> = {
  product: {
    title: "Product",
    type: "object",
    properties: {
      name: str,
      brand: str,
      price: num,
      currency: str,
      sku: str,
      gtin: str,
      rating: num,
      reviewCount: int,
      inStock: { type: "boolean" },
      image: { type: "string", format: "uri" },
      description: str,
    },
    required: ["name", "price"],
  },
  article: {
    title: "News article",
    type: "object",
    properties: {
      headline: str,
      author: str,
      datePublished: date,
      publisher: str,
      section: str,
      image: { type: "string", format: "uri" },
      description: str,
      keywords: strings,
    },
  },
  recipe: {
    title: "Recipe",
    type: "object",
    properties: {
      name: str,
      author: str,
      prepTime: { type: "integer", description: "minutes" },
      cookTime: { type: "integer", description: "minutes" },
      totalTime: { type: "integer", description: "minutes" },
      servings: int,
      ingredients: strings,
      instructions: strings,
      calories: num,
      cuisine: str,
      rating: num,
    },
  },
  event: {
    title: "Event",
    type: "object",
    properties: {
      name: str,
      startDate: dateTime,
      endDate: dateTime,
      venue: str,
      city: str,
      price: num,
      currency: str,
      performer: str,
      organizer: str,
      description: str,
    },
  },
  job: {
    title: "Job posting",
    type: "object",
    properties: {
      title: str,
      company: str,
      city: str,
      employmentType: {
        type: "string",
        enum: ["FULL_TIME", "PART_TIME", "CONTRACTOR", "TEMPORARY", "INTERN"],
      },
      datePosted: date,
      validThrough: date,
      salaryMin: num,
      salaryMax: num,
      salaryCurrency: str,
      contactEmail: str,
    },
  },
  table: {
    title: "Mountain huts",
    type: "object",
    properties: {
      huts: {
        type: "array",
        items: {
          type: "object",
          properties: { name: str, altitude: int, beds: int, halfBoard: num, season: str },
          required: ["name"],
        },
      },
      email: str,
      phone: str,
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Product: a German coffee shop, prices as "49,90 €", a struck-through list price.

const PRODUCT = {
  name: "Hario Skerton Pro Keramik-Kaffeemühle",
  brand: "Hario",
  price: 49.9,
  currency: "EUR",
  sku: "MMCS-2B",
  gtin: "4977642723702",
  rating: 4.6,
  reviewCount: 218,
  inStock: true,
  imagePath: "/images/skerton-pro.jpg",
  description: "Handmühle mit Keramikmahlwerk, stufenlos einstellbar von Espresso bis French Press.",
};

function productPage(variant: StructuredVariant, origin: string): string {
  const p = PRODUCT;
  const md = (attrs: string) => (variant === "microdata" ? ` ${attrs}` : "");
  const image = `${origin}${p.imagePath}`;
  let head = "";
  if (variant === "json-ld") {
    const ld = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebSite", "@id": `${origin}/#website`, name: "Kaffeewerk", url: `${origin}/` },
        {
          "@type": "BreadcrumbList",
          itemListElement: [
            { "@type": "ListItem", position: 1, name: "Shop", item: `${origin}/shop` },
            { "@type": "ListItem", position: 2, name: "Mühlen", item: `${origin}/shop/muehlen` },
          ],
        },
        {
          "@type": "Product",
          name: p.name,
          image: [image, `${origin}/images/skerton-pro-2.jpg`],
          description: p.description,
          sku: p.sku,
          gtin13: p.gtin,
          brand: { "@type": "Brand", name: p.brand },
          offers: {
            "@type": "Offer",
            url: `${origin}/structured/product/json-ld`,
            priceCurrency: "EUR",
            price: "49.90",
            availability: "https://schema.org/InStock",
            itemCondition: "https://schema.org/NewCondition",
          },
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: "4.6",
            reviewCount: "218",
            bestRating: "5",
          },
        },
      ],
    };
    head = `<meta name="description" content="${esc(p.description)}">
  <script type="application/ld+json">${JSON.stringify(ld)}</script>`;
  } else if (variant === "opengraph") {
    head = `<meta property="og:type" content="product">
  <meta property="og:title" content="${esc(p.name)}">
  <meta property="og:description" content="${esc(p.description)}">
  <meta property="og:image" content="${p.imagePath}">
  <meta property="og:site_name" content="Kaffeewerk">
  <meta property="product:brand" content="${p.brand}">
  <meta property="product:price:amount" content="49.90">
  <meta property="product:price:currency" content="EUR">
  <meta property="product:availability" content="in stock">`;
  }
  const body = `<main class="pdp"${md('itemscope itemtype="https://schema.org/Product"')}>
  <nav class="breadcrumbs"><a href="/shop">Shop</a> › <a href="/shop/muehlen">Mühlen</a> › ${esc(p.name)}</nav>
  <div class="gallery"><img src="${p.imagePath}"${md('itemprop="image"')} alt="${esc(p.name)}" width="900" height="900">
    <img src="/images/skerton-pro-2.jpg" alt="Mahlwerk" width="120" height="120"></div>
  <section class="buy-box">
    <p class="brand"${md('itemprop="brand" itemscope itemtype="https://schema.org/Brand"')}><a href="/marken/hario"${md('itemprop="url"')}><span${md('itemprop="name"')}>${p.brand}</span></a></p>
    <h1${md('itemprop="name"')}>${esc(p.name)}</h1>
    <p class="rating"${md('itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"')}>★★★★½
      <span${md('itemprop="ratingValue" content="4.6"')}>4,6</span> von 5 Sternen
      (<span${md('itemprop="reviewCount"')}>218</span> Bewertungen)</p>
    <div class="price-box"${md('itemprop="offers" itemscope itemtype="https://schema.org/Offer"')}>
      <p class="old-price">UVP <del>59,90 €</del></p>
      <p class="price"><span${md('itemprop="price" content="49.90"')}>49,90 €</span>${md('<meta itemprop="priceCurrency" content="EUR">').trim()}
        <span class="vat">inkl. MwSt., versandkostenfrei ab 29,00 €</span></p>
      <p class="stock">${md('<link itemprop="availability" href="https://schema.org/InStock">').trim()}Auf Lager – Lieferung in 1–3 Werktagen</p>
    </div>
    <form class="add-to-cart"><input type="number" value="1" min="1"><button>In den Warenkorb</button></form>
  </section>
  <section class="description">
    <h2>Beschreibung</h2>
    <p${md('itemprop="description"')}>${esc(p.description)}</p>
    <p>Der Mahlgrad wird am Boden der Mühle in Rastungen eingestellt. Fasst 100 g Bohnen; der Glasbehälter hat einen Deckel mit Silikondichtung.</p>
  </section>
  <section class="specs">
    <h2>Technische Daten</h2>
    <table class="spec-sheet"><tbody>
      <tr><th>Marke</th><td>${p.brand}</td></tr>
      <tr><th>Artikelnummer</th><td${md('itemprop="sku"')}>${p.sku}</td></tr>
      <tr><th>EAN</th><td${md('itemprop="gtin13"')}>${p.gtin}</td></tr>
      <tr><th>Material</th><td>Keramik, Glas, Edelstahl</td></tr>
      <tr><th>Gewicht</th><td>620 g</td></tr>
    </tbody></table>
  </section>
  <section class="reviews">
    <h2>Kundenbewertungen</h2>
    <div class="review"><p>★★★★★ <strong>Top für Espresso</strong> – 12.01.2025</p><p>Mahlt gleichmäßig, braucht aber Geduld: gut 2 Minuten für einen Doppelten.</p></div>
    <div class="review"><p>★★★★☆ <strong>Solide</strong> – 03.12.2024</p><p>Für 49,90 € ein fairer Preis. Der Griff könnte länger sein.</p></div>
  </section>
</main>
<aside class="cross-sell"><h2>Kunden kauften auch</h2><ul>
  <li><a href="/p/filter">Papierfilter 02, 100 Stück</a> 4,95 €</li>
  <li><a href="/p/waage">Hario V60 Drip Scale</a> 64,90 €</li>
</ul></aside>`;
  return layout({ title: `${p.name} | Kaffeewerk`, head, body, lang: "de" });
}

// ---------------------------------------------------------------------------------------------
// Article: a news story with a byline, a section, tags and related stories with their own dates.

const ARTICLE = {
  headline: "Rotterdam switches on Europe's largest floating solar park",
  author: "Marieke de Vries",
  published: "2024-05-14T08:30:00+02:00",
  publisher: "The Fixture Times",
  section: "Energy",
  imagePath: "/images/floating-solar.jpg",
  description:
    "Seventy thousand panels on a disused harbour basin will power 12,000 homes, the port authority says.",
  keywords: ["solar", "Rotterdam", "renewables"],
};

function articlePage(variant: StructuredVariant, origin: string): string {
  const a = ARTICLE;
  const md = (attrs: string) => (variant === "microdata" ? ` ${attrs}` : "");
  const image = `${origin}${a.imagePath}`;
  let head = "";
  if (variant === "json-ld") {
    const ld = {
      "@context": "https://schema.org",
      "@graph": [
        {
          "@type": "Organization",
          "@id": `${origin}/#org`,
          name: a.publisher,
          logo: `${origin}/static/logo.svg`,
        },
        {
          "@type": "Person",
          "@id": `${origin}/#author-mdv`,
          name: a.author,
          url: `${origin}/authors/marieke-de-vries`,
        },
        {
          "@type": "NewsArticle",
          headline: a.headline,
          description: a.description,
          image: { "@type": "ImageObject", url: image, width: 1600, height: 900 },
          datePublished: a.published,
          dateModified: "2024-05-14T11:02:00+02:00",
          author: { "@id": `${origin}/#author-mdv` },
          publisher: { "@id": `${origin}/#org` },
          articleSection: a.section,
          keywords: a.keywords.join(", "),
          mainEntityOfPage: `${origin}/structured/article/json-ld`,
        },
      ],
    };
    head = `<meta name="description" content="${esc(a.description)}">
  <script type="application/ld+json">${JSON.stringify(ld)}</script>`;
  } else if (variant === "opengraph") {
    head = `<meta property="og:type" content="article">
  <meta property="og:title" content="${esc(a.headline)}">
  <meta property="og:description" content="${esc(a.description)}">
  <meta property="og:image" content="${image}">
  <meta property="og:site_name" content="${a.publisher}">
  <meta property="article:published_time" content="${a.published}">
  <meta property="article:section" content="${a.section}">
  ${a.keywords.map((k) => `<meta property="article:tag" content="${k}">`).join("\n  ")}
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:title" content="${esc(a.headline)}">`;
  }
  const body = `<main id="content">
  <article class="story"${md('itemscope itemtype="https://schema.org/NewsArticle"')}>
    <p class="kicker"><a href="/section/energy"${md('itemprop="articleSection"')}>${a.section}</a></p>
    <h1${md('itemprop="headline"')}>${esc(a.headline)}</h1>
    <p class="standfirst"${md('itemprop="description"')}>${esc(a.description)}</p>
    <p class="byline">By <span${md('itemprop="author" itemscope itemtype="https://schema.org/Person"')}><a href="/authors/marieke-de-vries"${md('itemprop="url"')}><span${md('itemprop="name"')}>${a.author}</span></a></span>,
      energy correspondent · <time${md('itemprop="datePublished"')} datetime="${a.published}">14 May 2024, 08:30</time>
      ${md(`<span itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="${a.publisher}"></span>`).trim()}</p>
    <figure>
      <img src="${a.imagePath}"${md('itemprop="image"')} alt="Solar panels floating on a harbour basin" width="1600" height="900">
      <figcaption>The Slufter basin, photographed on 2 May 2024. (Port of Rotterdam)</figcaption>
    </figure>
    <div${md('itemprop="articleBody"')}>
    <p>The park, on a basin the port stopped using in 2011, was connected to the grid on Monday after two years of construction. The port authority says its 70,000 panels will produce about 41 gigawatt hours a year.</p>
    <p>Floating panels stay cooler than those on land, which makes them slightly more efficient, and they do not compete for space with housing or farming, said project director Joost Visser.</p>
    <h2>Birds and boats</h2>
    <p>Environmental groups had asked for a study of the effect on diving birds; the final design leaves a third of the basin open water. Pleasure craft are banned from the basin from 1 June.</p>
    <p>The project cost €86 million, of which the national climate fund paid €30 million.</p>
    </div>
    <p class="tags">Tags: ${a.keywords.map((k) => `<a href="/tag/${k.toLowerCase()}"${md('itemprop="keywords"')}>${k}</a>`).join(", ")}</p>
  </article>
  <aside class="related"><h2>More energy news</h2><ul>
    <li><a href="/news/2024/04/offshore-wind">Offshore wind auction draws record bids</a> <time datetime="2024-04-29">29 April 2024</time></li>
    <li><a href="/news/2024/03/heat-pumps">Heat pump sales fall for the first time</a> <time datetime="2024-03-18">18 March 2024</time></li>
  </ul></aside>
</main>`;
  return layout({ title: `${a.headline} | ${a.publisher}`, head, body });
}

// ---------------------------------------------------------------------------------------------
// Recipe: a food blog's recipe card, times as "15 min", a yield of "24 rolls".

const RECIPE = {
  name: "Pão de Queijo (Brazilian Cheese Bread)",
  author: "Camila Rocha",
  prepTime: 15,
  cookTime: 25,
  totalTime: 40,
  servings: 24,
  ingredients: [
    "250 ml whole milk",
    "125 ml sunflower oil",
    "1 tsp salt",
    "500 g tapioca flour (polvilho azedo)",
    "2 large eggs",
    "150 g grated Parmesan",
  ],
  instructions: [
    "Heat the oven to 200 °C and line two trays with baking paper.",
    "Bring the milk, oil and salt to the boil, then pour it over the tapioca flour and stir until smooth.",
    "Let the dough cool for 10 minutes, then beat in the eggs one at a time.",
    "Fold in the Parmesan and roll the dough into 24 balls with oiled hands.",
    "Bake for 25 minutes until puffed and golden.",
  ],
  calories: 110,
  cuisine: "Brazilian",
  rating: 4.8,
  imagePath: "/images/pao-de-queijo.jpg",
  description: "Crisp outside, chewy inside: the cheese rolls sold at every bakery in Minas Gerais.",
};

function recipePage(variant: StructuredVariant, origin: string): string {
  const r = RECIPE;
  const md = (attrs: string) => (variant === "microdata" ? ` ${attrs}` : "");
  let head = "";
  if (variant === "json-ld") {
    const ld = {
      "@context": "https://schema.org/",
      "@type": "Recipe",
      name: r.name,
      image: [`${origin}${r.imagePath}`],
      author: { "@type": "Person", name: r.author },
      datePublished: "2023-09-02",
      description: r.description,
      prepTime: "PT15M",
      cookTime: "PT25M",
      totalTime: "PT40M",
      recipeYield: ["24", "24 rolls"],
      recipeCategory: "Snack",
      recipeCuisine: r.cuisine,
      keywords: "cheese bread, gluten free",
      nutrition: { "@type": "NutritionInformation", calories: "110 kcal", servingSize: "1 roll" },
      recipeIngredient: r.ingredients,
      recipeInstructions: r.instructions.map((text, i) => ({
        "@type": "HowToStep",
        name: `Step ${i + 1}`,
        text,
      })),
      aggregateRating: { "@type": "AggregateRating", ratingValue: "4.8", ratingCount: "57" },
    };
    head = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
  } else if (variant === "opengraph") {
    head = `<meta property="og:type" content="article">
  <meta property="og:title" content="${esc(r.name)}">
  <meta property="og:description" content="${esc(r.description)}">
  <meta property="og:image" content="${origin}${r.imagePath}">
  <meta property="og:site_name" content="Fixture Kitchen">
  <meta property="article:author" content="${r.author}">
  <meta property="article:published_time" content="2023-09-02T07:00:00+00:00">`;
  }
  const body = `<main class="post">
  <article${md('itemscope itemtype="https://schema.org/Recipe"')}>
    <h1${md('itemprop="name"')}>${esc(r.name)}</h1>
    <p class="meta">By <span${md('itemprop="author"')}>${r.author}</span> · 2 September 2023 · <a href="#comments">31 comments</a></p>
    <p class="jump"><a href="#recipe">Jump to recipe</a> · <a href="/print/pao">Print</a></p>
    <p>My grandmother made these every Sunday, and the smell of hot cheese still means home to me. The trick is sour tapioca flour, polvilho azedo, which makes them rise and stay hollow inside.</p>
    <img src="${r.imagePath}"${md('itemprop="image"')} alt="A basket of cheese rolls" width="1200" height="800">
    <p${md('itemprop="description"')}>${esc(r.description)}</p>
    <div class="newsletter"><p>Get new recipes every Friday!</p><form><input type="email" placeholder="you@example.com"><button>Subscribe</button></form></div>
    <section id="recipe" class="recipe-card">
      <p class="stars"${md('itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"')}>★★★★★ <span${md('itemprop="ratingValue"')}>4.8</span> from <span${md('itemprop="ratingCount"')}>57</span> votes</p>
      <ul class="recipe-times">
        <li><strong>Prep time:</strong> <time${md('itemprop="prepTime"')} datetime="PT15M">15 min</time></li>
        <li><strong>Cook time:</strong> <time${md('itemprop="cookTime"')} datetime="PT25M">25 min</time></li>
        <li><strong>Total time:</strong> <time${md('itemprop="totalTime"')} datetime="PT40M">40 min</time></li>
        <li><strong>Makes:</strong> <span${md('itemprop="recipeYield"')}>24 rolls</span></li>
        <li><strong>Cuisine:</strong> <span${md('itemprop="recipeCuisine"')}>${r.cuisine}</span></li>
        <li${md('itemprop="nutrition" itemscope itemtype="https://schema.org/NutritionInformation"')}><strong>Calories:</strong> <span${md('itemprop="calories"')}>110 kcal</span> per roll</li>
      </ul>
      <h2>Ingredients</h2>
      <ul class="ingredients">
        ${r.ingredients.map((i) => `<li${md('itemprop="recipeIngredient"')}>${esc(i)}</li>`).join("\n        ")}
      </ul>
      <h2>Instructions</h2>
      <ol class="instructions">
        ${r.instructions.map((s) => `<li${md('itemprop="recipeInstructions"')}>${esc(s)}</li>`).join("\n        ")}
      </ol>
      <p class="notes"><strong>Notes:</strong> The dough freezes well: bake from frozen for 30 minutes.</p>
    </section>
  </article>
  <section id="comments"><h2>31 comments</h2>
    <div class="comment"><p><b>Ana</b> · 14 October 2023</p><p>Made these with 200 g of Minas cheese instead, perfect!</p></div>
  </section>
</main>`;
  return layout({ title: `${r.name} - Fixture Kitchen`, head, body });
}

// ---------------------------------------------------------------------------------------------
// Event: a concert in Stockholm, prices in SEK, other dates in the venue's listing.

const EVENT = {
  name: "Nordic Jazz Nights: Esbjörn Lind Trio",
  start: "2025-03-21T19:30",
  end: "2025-03-21T23:00",
  venue: "Fasching",
  city: "Stockholm",
  price: 350,
  currency: "SEK",
  performer: "Esbjörn Lind Trio",
  organizer: "Nordic Jazz Society",
  description: "The trio plays its new album Vinterljus in full, with guest saxophonist Maja Ek.",
};

function eventPage(variant: StructuredVariant, origin: string): string {
  const e = EVENT;
  const md = (attrs: string) => (variant === "microdata" ? ` ${attrs}` : "");
  let head = "";
  if (variant === "json-ld") {
    const ld = {
      "@context": "https://schema.org",
      "@type": "MusicEvent",
      name: e.name,
      startDate: "2025-03-21T19:30:00+01:00",
      endDate: "2025-03-21T23:00:00+01:00",
      doorTime: "18:30",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      location: {
        "@type": "Place",
        name: e.venue,
        address: {
          "@type": "PostalAddress",
          streetAddress: "Kungsgatan 63",
          postalCode: "111 22",
          addressLocality: e.city,
          addressCountry: "SE",
        },
      },
      image: [`${origin}/images/lind-trio.jpg`],
      description: e.description,
      offers: {
        "@type": "Offer",
        url: `${origin}/tickets/lind-trio`,
        price: "350",
        priceCurrency: "SEK",
        availability: "https://schema.org/InStock",
        validFrom: "2024-12-01T10:00:00+01:00",
      },
      performer: { "@type": "MusicGroup", name: e.performer },
      organizer: { "@type": "Organization", name: e.organizer, url: `${origin}/` },
    };
    head = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
  } else if (variant === "opengraph") {
    head = `<meta property="og:type" content="website">
  <meta property="og:title" content="${esc(e.name)}">
  <meta property="og:description" content="${esc(e.description)}">
  <meta property="og:image" content="${origin}/images/lind-trio.jpg">
  <meta property="og:site_name" content="${e.organizer}">`;
  }
  const body = `<main class="event"${md('itemscope itemtype="https://schema.org/MusicEvent"')}>
  <p class="series"><a href="/series/nordic-jazz-nights">Nordic Jazz Nights 2025</a></p>
  <h1${md('itemprop="name"')}>${esc(e.name)}</h1>
  <p class="when"><time${md('itemprop="startDate"')} datetime="2025-03-21T19:30:00+01:00">Friday, 21 March 2025, 19:30</time>
    – <time${md('itemprop="endDate"')} datetime="2025-03-21T23:00:00+01:00">23:00</time> · doors 18:30</p>
  <p class="where"${md('itemprop="location" itemscope itemtype="https://schema.org/Place"')}><span${md('itemprop="name"')}>${e.venue}</span>,
    <span${md('itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"')}><span${md('itemprop="streetAddress"')}>Kungsgatan 63</span>, <span${md('itemprop="postalCode"')}>111 22</span> <span${md('itemprop="addressLocality"')}>${e.city}</span></span></p>
  <img src="/images/lind-trio.jpg" alt="The trio on stage" width="1200" height="630">
  <p${md('itemprop="description"')}>${esc(e.description)}</p>
  <p>Seated and standing. The bar opens with the doors; food is served until 21:00.</p>
  <h2>Tickets</h2>
  <p class="tickets"${md('itemprop="offers" itemscope itemtype="https://schema.org/Offer"')}><span${md('itemprop="priceCurrency" content="SEK"')}>SEK</span> <span${md('itemprop="price" content="350"')}>350</span> standard · SEK 250 students ·
    <a href="/tickets/lind-trio"${md('itemprop="url"')}>Buy tickets</a></p>
  <h2>Line-up</h2>
  <p${md('itemprop="performer" itemscope itemtype="https://schema.org/MusicGroup"')}><span${md('itemprop="name"')}>${e.performer}</span> with Maja Ek (saxophone)</p>
  <p class="organizer">Presented by <span${md('itemprop="organizer" itemscope itemtype="https://schema.org/Organization"')}><span${md('itemprop="name"')}>${e.organizer}</span></span>.
    Questions: <a href="mailto:info@nordicjazz.example">info@nordicjazz.example</a></p>
</main>
<aside class="upcoming"><h2>Also at Fasching</h2><ul>
  <li><a href="/e/1">Saturday Swing Club</a> · 22 March 2025, 20:00 · SEK 200</li>
  <li><a href="/e/2">Jam session</a> · 26 March 2025, 19:00 · free</li>
</ul></aside>`;
  return layout({ title: `${e.name} – ${e.venue}, ${e.city} | Nordic Jazz Society`, head, body });
}

// ---------------------------------------------------------------------------------------------
// Job posting: a Berlin employer, salary as "€70,000 – €85,000", key facts in a definition list.

const JOB = {
  title: "Senior Backend Engineer (Go)",
  company: "Kestrel Logistics GmbH",
  city: "Berlin",
  employmentType: "FULL_TIME",
  datePosted: "2025-01-10",
  validThrough: "2025-02-28",
  salaryMin: 70000,
  salaryMax: 85000,
  salaryCurrency: "EUR",
  contactEmail: "jobs@kestrel.example",
};

function jobPage(variant: StructuredVariant, origin: string): string {
  const j = JOB;
  const md = (attrs: string) => (variant === "microdata" ? ` ${attrs}` : "");
  let head = "";
  if (variant === "json-ld") {
    const ld = {
      "@context": "https://schema.org/",
      "@type": "JobPosting",
      title: j.title,
      description:
        "<p>Kestrel moves 40,000 pallets a day across Europe. Join the routing team and build the Go services that plan them.</p>",
      identifier: { "@type": "PropertyValue", name: "Kestrel", value: "BE-2025-014" },
      datePosted: j.datePosted,
      validThrough: `${j.validThrough}T23:59:00+01:00`,
      employmentType: j.employmentType,
      hiringOrganization: {
        "@type": "Organization",
        name: j.company,
        sameAs: "https://kestrel.example",
        logo: `${origin}/images/kestrel.png`,
      },
      jobLocation: {
        "@type": "Place",
        address: {
          "@type": "PostalAddress",
          streetAddress: "Am Postbahnhof 17",
          addressLocality: j.city,
          postalCode: "10243",
          addressCountry: "DE",
        },
      },
      baseSalary: {
        "@type": "MonetaryAmount",
        currency: "EUR",
        value: { "@type": "QuantitativeValue", minValue: 70000, maxValue: 85000, unitText: "YEAR" },
      },
    };
    head = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
  } else if (variant === "opengraph") {
    head = `<meta property="og:type" content="website">
  <meta property="og:title" content="${esc(j.title)} – Kestrel Logistics">
  <meta property="og:description" content="Join the routing team in Berlin and build the Go services that plan 40,000 pallets a day.">
  <meta property="og:site_name" content="Kestrel Careers">
  <meta property="og:url" content="${origin}/structured/job/opengraph">`;
  }
  const body = `<main class="job"${md('itemscope itemtype="https://schema.org/JobPosting"')}>
  <p class="back"><a href="/jobs">← All jobs</a></p>
  <h1${md('itemprop="title"')}>${esc(j.title)}</h1>
  <p class="company"${md('itemprop="hiringOrganization" itemscope itemtype="https://schema.org/Organization"')}><span${md('itemprop="name"')}>${j.company}</span></p>
  <p class="posted">Posted <time${md('itemprop="datePosted"')} datetime="${j.datePosted}">10 January 2025</time></p>
  <dl class="key-facts">
    <dt>Location</dt><dd${md('itemprop="jobLocation" itemscope itemtype="https://schema.org/Place"')}><span${md('itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"')}><span${md('itemprop="addressLocality"')}>${j.city}</span>, <span${md('itemprop="addressCountry"')}>Germany</span></span> (hybrid, 2 days in the office)</dd>
    <dt>Contract</dt><dd>${md('<meta itemprop="employmentType" content="FULL_TIME">').trim()}Full-time, permanent</dd>
    <dt>Salary</dt><dd${md('itemprop="baseSalary" itemscope itemtype="https://schema.org/MonetaryAmount"')}>${md('<meta itemprop="currency" content="EUR">').trim()}<span${md('itemprop="value" itemscope itemtype="https://schema.org/QuantitativeValue"')}>${md('<meta itemprop="minValue" content="70000"><meta itemprop="maxValue" content="85000"><meta itemprop="unitText" content="YEAR">').trim()}€70,000 – €85,000</span> a year</dd>
    <dt>Apply by</dt><dd><time${md('itemprop="validThrough"')} datetime="${j.validThrough}">28 February 2025</time></dd>
  </dl>
  <div${md('itemprop="description"')}>
  <p>Kestrel moves 40,000 pallets a day across Europe. Join the routing team and build the Go services that plan them.</p>
  <h2>What you'll do</h2>
  <ul><li>Design and run the services that plan 3,000 truck routes every night</li><li>Own the PostgreSQL schema of the planning data</li><li>Mentor two mid-level engineers</li></ul>
  <h2>What you bring</h2>
  <ul><li>5+ years building backend services, 2+ in Go</li><li>Experience with PostgreSQL and message queues</li><li>Good English; German is a plus</li></ul>
  <h2>What we offer</h2>
  <ul><li>30 days of holiday</li><li>€1,000 a year for training and conferences</li><li>Deutschlandticket paid in full</li></ul>
  </div>
  <p class="apply">Send your CV and a few lines about a system you are proud of to <a href="mailto:${j.contactEmail}">${j.contactEmail}</a>. Questions? Call Lena Brandt on +49 30 2589 4410.</p>
</main>
<aside class="similar"><h2>Similar jobs</h2><ul>
  <li><a href="/jobs/be-2025-009">Platform Engineer (Kubernetes)</a> · Hamburg · posted 3 January 2025</li>
  <li><a href="/jobs/be-2024-188">Data Engineer</a> · remote · posted 12 December 2024</li>
</ul></aside>`;
  return layout({ title: `${j.title} at Kestrel Logistics | Kestrel Careers`, head, body });
}

// ---------------------------------------------------------------------------------------------
// Table page: mountain huts, Italian number formats, a layout table and a one-column table around them.

const HUTS = [
  { name: "Rifugio Auronzo", altitude: 2320, beds: 110, halfBoard: 72, season: "June – September" },
  { name: "Rifugio Lavaredo", altitude: 2344, beds: 32, halfBoard: 68.5, season: "June – September" },
  {
    name: "Rifugio Locatelli",
    altitude: 2405,
    beds: 185,
    halfBoard: 75,
    season: "late June – late September",
  },
  { name: "Rifugio Pian di Cengia", altitude: 2528, beds: 25, halfBoard: 79, season: "July – mid September" },
  { name: "Rifugio Fonda Savio", altitude: 2367, beds: 42, halfBoard: 70, season: "June – September" },
];
const HUTS_EMAIL = "info@dolomiti-huts.example";
const HUTS_PHONE = "+39 0436 866 252";

/** "72,00" and "2.320" as an Italian page writes them. */
const italian = (n: number, decimals: number) =>
  n.toLocaleString("it-IT", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: "always",
  });

function tablePage(): string {
  const rows = HUTS.map(
    (h) =>
      `<tr><td><a href="/huts/${h.name.toLowerCase().replace(/\s+/g, "-")}">${h.name}</a></td><td>${italian(h.altitude, 0)}</td><td>${h.beds}</td><td>${italian(h.halfBoard, 2)}</td><td>${h.season}</td></tr>`,
  ).join("\n        ");
  const body = `<table class="layout" width="100%"><tr><td class="sidebar" valign="top">
  <ul class="side-menu"><li><a href="/routes">Routes</a></li><li><a href="/weather">Weather</a></li></ul>
</td><td class="content" valign="top">
<main>
  <h1>Huts around the Tre Cime: the 2025 season</h1>
  <p>Prices are per person per night with half board, in euros, for members of an alpine club; non-members pay about 10 € more. Book ahead for July and August.</p>
  <table class="huts">
    <caption>Huts on the Tre Cime circuit</caption>
    <thead><tr><th>Hut</th><th>Altitude (m)</th><th>Beds</th><th>Half board (€)</th><th>Season</th></tr></thead>
    <tbody>
        ${rows}
    </tbody>
  </table>
  <table class="notice"><tr><td>Opening dates depend on the snow. Check with the hut before you set out.</td></tr></table>
  <h2>Booking office</h2>
  <dl class="contact">
    <dt>Email</dt><dd><a href="mailto:${HUTS_EMAIL}">${HUTS_EMAIL}</a></dd>
    <dt>Phone</dt><dd>${HUTS_PHONE} (9:00–12:00)</dd>
    <dt>Address</dt><dd>Via Roma 22, 32041 Auronzo di Cadore</dd>
  </dl>
</main>
</td></tr></table>`;
  return layout({ title: "Huts around the Tre Cime – 2025 season | Dolomiti Huts", body });
}

/** The HTML of a structured page, served at its path on `origin`. */
export function structuredPage(page: StructuredPage, origin: string): string {
  switch (page.type) {
    case "product":
      return productPage(page.variant, origin);
    case "article":
      return articlePage(page.variant, origin);
    case "recipe":
      return recipePage(page.variant, origin);
    case "event":
      return eventPage(page.variant, origin);
    case "job":
      return jobPage(page.variant, origin);
    case "table":
      return tablePage();
  }
}

/** What a right answer holds for a page type, asked with its schema; the same in every variant. */
export function structuredExpected(type: StructuredType, origin: string): Record<string, unknown> {
  switch (type) {
    case "product": {
      const { imagePath, ...rest } = PRODUCT;
      return { ...rest, image: `${origin}${imagePath}` };
    }
    case "article": {
      const a = ARTICLE;
      return {
        headline: a.headline,
        author: a.author,
        datePublished: a.published.slice(0, 10),
        publisher: a.publisher,
        section: a.section,
        image: `${origin}${a.imagePath}`,
        description: a.description,
        keywords: a.keywords,
      };
    }
    case "recipe": {
      const { imagePath: _image, description: _description, ...rest } = RECIPE;
      return rest;
    }
    case "event": {
      const { start, end, ...rest } = EVENT;
      return { ...rest, startDate: start, endDate: end };
    }
    case "job":
      return { ...JOB };
    case "table":
      return { huts: HUTS, email: HUTS_EMAIL, phone: HUTS_PHONE };
  }
}

/** Case, spacing and the trailing seconds or offset of a date-time do not matter; numbers within a cent. */
function same(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "number") return typeof actual === "number" && Math.abs(expected - actual) < 0.006;
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false;
    const clean = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
    // Date-times compare as written on the wall clock, to the minute.
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(expected)) return actual.slice(0, 16) === expected;
    return clean(expected) === clean(actual);
  }
  return expected === actual;
}

/**
 * Fields right and fields asked in `actual` against `expected`: each scalar field counts one,
 * a list of values one (right when every item is), and a list of records one per field of
 * each expected record (matched by position).
 */
export function scoreFields(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
): { right: number; asked: number; wrong: string[] } {
  let right = 0;
  let asked = 0;
  const wrong: string[] = [];
  for (const [key, want] of Object.entries(expected)) {
    const got = actual[key];
    if (Array.isArray(want) && want.some((w) => typeof w === "object" && w !== null)) {
      want.forEach((record, i) => {
        const gotRecord = Array.isArray(got) ? (got[i] as Record<string, unknown> | undefined) : undefined;
        for (const [field, value] of Object.entries(record as Record<string, unknown>)) {
          asked++;
          if (gotRecord && same(value, gotRecord[field])) right++;
          else wrong.push(`${key}[${i}].${field}`);
        }
      });
      continue;
    }
    asked++;
    const ok = Array.isArray(want)
      ? Array.isArray(got) && got.length === want.length && want.every((w, i) => same(w, got[i]))
      : same(want, got);
    if (ok) right++;
    else wrong.push(key);
  }
  return { right, asked, wrong };
}

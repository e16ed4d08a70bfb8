import { esc, layout, SITE_NAME } from "./layout.ts";

/** The article headline (also the og:title and JSON-LD headline). */
export const ARTICLE_TITLE = "City Council Approves Riverside Solar Farm After Marathon Session";
/** A sentence from the article body that extraction must keep. */
export const ARTICLE_SENTENCE =
  "The farm's 42,000 panels are expected to supply roughly a fifth of the city's daytime electricity demand.";
export const ARTICLE_DESCRIPTION =
  "After nine hours of debate, councillors voted 7-2 to build a 30-megawatt solar farm on the old rail yards.";
export const ARTICLE_AUTHOR = "Maria Okonkwo";
/** ISO 8601 publication time, in the JSON-LD, <time datetime> and article:published_time. */
export const ARTICLE_PUBLISHED = "2024-03-14T09:30:00Z";
/** Relative og:image path; extraction should report it absolute. */
export const ARTICLE_IMAGE_PATH = "/images/solar-farm.jpg";
/** Canonical path (absolute URL in the page, built from the server origin). */
export const ARTICLE_CANONICAL_PATH = "/news/2024/03/riverside-solar-farm";
/** Text of the share widget; it must not survive boilerplate removal. */
export const SHARE_TEXT = "Share this story on Facebook";

/** A news article with full metadata, chrome, share widget and related links. */
export function articlePage(origin: string): string {
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: ARTICLE_TITLE,
    description: ARTICLE_DESCRIPTION,
    image: [`${origin}${ARTICLE_IMAGE_PATH}`],
    datePublished: ARTICLE_PUBLISHED,
    dateModified: "2024-03-14T12:05:00Z",
    author: [{ "@type": "Person", name: ARTICLE_AUTHOR, url: `${origin}/authors/maria-okonkwo` }],
    publisher: { "@type": "Organization", name: SITE_NAME },
  };
  const head = `<meta name="description" content="${esc(ARTICLE_DESCRIPTION)}">
  <meta name="author" content="${ARTICLE_AUTHOR}">
  <meta property="og:type" content="article">
  <meta property="og:title" content="${esc(ARTICLE_TITLE)}">
  <meta property="og:description" content="${esc(ARTICLE_DESCRIPTION)}">
  <meta property="og:image" content="${ARTICLE_IMAGE_PATH}">
  <meta property="og:site_name" content="${SITE_NAME}">
  <meta property="article:published_time" content="${ARTICLE_PUBLISHED}">
  <link rel="canonical" href="${origin}${ARTICLE_CANONICAL_PATH}">
  <script type="application/ld+json">${JSON.stringify(jsonLd)}</script>`;
  const body = `<main id="content">
  <article class="story">
    <p class="kicker"><a href="/section/local">Local news</a></p>
    <h1>${esc(ARTICLE_TITLE)}</h1>
    <p class="byline">By <a rel="author" href="/authors/maria-okonkwo">${ARTICLE_AUTHOR}</a> ·
      <time datetime="${ARTICLE_PUBLISHED}">March 14, 2024</time></p>
    <div class="share-buttons" aria-label="Share">
      <a href="https://www.facebook.com/sharer/sharer.php?u=${origin}/article">${SHARE_TEXT}</a>
      <a href="https://twitter.com/intent/tweet?url=${origin}/article">Post on X</a>
      <a href="mailto:?subject=Solar%20farm">Email</a>
    </div>
    <figure>
      <img src="images/solar-farm.jpg" alt="Rows of solar panels beside the river" width="1200" height="675">
      <figcaption>An artist's impression of the Riverside solar farm. (City of Fixture)</figcaption>
    </figure>
    <p class="lede">${esc(ARTICLE_DESCRIPTION)} Construction could begin as early as this autumn.</p>
    <p>${esc(ARTICLE_SENTENCE)} Surplus power will be stored in a battery bank next to the
      <a href="/places/old-rail-yards">old rail yards</a>, which have stood empty since the freight depot closed in 1998.</p>
    <h2>Residents divided</h2>
    <p>More than 120 residents signed up to speak. Supporters pointed to lower energy bills and the
      <a href="../reports/climate-plan-2030.pdf">city's climate plan</a>; opponents worried about the loss of
      a popular dog-walking route and the glare from the panels.</p>
    <blockquote>
      <p>"This is the biggest single step the city has taken towards its climate goals," said Councillor Jun Park.</p>
    </blockquote>
    <p>Councillor Ana Ruiz, who voted against, said the council had "rushed a decision that deserves a referendum".</p>
    <h2>What happens next</h2>
    <ul>
      <li>A six-week public consultation on the landscaping plan opens on April 2.</li>
      <li>The tender for construction will be published in June.</li>
      <li>The first panels should produce power by the end of 2025.</li>
    </ul>
    <p>The project is budgeted at 38 million euros, half of it funded by a national green-transition grant.</p>
    <div class="newsletter-signup"><p>Get the morning briefing in your inbox.</p><form><input type="email"><button>Sign up</button></form></div>
  </article>
  <aside class="related" aria-label="Related stories">
    <h2>Related stories</h2>
    <ul>
      <li><a href="/news/2024/02/battery-storage">Battery storage pilot doubles in size</a></li>
      <li><a href="/news/2024/01/rail-yards-history">A short history of the old rail yards</a></li>
      <li><a href="${origin}/news/2023/11/climate-plan">What the 2030 climate plan promises</a></li>
    </ul>
  </aside>
  <div class="ad-slot advertisement" data-ad="sidebar">Advertisement: Switch to Fixture Energy today!</div>
</main>`;
  return layout({ title: `${ARTICLE_TITLE} | ${SITE_NAME}`, head, body });
}

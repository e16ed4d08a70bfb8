/**
 * The chrome every fixture content page shares: site header with navigation,
 * cookie banner and footer. Extraction must drop all of it, so each piece
 * carries a distinctive string tests can look for.
 */

/** Text in the site navigation; it must not survive boilerplate removal. */
export const NAV_TEXT = "Investor Relations";
/** Text in the footer; it must not survive boilerplate removal. */
export const FOOTER_TEXT = "Fixture Media Group. All rights reserved.";
/** Text of the cookie banner; it must not survive boilerplate removal. */
export const COOKIE_TEXT = "We use cookies to personalise content and analyse our traffic.";
/** The site name, used in titles and og:site_name. */
export const SITE_NAME = "The Fixture Times";

/** Escapes text for HTML content and attributes in the templates. */
export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const HEADER = `<header class="site-header">
  <a class="logo" href="/"><img src="/static/logo.svg" alt="${SITE_NAME}" width="120" height="32"></a>
  <nav class="main-nav" aria-label="Main">
    <ul>
      <li><a href="/">Home</a></li>
      <li><a href="/article">World</a></li>
      <li><a href="/docs">Developers</a></li>
      <li><a href="/forum">Community</a></li>
      <li><a href="/product">Shop</a></li>
      <li><a href="/listing">Archive</a></li>
      <li><a href="/service">Pricing</a></li>
      <li><a href="/about/investors">${NAV_TEXT}</a></li>
    </ul>
  </nav>
  <form class="search" action="/search" role="search"><input name="q" placeholder="Search the site"><button>Search</button></form>
</header>`;

const COOKIE_BANNER = `<div id="cookie-banner" class="cookie-consent" role="dialog" aria-label="Cookie consent">
  <p>${COOKIE_TEXT} <a href="/privacy">Read our cookie policy</a>.</p>
  <button class="accept">Accept all</button> <button class="reject">Reject non-essential</button>
</div>`;

const FOOTER = `<footer class="site-footer">
  <nav aria-label="Footer">
    <a href="/about">About us</a> · <a href="/contact">Contact</a> · <a href="/privacy">Privacy</a> ·
    <a href="/terms">Terms of use</a> · <a href="/careers">Careers</a>
  </nav>
  <p>© 2024 ${FOOTER_TEXT}</p>
</footer>`;

/** What a page adds to the shared layout. */
export interface PageParts {
  title: string;
  /** Extra elements for <head> (meta tags, JSON-LD, canonical). */
  head?: string;
  /** The page's own content, placed between header and footer. */
  body: string;
  lang?: string;
}

/** Wraps page content in the full site chrome. */
export function layout(parts: PageParts): string {
  return `<!DOCTYPE html>
<html lang="${parts.lang ?? "en"}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${esc(parts.title)}</title>
  <link rel="stylesheet" href="/static/site.css">
  <script async src="/static/analytics.js"></script>
  ${parts.head ?? ""}
</head>
<body>
${HEADER}
${parts.body}
${COOKIE_BANNER}
${FOOTER}
<script>window.dataLayer = window.dataLayer || []; window.dataLayer.push({ event: "pageview" });</script>
</body>
</html>`;
}

import { layout } from "./layout.ts";

/**
 * Pages that exist to trigger special handling: error pages, bot walls,
 * JavaScript-only pages, and the home page that links everything.
 */

export const NOT_FOUND_TEXT = "Sorry, we couldn't find that page.";
export const SERVER_ERROR_TEXT = "Something went wrong on our end. Please try again later.";
/** The <title> of the Cloudflare-like challenge page. */
export const BOTWALL_TITLE = "Just a moment...";
/** Headers the 403 challenge answer carries, as Cloudflare's do. */
export const BOTWALL_HEADERS = {
  "cf-mitigated": "challenge",
  server: "cloudflare",
  "cf-ray": "8a1b2c3d4e5f6789-AMS",
};
/** Text the SPA renders with JavaScript; a plain HTTP fetch never sees it. */
export const SPA_TEXT = "Dashboard loaded: 3 open tickets, 12 resolved this week.";
/** The warning shown to clients without JavaScript on /noscript. */
export const NOSCRIPT_TEXT = "You need to enable JavaScript to run this app.";
/** Text /noscript renders with JavaScript. */
export const NOSCRIPT_RENDERED_TEXT = "Welcome back! Your library has 27 saved articles.";

/** A styled 404 page, with the site chrome, as real sites serve. */
export function notFoundPage(): string {
  return layout({
    title: "Page not found | The Fixture Times",
    body: `<main class="error-page"><h1>404 – Page not found</h1><p>${NOT_FOUND_TEXT}</p><p><a href="/">Back to the home page</a></p></main>`,
  });
}

/** A bare 500 page, as an overloaded server sends. */
export function serverErrorPage(): string {
  return `<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>${SERVER_ERROR_TEXT}</p></body></html>`;
}

/** A Cloudflare-like "checking your browser" interstitial: no content, a challenge script, a ray id. */
export function botwallPage(): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
  <title>${BOTWALL_TITLE}</title>
  <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
  <meta name="robots" content="noindex,nofollow">
  <meta name="viewport" content="width=device-width,initial-scale=1">
  <style>*{box-sizing:border-box;margin:0;padding:0}html{line-height:1.15;font-family:system-ui}</style>
</head>
<body>
  <div class="main-wrapper" role="main">
    <div class="main-content">
      <h1 class="zone-name-title h1">fixture.test</h1>
      <h2 id="challenge-running" class="h2">Checking if the site connection is secure</h2>
      <div id="challenge-stage"></div>
      <div id="challenge-body-text" class="core-msg spacer">fixture.test needs to review the security of your connection before proceeding.</div>
      <noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript>
    </div>
  </div>
  <script>(function(){window._cf_chl_opt={cvId:'3',cZone:'fixture.test',cType:'managed',cRay:'8a1b2c3d4e5f6789'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b2c3d4e5f6789';document.getElementsByTagName('head')[0].appendChild(a);}());</script>
  <div class="footer" role="contentinfo"><div class="footer-inner"><div class="text-center">Ray ID: <code>8a1b2c3d4e5f6789</code></div><div class="text-center">Performance &amp; security by Cloudflare</div></div></div>
</body>
</html>`;
}

/** An SPA shell: an empty root element filled in by a script after load. */
export function spaPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Support Dashboard</title><link rel="stylesheet" href="/static/app.css"></head>
<body>
  <div id="root"></div>
  <script>
    // Rendered a tick after load, like a framework fetching its first data.
    setTimeout(function () {
      var root = document.getElementById("root");
      root.innerHTML = '<main><h1>Support Dashboard</h1><p>${SPA_TEXT}</p>' +
        '<ul><li>Ticket #101: Login fails on Safari</li><li>Ticket #102: Export to CSV is slow</li>' +
        '<li>Ticket #103: Typo on pricing page</li></ul></main>';
    }, 50);
  </script>
</body>
</html>`;
}

/** A client-rendered app that tells no-JavaScript clients to enable it. */
export function noscriptPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Reading List</title></head>
<body>
  <noscript><strong>${NOSCRIPT_TEXT}</strong></noscript>
  <div id="app"></div>
  <script>
    document.getElementById("app").innerHTML =
      '<main><h1>Reading List</h1><p>${NOSCRIPT_RENDERED_TEXT}</p></main>';
  </script>
</body>
</html>`;
}

/** The home page: links to every content page, so crawls can start at "/". */
export function homePage(): string {
  return layout({
    title: "The Fixture Times",
    body: `<main><h1>The Fixture Times</h1><p>News, guides and recipes from a town that does not exist.</p>
  <ul>
    <li><a href="/article">Council approves Riverside solar farm</a></li>
    <li><a href="/docs">Developer docs: configuring the HTTP client</a></li>
    <li><a href="/forum">Forum: is my sourdough starter dead?</a></li>
    <li><a href="/product">Shop: Aeropress Go</a></li>
    <li><a href="/listing">Recipe archive</a></li>
    <li><a href="/service">Invoicely pricing</a></li>
    <li><a href="/private/members">Members area</a></li>
  </ul></main>`,
  });
}

/** A page under the robots.txt-disallowed prefix, so crawl tests can check it is never requested. */
export function privatePage(): string {
  return layout({
    title: "Members area",
    body: "<main><h1>Members area</h1><p>Robots may not read this.</p></main>",
  });
}

import { esc, layout } from "./layout.ts";
import { BOTWALL_HEADERS, BOTWALL_TITLE } from "./special.ts";

/**
 * Pages that only a real browser can use: content that appears after load,
 * forms, infinite scroll, hover menus, key presses, a tall page for full-page
 * screenshots, a cookie echo and a JavaScript challenge that sets a cookie.
 * Their scripts are small and inline so the pages work without any asset.
 */

/** Text /delayed inserts about 300 ms after load. */
export const DELAYED_TEXT = "The late edition arrived: river levels are falling across the county.";
/** How long /delayed waits before inserting DELAYED_TEXT. */
export const DELAYED_MS = 300;
/** #result on /form reads `${FORM_RESULT_PREFIX}${query}` after a search. */
export const FORM_RESULT_PREFIX = "Results for ";
/** .item elements /scroll starts with; each scroll near the bottom appends as many more. */
export const SCROLL_INITIAL_ITEMS = 10;
/** /scroll stops appending here, so a runaway scroller cannot grow the page forever. */
export const SCROLL_MAX_ITEMS = 100;
/** Height in CSS pixels of /tall. */
export const TALL_HEIGHT = 4000;
/** Text hovering #menu on /hover reveals in #submenu. */
export const HOVER_TEXT = "Archive: every issue since 1998";
/** The cookie /js-challenge's script sets and then requires. */
export const CHALLENGE_COOKIE = "siphon_challenge=passed";
/** A sentence of the article behind /js-challenge. */
export const CHALLENGE_ARTICLE_TEXT =
  "Volunteers counted 214 otters along the estuary this spring, the highest number since records began.";
/** Options of the <select id="size"> on /select. */
export const SELECT_OPTIONS = ["S", "M", "L"] as const;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title></head>
<body>
${body}
</body>
</html>`;
}

/** An article whose last paragraph a script adds DELAYED_MS after load. */
export function delayedPage(): string {
  return layout({
    title: "Late edition",
    body: `<main><article><h1>Late edition</h1>
  <p>The evening bulletin is still being written; its lead story appears below when ready.</p>
  <div id="late"></div></article></main>
<script>
  window.addEventListener("load", function () {
    setTimeout(function () {
      var p = document.createElement("p");
      p.id = "delayed";
      p.textContent = ${JSON.stringify(DELAYED_TEXT)};
      document.getElementById("late").appendChild(p);
    }, ${DELAYED_MS});
  });
</script>`,
  });
}

/** A search form: type into #q, click #go, and #result shows FORM_RESULT_PREFIX plus the query. */
export function formPage(): string {
  return page(
    "Search the archive",
    `<h1>Search the archive</h1>
<form id="search" onsubmit="return false"><input id="q" name="q" autocomplete="off"> <button id="go" type="button">Search</button></form>
<p id="result" hidden></p>
<script>
  document.getElementById("go").addEventListener("click", function () {
    var result = document.getElementById("result");
    result.textContent = ${JSON.stringify(FORM_RESULT_PREFIX)} + document.getElementById("q").value;
    result.hidden = false;
  });
</script>`,
  );
}

/** An infinite feed: SCROLL_INITIAL_ITEMS tall .item rows, more each time the reader nears the bottom. */
export function scrollPage(): string {
  return page(
    "Endless feed",
    `<style>.item{height:180px;border-bottom:1px solid #ccc}</style>
<h1>Endless feed</h1>
<div id="feed"></div>
<script>
  var feed = document.getElementById("feed");
  function more() {
    var start = feed.children.length;
    for (var i = start; i < start + ${SCROLL_INITIAL_ITEMS} && i < ${SCROLL_MAX_ITEMS}; i++) {
      var item = document.createElement("div");
      item.className = "item";
      item.textContent = "Story number " + (i + 1);
      feed.appendChild(item);
    }
  }
  more();
  window.addEventListener("scroll", function () {
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 300) more();
  });
</script>`,
  );
}

/** A plain page TALL_HEIGHT pixels tall, for full-page screenshots. */
export function tallPage(): string {
  return page(
    "Tall page",
    `<style>body{margin:0}#tall{height:${TALL_HEIGHT}px;background:linear-gradient(#fff,#36c)}h1{margin:0}</style>
<div id="tall"><h1>Top of the tall page</h1></div>`,
  );
}

/** Lists the cookies the request carried, as sent in the Cookie header. */
export function cookiesPage(request: Request): string {
  return page(
    "Your cookies",
    `<h1>Your cookies</h1>\n<pre id="cookies">${esc(request.headers.get("cookie") ?? "")}</pre>`,
  );
}

/** What /visitor says to a browser that has not been there before, and to one that has. */
export const FIRST_VISIT_TEXT = "Welcome, first-time visitor: here is the tour of the reading room.";
export const RETURN_VISIT_TEXT = "Welcome back, returning visitor: your reading list is where you left it.";

/**
 * /visitor and /visitor/next: greet by the `visitor` cookie, which they set on the first visit
 * (a site's own session state); /visitor links to /visitor/next.
 */
export function visitorPage(request: Request): Response {
  const returning = /(?:^|;\s*)visitor=returning/.test(request.headers.get("cookie") ?? "");
  const greeting = returning ? RETURN_VISIT_TEXT : FIRST_VISIT_TEXT;
  const body = page(
    "Reading room",
    `<h1>Reading room</h1>\n<p>${greeting}</p>\n<p><a href="/visitor/next">The next room</a></p>`,
  );
  const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
  if (!returning) headers["set-cookie"] = "visitor=returning; Path=/";
  return new Response(body, { headers });
}

/** A <select id="size">; the chosen value appears in #chosen. */
export function selectPage(): string {
  const options = SELECT_OPTIONS.map((size) => `<option value="${size}">${size}</option>`).join("");
  return page(
    "Pick a size",
    `<label for="size">Size</label> <select id="size"><option value="">Choose…</option>${options}</select>
<p>Chosen: <span id="chosen"></span></p>
<script>
  document.getElementById("size").addEventListener("change", function (event) {
    document.getElementById("chosen").textContent = event.target.value;
  });
</script>`,
  );
}

/** A menu whose #submenu (HOVER_TEXT) shows only while the pointer is over #menu. */
export function hoverPage(): string {
  return page(
    "Menu",
    `<style>#menu{display:inline-block;padding:12px;background:#eee}#submenu{display:none}</style>
<div id="menu">Sections<div id="submenu">${HOVER_TEXT}</div></div>
<script>
  var menu = document.getElementById("menu");
  var submenu = document.getElementById("submenu");
  menu.addEventListener("mouseenter", function () { submenu.style.display = "block"; });
  menu.addEventListener("mouseleave", function () { submenu.style.display = "none"; });
</script>`,
  );
}

/** An input#box; pressing Enter in it shows its value in #entered. */
export function keysPage(): string {
  return page(
    "Press Enter",
    `<input id="box" autocomplete="off">
<p id="entered" hidden></p>
<script>
  document.getElementById("box").addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var entered = document.getElementById("entered");
    entered.textContent = event.target.value;
    entered.hidden = false;
  });
</script>`,
  );
}

function challengeWall(): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head><title>${BOTWALL_TITLE}</title><meta name="robots" content="noindex,nofollow"></head>
<body>
  <h1>fixture.test</h1>
  <h2 id="challenge-running">Checking if the site connection is secure</h2>
  <noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript>
  <script>
    // Proves JavaScript and cookies work, then comes back for the real page.
    setTimeout(function () {
      document.cookie = "${CHALLENGE_COOKIE}; path=/; max-age=3600";
      location.reload();
    }, 150);
  </script>
</body>
</html>`;
}

function challengeArticle(): string {
  return layout({
    title: "Otters return to the estuary",
    body: `<main><article><h1>Otters return to the estuary</h1>
  <p>${CHALLENGE_ARTICLE_TEXT}</p>
  <p>Twenty years ago the river was too polluted for fish, let alone the animals that eat them. A clean-up
    that began with a single sewage works has since reached every town upstream, and the otters followed
    the fish back down.</p>
  <p>The survey team plans to repeat the count each autumn and will publish its methods so that
    neighbouring counties can compare their own figures.</p></article></main>`,
  });
}

/**
 * A Cloudflare-like JavaScript challenge: without CHALLENGE_COOKIE a 403
 * interstitial whose script sets the cookie and reloads; with it the article.
 */
export function jsChallenge(request: Request): Response {
  const cookies = (request.headers.get("cookie") ?? "").split(/;\s*/);
  const passed = cookies.includes(CHALLENGE_COOKIE);
  return new Response(passed ? challengeArticle() : challengeWall(), {
    status: passed ? 200 : 403,
    headers: { "content-type": "text/html; charset=utf-8", ...(passed ? {} : BOTWALL_HEADERS) },
  });
}

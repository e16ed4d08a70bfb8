import { layout } from "./layout.ts";

/**
 * Pages that test what escalation returns: a page whose browser render fails, one whose
 * script throws most of the text away, and ordinary articles that merely load a bot-detection
 * vendor's script (as a large share of real sites do) and must not count as walls.
 */

/** Text of the plain HTML of /esc/once and /esc/shrinks, which a browser never improves on. */
export const PLAIN_ESCALATION_TEXT =
  "The ferry timetable changes on the first of May, when the summer crossings begin again.";
/** What /esc/shrinks leaves on the page once its script has run. */
export const SHRUNK_TEXT = "Signed out.";
/** A sentence of the articles that load bot-detection scripts. */
export const VENDOR_ARTICLE_TEXT =
  "The lifeboat crew was called out twice on Sunday, once to a yacht with a fouled propeller.";

/** Scripts real sites load on ordinary pages: PerimeterX, DataDome and Cloudflare's JS detections. */
export const VENDOR_SCRIPTS: Record<string, string> = {
  perimeterx: `<script src="https://client.px-cloud.net/PXa1b2c3d4/main.min.js" async></script>
<script>window._pxAppId = "PXa1b2c3d4";</script>`,
  datadome: `<script>window.ddjskey = "A1B2C3D4E5F6"; window.ddoptions = {};</script>
<script src="https://js.datadome.co/tags.js" async></script>`,
  cloudflare: `<script>(function(){var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/b/scripts/jsd/a1b2c3d4e5f6/main.js';document.head.appendChild(a);window.__CF$cv$params={r:'8a1b2c3d4e5f6789',t:'MTcwMDAwMDAwMA=='};})();</script>
<script defer src="https://static.cloudflareinsights.com/beacon.min.js" data-cf-beacon='{"token":"abc"}'></script>`,
};

/** Text with a little article but an empty app root: plain HTTP alone looks like an app shell. */
function shellWithText(script: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry timetable</title></head>
<body><main><h1>Ferry timetable</h1><p>${PLAIN_ESCALATION_TEXT}</p></main>
<div id="root"></div>
<script>${script}</script>
</body></html>`;
}

/** /esc/shrinks: its script replaces the page with a two-word notice. */
export function shrinkingPage(): string {
  return shellWithText(`document.body.innerHTML = '<div id="root"><p>${SHRUNK_TEXT}</p></div>';`);
}

/** /esc/once: the shell; the fixture site answers only the first request for each ?id with it. */
export function oncePage(): string {
  return shellWithText("");
}

/** /esc/vendor/<name>: an ordinary short article that loads a bot-detection vendor's script. */
export function vendorArticle(vendor: string): string {
  return layout({
    title: "Lifeboat called out twice",
    body: `<main><article><h1>Lifeboat called out twice</h1>
<p>${VENDOR_ARTICLE_TEXT}</p>
<p>The second call came in the evening, when a walker reported a dinghy drifting past the harbour
wall with nobody aboard. It turned out to have slipped its mooring, and the crew towed it back.</p>
<p>The station is holding an open day next month for anyone who would like to see the boat.</p>
</article></main>
${VENDOR_SCRIPTS[vendor] ?? ""}`,
  });
}

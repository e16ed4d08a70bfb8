/**
 * The pages of the render comparison (scripts/bench/render.ts): `/item/N?ms=D`, a single-page
 * app whose `#root` is empty until a timer, started at the load event, draws item N's own
 * sentence (itemText(N), as the fixture site's /app/item/N does) and a paragraph of filler D ms
 * later. Every N is a distinct URL with distinct content, so a tool that returns a page before
 * it is drawn, or another page's HTML, is caught by the check for itemText(N), which appears
 * nowhere in the page until it is drawn.
 *
 * With `origins`, each page also loads a small script (async, cacheable, as analytics and
 * CDN libraries are) from each of that many other origins, servers of their own on other
 * ports, as most real pages fetch from several.
 *
 * Served from its own Bun.serve on 127.0.0.1 by the process that starts it.
 */
import { itemText } from "../../test/helpers/site-pages/apps.ts";

/** Most a page may ask its timer to wait (?ms=), so a typo cannot hang a run. */
const MAX_DELAY_MS = 30_000;

const FILLER =
  "The estuary has two tides a day, and the town's life has followed them for centuries: boats leave " +
  "on the ebb, the market opens when the fishing fleet returns, and the mill turned its wheel while the " +
  "pond emptied. Local historians have collected letters, ledgers and photographs that show how closely " +
  "the working day was tied to the water.";

const reversed = (text: string) => [...text].reverse().join("");

/**
 * The HTML of item `n`, drawn `ms` after its load event. The script holds the sentence
 * reversed: as written, it would be in the page's text (and HTML) before anything was drawn.
 */
export function timerItemPage(n: number, ms: number, scripts: string[] = []): string {
  const tags = scripts.map((src) => `<script async src="${src}"></script>`).join("");
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chart ${n}</title>${tags}</head>
<body>
<div id="root"></div>
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var text = ${JSON.stringify(reversed(itemText(n)))}.split("").reverse().join("");
    document.getElementById("root").innerHTML = "<main><article><h1>Chart ${n}</h1><p>" + text +
      "</p><p>" + ${JSON.stringify(FILLER)} + "</p></article></main>";
  }, ${ms});
});
</script>
</body>
</html>`;
}

/** The URL of item `n` on the site at `site`, drawn `ms` after load. */
export const timerItemUrl = (site: string, n: number, ms: number) => `${site}/item/${n}?ms=${ms}`;

/** The item number of a timerItemUrl. */
export const itemOfUrl = (url: string) => Number(/\/item\/(\d+)/.exec(url)?.[1]);

/** A running comparison site. */
export interface RenderSite {
  url: string;
  /** Every host:port the pages load from, for SIPHON_SSRF_ALLOW. */
  hosts: string[];
  stop(): Promise<void>;
}

const LIBRARY = "window.loaded = (window.loaded || 0) + 1;";

/** Starts the site on a free loopback port, and `origins` script origins beside it. */
export function startRenderSite(origins = 0): RenderSite {
  const libraries = Array.from({ length: origins }, () =>
    Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(LIBRARY, {
          headers: { "content-type": "text/javascript", "cache-control": "public, max-age=86400" },
        }),
    }),
  );
  const scripts = libraries.map((library) => `http://127.0.0.1:${library.port}/lib.js`);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      const match = /^\/item\/(\d+)$/.exec(url.pathname);
      if (!match) return new Response("not found", { status: 404 });
      const ms = Math.min(Math.max(0, Number(url.searchParams.get("ms") ?? 150) || 0), MAX_DELAY_MS);
      return new Response(timerItemPage(Number(match[1]), ms, scripts), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    hosts: [server, ...libraries].map((s) => `127.0.0.1:${s.port}`),
    stop: async () => {
      await Promise.all([server, ...libraries].map((s) => s.stop(true)));
    },
  };
}

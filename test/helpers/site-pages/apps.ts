import { esc } from "./layout.ts";

/**
 * Client-rendered apps that behave like real ones: content drawn by a timer, after one or
 * more API round trips, in several parts with loading placeholders, beside requests that
 * never end (EventSource, long polling, beacons), a clock that changes the DOM forever, and
 * an app that never draws anything. Served under /app/... with their JSON APIs under /api/...
 */

/** Most an /api/... answer may be delayed (?delay=), so a typo cannot hang the suite. */
const MAX_DELAY_MS = 30_000;
/** How long /api/poll holds a long-poll request before answering "nothing new". */
export const LONG_POLL_MS = 25_000;

/** The sentence /app/timer draws, ms after load. */
export const timerText = (ms: number) =>
  `The tide table was drawn by a timer ${ms} ms after the page loaded.`;
/** The sentence /app/api draws once /api/story answers after `delay` ms. */
export const apiText = (delay: number) =>
  `The harbour master's report arrived from the API after ${delay} ms.`;
/** One sentence per part of /app/parts, in the order they arrive. */
export const PART_TEXTS = [
  "Part one: the mill pond fills through a sluice gate as the tide comes in.",
  "Part two: at high water the gate closes and the pond is held until the tide falls.",
  "Part three: readers' comments arrived last, after the deferred widget woke up.",
] as const;
/** Static article text of /app/clock, which also carries a ticking clock. */
export const CLOCK_TEXT = "The station clock in the square has kept time since 1887, give or take a minute.";
/** What /app/live draws after its first API answer, beside its never-ending requests. */
export const LIVE_TEXT = "Live scores: Harbour Rovers 2, Mill Lane United 1, second half under way.";
/** The sentence /app/item/N draws for item N. */
export const itemText = (n: number) =>
  `Catalogue entry ${n}: a hand-drawn chart of the estuary, sheet ${n} of the set.`;

/** Filler that makes a drawn article read like one (and pass "enough text" checks). */
const FILLER =
  "The estuary has two tides a day, and the town's life has followed them for centuries: boats leave " +
  "on the ebb, the market opens when the fishing fleet returns, and the mill turned its wheel while the " +
  "pond emptied. Local historians have collected letters, ledgers and photographs that show how closely " +
  "the working day was tied to the water, and the museum by the quay keeps a copy of every tide table " +
  "printed since the first one in 1846.";

function appShell(title: string, root: string, script: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>.spinner{width:24px;height:24px;border:3px solid #ccc;border-top-color:#333;border-radius:50%}</style></head>
<body>
<div id="root">${root}</div>
<script>
function draw(el, title, paragraphs) {
  el.innerHTML = "<main><article><h1>" + title + "</h1>" +
    paragraphs.map(function (p) { return "<p>" + p + "</p>"; }).join("") + "</article></main>";
}
${script}
</script>
</body>
</html>`;
}

/** /app/timer?ms=N: an empty #root a plain timer fills N ms after load. */
function timerApp(ms: number): string {
  return appShell(
    "Tide tables",
    "",
    `window.addEventListener("load", function () {
  setTimeout(function () {
    draw(document.getElementById("root"), "Tide tables", [${JSON.stringify(timerText(ms))}, ${JSON.stringify(FILLER)}]);
  }, ${ms});
});`,
  );
}

/** What the Japanese variant of /app/api shows while it waits: words only, no spinner. */
export const JAPANESE_LOADING = "読み込み中…";

/**
 * /app/api?delay=N: a spinner until /api/story (answering after N ms) returns the article;
 * with &lang=ja, only the words 読み込み中… (no spinner, no empty root) while it waits.
 */
function apiApp(delay: number, lang: string | null): string {
  return appShell(
    "Harbour report",
    lang === "ja"
      ? `<p class="note">${JAPANESE_LOADING}</p>`
      : `<div class="spinner" role="progressbar" aria-busy="true"></div><p>Loading…</p>`,
    `fetch("/api/story?delay=${delay}").then(function (r) { return r.json(); }).then(function (story) {
  draw(document.getElementById("root"), story.title, story.paragraphs);
});`,
  );
}

/**
 * /app/parts: a heading at once, part one after an API call, part two after a second call the
 * first one triggers, part three from a deferred widget (a timer) while "Loading comments…" shows.
 */
function partsApp(): string {
  return appShell(
    "The tide mill",
    `<main><h1>The tide mill</h1><section id="p1"><p>Loading…</p></section><section id="p2"></section><section id="p3"></section></main>`,
    `function part(n) {
  return fetch("/api/part/" + n + "?delay=200").then(function (r) { return r.json(); });
}
part(1).then(function (one) {
  document.getElementById("p1").innerHTML = "<p>" + one.text + "</p><p>" + one.more + "</p>";
  document.getElementById("p2").innerHTML = '<div class="spinner"></div><p>Loading…</p>';
  return part(2);
}).then(function (two) {
  document.getElementById("p2").innerHTML = "<p>" + two.text + "</p>";
  document.getElementById("p3").innerHTML = '<p class="loading">Loading comments…</p>';
  setTimeout(function () {
    document.getElementById("p3").innerHTML = "<h2>Comments</h2><p>" + ${JSON.stringify(PART_TEXTS[2])} + "</p>";
  }, 400);
});`,
  );
}

/** /app/clock: a static article and a clock that changes the DOM every 100 ms, forever. */
function clockApp(): string {
  return appShell(
    "The station clock",
    `<main><article><h1>The station clock</h1><p>${esc(CLOCK_TEXT)}</p><p>${esc(FILLER)}</p>
<p>It is now <time id="clock">00:00:00.0</time>.</p></article></main>`,
    `setInterval(function () {
  var d = new Date();
  document.getElementById("clock").textContent = d.toISOString().slice(11, 21);
}, 100);`,
  );
}

/**
 * /app/live: draws its scores after one API call, and meanwhile holds an EventSource stream, a
 * long-poll request and a beacon, none of which ever tells the page it is done.
 */
function liveApp(): string {
  return appShell(
    "Live scores",
    "",
    `new EventSource("/api/events");
fetch("/api/poll").catch(function () {});
navigator.sendBeacon("/api/beacon", "loaded");
fetch("/api/story?delay=150&text=live").then(function (r) { return r.json(); }).then(function (story) {
  draw(document.getElementById("root"), "Live scores", story.paragraphs);
});`,
  );
}

/** /app/shell: an app whose data call fails, so #root stays empty for good. */
function shellApp(): string {
  return appShell(
    "Dashboard",
    "",
    `fetch("/api/broken").then(function (r) { if (!r.ok) throw new Error("no data"); return r.json(); })
  .then(function (data) { draw(document.getElementById("root"), "Dashboard", data.paragraphs); })
  .catch(function () {});`,
  );
}

/** Paragraphs of /app/big: a page of about 3 MB, with a script, to keep readiness honest on huge pages. */
export const BIG_PARAGRAPHS = 6_000;
/** The last paragraph of /app/big. */
export const BIG_LAST_TEXT = `Paragraph ${BIG_PARAGRAPHS}: the end of the harbour records.`;

/** /app/big: a very long static article whose script adds a footer note after load. */
function bigApp(): string {
  const paragraphs: string[] = [];
  for (let i = 1; i < BIG_PARAGRAPHS; i++) paragraphs.push(`<p>Paragraph ${i}: ${FILLER}</p>`);
  paragraphs.push(`<p>${BIG_LAST_TEXT}</p>`);
  return appShell(
    "Harbour records",
    `<main><article><h1>Harbour records</h1>${paragraphs.join("")}</article></main>`,
    `setTimeout(function () { var p = document.createElement("p"); p.id = "note"; p.textContent = "Records end."; document.querySelector("main").appendChild(p); }, 50);`,
  );
}

/** /app/item/N?delay=D: one of many distinct app pages (benchmarks), drawn after /api/item/N. */
function itemApp(n: number, delay: number): string {
  return appShell(
    `Chart ${n}`,
    `<div class="spinner" aria-busy="true"></div>`,
    `fetch("/api/item/${n}?delay=${delay}").then(function (r) { return r.json(); }).then(function (item) {
  draw(document.getElementById("root"), item.title, item.paragraphs);
});`,
  );
}

function delayOf(url: URL, fallback: number): number {
  const value = Number(url.searchParams.get("delay") ?? url.searchParams.get("ms") ?? fallback);
  return Math.min(Number.isFinite(value) && value >= 0 ? value : fallback, MAX_DELAY_MS);
}

function htmlResponse(body: string): Response {
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
}

async function later(ms: number, body: unknown): Promise<Response> {
  await Bun.sleep(ms);
  return Response.json(body);
}

/** An EventSource stream that sends a comment every second and never ends (until the client goes). */
function eventStream(request: Request): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(": connected\n\n"));
      timer = setInterval(() => {
        try {
          controller.enqueue(new TextEncoder().encode(": still here\n\n"));
        } catch {
          clearInterval(timer);
        }
      }, 1000);
      request.signal.addEventListener("abort", () => clearInterval(timer));
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Answers /app/... and /api/... paths, or undefined for any other path. */
export function appRoute(request: Request, url: URL): Response | Promise<Response> | undefined {
  const path = url.pathname;
  const item = /^\/(app|api)\/item\/(\d+)$/.exec(path);
  if (item) {
    const n = Number(item[2]);
    if (item[1] === "app") return htmlResponse(itemApp(n, delayOf(url, 0)));
    return later(delayOf(url, 0), { title: `Chart ${n}`, paragraphs: [itemText(n), FILLER] });
  }
  const part = /^\/api\/part\/([123])$/.exec(path);
  if (part) {
    const n = Number(part[1]);
    return later(delayOf(url, 0), { text: PART_TEXTS[n - 1], more: FILLER });
  }
  switch (path) {
    case "/app/timer":
      return htmlResponse(timerApp(delayOf(url, 150)));
    case "/app/api":
      return htmlResponse(apiApp(delayOf(url, 300), url.searchParams.get("lang")));
    case "/app/parts":
      return htmlResponse(partsApp());
    case "/app/clock":
      return htmlResponse(clockApp());
    case "/app/live":
      return htmlResponse(liveApp());
    case "/app/shell":
      return htmlResponse(shellApp());
    case "/app/big":
      return htmlResponse(bigApp());
    case "/api/story": {
      const delay = delayOf(url, 0);
      const text = url.searchParams.get("text") === "live" ? LIVE_TEXT : apiText(delay);
      return later(delay, { title: "Harbour report", paragraphs: [text, FILLER] });
    }
    case "/api/events":
      return eventStream(request);
    case "/api/poll":
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(Response.json({ events: [] })), LONG_POLL_MS);
        request.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve(new Response(null, { status: 499 }));
        });
      });
    case "/api/beacon":
      return new Response(null, { status: 204 });
    case "/api/broken":
      return Response.json({ error: "upstream unavailable" }, { status: 500 });
    default:
      return undefined;
  }
}

import { describe, expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

test("images are absolute, deduplicated, typed, without data: URIs or tracking pixels", () => {
  const html = `<html><head><base href="https://cdn.example/assets/"></head><body><article>
    <p>Photo essay about the harbour at dawn.</p>
    <img src="a.jpg" alt="Harbour" title="Dawn" width="800" height="600">
    <img src="a.jpg" alt="Harbour again">
    <img src="data:image/png;base64,iVBOR" alt="inline">
    <img src="https://track.example/p.gif" width="1" height="1">
    <img data-src="/lazy.jpg" src="data:image/gif;base64,R0l" alt="Lazy">
  </article></body></html>`;
  const { images } = extractHtml(html, "https://site.example/post", {
    format: "markdown",
    onlyMainContent: false,
    images: true,
  });
  expect(images).toEqual([
    { src: "https://cdn.example/assets/a.jpg", alt: "Harbour", title: "Dawn", width: 800, height: 600 },
    { src: "https://cdn.example/lazy.jpg", alt: "Lazy", title: null, width: null, height: null },
  ]);
});

test("no images field unless asked", () => {
  const { images } = extractHtml("<body><img src='/a.jpg'></body>", "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(images).toBeUndefined();
});

test("a lazy-loaded picture shows its real source, not the loader's placeholder", () => {
  const html = `<html><body><article><h1>Lazy pictures</h1>
    <p>A photo essay about the harbour at dawn, with fishing boats coming in and gulls over them.</p>
    <img src="/img/placeholder.gif" data-lazy-src="/img/boats.jpg" alt="Boats">
    <img src="/img/lazy-load.svg" data-src="/img/gulls.jpg" alt="Gulls">
    <img data-srcset="/img/quay-400.jpg 400w, /img/quay-1200.jpg 1200w, /img/quay-800.jpg 800w" alt="Quay">
    <img srcset="/img/net-1x.jpg 1x, /img/net-2x.jpg 2x" alt="Net">
    <img src="/img/dawn.jpg" data-src="/img/dawn-large.jpg" alt="Dawn">
    <picture><source data-srcset="/img/crane-250.png 1w" srcset=""><img class="lazyload" src="/misc/placeholder.svg" data-src="" alt="Crane"></picture>
    <p>The last boats came in by seven, and the market opened soon after on the quay itself.</p>
  </article></body></html>`;
  const { content, images } = extractHtml(html, "https://site.example/harbour", {
    format: "markdown",
    onlyMainContent: true,
    images: true,
  });
  // A real-looking src stays: data-src may be another size, not a stand-in.
  expect(images?.map((i) => i.src)).toEqual([
    "https://site.example/img/boats.jpg",
    "https://site.example/img/gulls.jpg",
    "https://site.example/img/quay-1200.jpg",
    "https://site.example/img/net-2x.jpg",
    "https://site.example/img/dawn.jpg",
    "https://site.example/img/crane-250.png",
  ]);
  expect(content).toContain("![Quay](https://site.example/img/quay-1200.jpg)");
  expect(content).not.toContain("placeholder.gif");
});

test("a src a template filled with a whole srcset shows the srcset's widest picture, as a browser would", () => {
  const list = (size: string) =>
    [500, 750, 1000].map((w) => `https://cdn.example/stencil/${w}w/tee-${size}.jpg?c=1 ${w * 2}w`).join(", ");
  const html = `<html><body><article><h1>Staple tee</h1>
    <p>A heavyweight cotton tee with a relaxed fit, a ribbed neck and a straight hem, made to last.</p>
    <img src="${list("front")}" srcset="${list("front-hd")}" alt="Tee front">
    <img src="${list("back")}" alt="Tee back">
    <img src="/img/tee photo.jpg" alt="Tee side">
    <p>Washed for softness before it is cut, so it keeps its shape and size after many washes.</p>
  </article></body></html>`;
  const { content, images } = extractHtml(html, "https://shop.example/tee", {
    format: "markdown",
    onlyMainContent: true,
    images: true,
  });
  expect(images?.map((i) => i.src)).toEqual([
    "https://cdn.example/stencil/1000w/tee-front-hd.jpg?c=1",
    "https://cdn.example/stencil/1000w/tee-back.jpg?c=1",
    "https://shop.example/img/tee%20photo.jpg",
  ]);
  expect(content).toContain("![Tee front](https://cdn.example/stencil/1000w/tee-front-hd.jpg?c=1)");
  expect(content).not.toContain("2000w");
});

test("a pixel-sized image is left out of the markdown; Next.js's 0-by-0 image sized by its class stays", () => {
  const html = `<html><body><article><h1>Jobs</h1>
    <p>Hiring this week at the harbour and at the mill across the river, in several teams.</p>
    <table><tr><td>1.</td><td><img src="s.gif" height="1" width="14"></td><td>Story</td></tr>
    <tr><td>2.</td><td><img src="s.gif" height="10" width="0"></td><td>Other</td></tr></table>
    <p><img src="/hero.png" alt="Spring sale" width="0" height="0" class="md:w-full" data-nimg="1"></p>
    <p><img src="https://track.example/task.php" width="1" height="1"></p>
  </article></body></html>`;
  const { content, images } = extractHtml(html, "https://site.example/jobs", {
    format: "markdown",
    onlyMainContent: false,
    images: true,
  });
  expect(content).not.toContain("s.gif");
  expect(content).not.toContain("task.php");
  expect(content).toContain("![Spring sale](https://site.example/hero.png)");
  expect(images?.map((i) => i.src)).toEqual(["https://site.example/hero.png"]);
});

test("an SVG icon without a description beside words is left out; a logo alone in its cell, or described, stays", () => {
  const html = `<html><body><article><h1>Feeder</h1>
    <p>The feeder takes photos of every visitor and sends them to your phone within seconds of landing.</p>
    <div class="feature"><img src="/icons/hd.svg"><p>HD camera</p></div>
    <ul><li><img src="/icons/check.svg" alt=""> Free returns</li></ul>
    <table><tr><th><img src="/logos/netsuite.svg"></th><th><img src="/logos/hubspot.svg"></th></tr><tr><td>Yes</td><td>No</td></tr></table>
    <p><img src="/icons/award.svg" alt="CES award"> Winner at CES</p>
    <p><img src="/photos/bird.png"> A robin at dawn</p>
  </article></body></html>`;
  const { content } = extractHtml(html, "https://shop.example/feeder", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).not.toContain("hd.svg");
  expect(content).not.toContain("check.svg");
  expect(content).toContain("HD camera");
  expect(content).toContain("netsuite.svg");
  expect(content).toContain("![CES award](https://shop.example/icons/award.svg)");
  expect(content).toContain("bird.png");
});

describe("people's pictures (avatars)", () => {
  const extract = (body: string, onlyMainContent: boolean) =>
    extractHtml(`<html><body>${body}</body></html>`, "https://forum.example/threads/ports.1/", {
      format: "markdown",
      onlyMainContent,
      images: true,
    });
  const post = (member: string, avatar: string, text: string) =>
    `<article class="message"><div class="message-user"><a href="/members/${member}.9/" class="avatar"><img src="${avatar}" alt="${member}" width="96" height="96"></a>
      <h4><a href="/members/${member}.9/">${member}</a></h4></div><div class="message-content"><p>${text}</p></div></article>`;
  const THREAD =
    `<main><h1>What are these two ports for?</h1>` +
    post(
      "djberta",
      "https://forum.example/data/avatars/m/2/2708.jpg?1713",
      "One is on the outside right below the power supply, and the other is on the inside of the bottom panel, where the intake fans would go. Does anyone know what they are for?",
    ) +
    post(
      "mickeyf",
      "https://secure.gravatar.com/avatar/4ee10b73?s=96&d=mm",
      "The rear one takes the cable of the lighting hub, so that the fans can be driven from outside the case without opening it; the bottom one holds a second fan bracket.",
    ) +
    `</main>`;

  test("a member's avatar goes, by its folder, Gravatar or its link's class; the member's name stays", () => {
    for (const onlyMainContent of [true, false]) {
      const { content, images } = extract(THREAD, onlyMainContent);
      expect(content).not.toContain("avatars/m/2/2708.jpg");
      expect(content).not.toContain("gravatar.com");
      // The profile link held only the picture: it goes with it, no `[](…)` left.
      expect(content).not.toContain("[](");
      expect(content).toContain("[djberta](https://forum.example/members/djberta.9/)");
      expect(content).toContain("[mickeyf](https://forum.example/members/mickeyf.9/)");
      expect(content).toContain("lighting hub");
      expect(images ?? []).toEqual([]);
    }
  });

  test("a byline keeps its author's name once the headshot beside it goes", () => {
    const html = `<main><article><h1>Cable or streaming: what a household pays in 2025</h1>
      <div class="byline"><span class="author-photo"><img src="https://cdn.example/staff/logan-96x96.jpg" alt=""></span> By <a href="/author/logan-jones">Logan Jones</a></div>
      <p>A household that streams four services pays about as much as one on a basic cable plan, and it keeps the freedom to cancel any month, which the cable contract does not give.</p>
      <p>The difference grows with sports: the leagues' own services cost more each year, while the cable sports tier has held its price since the last contract round.</p></article></main>`;
    for (const onlyMainContent of [true, false]) {
      const { content } = extract(html, onlyMainContent);
      expect(content).not.toContain("logan-96x96.jpg");
      expect(content).toContain("Logan Jones");
    }
  });

  test("a listing's bylines keep their authors once the Gravatar beside each goes", () => {
    // Taken while cleaning, the picture left each byline a lone link, and the bylines went with it.
    const card = (title: string, author: string) =>
      `<article class="post-card"><h2><a href="/blog/${title.replaceAll(" ", "-")}">${title}</a></h2>
      <div class="meta"><a href="/author/${author}"><img src="https://secure.gravatar.com/avatar/4ee10b7357f4?s=28&d=mm" alt="${author}'s Author Page" width="28" height="28"></a> <span>By <a href="/author/${author}">${author}</a></span></div>
      <p>${title} explained: what it costs, what it includes and who it suits, in a few paragraphs for readers comparing plans this year.</p></article>`;
    const html = `<main><h1>News</h1>${card("Cable prices rise", "Logan Jones")}${card("Streaming bundles compared", "Mike Strayer")}${card("Sports tiers explained", "Alex Vejar")}${card("Fiber reaches rural towns", "Logan Jones")}</main>`;
    for (const onlyMainContent of [true, false]) {
      const { content } = extract(html, onlyMainContent);
      expect(content.match(/By \[/g)?.length).toBe(4);
      expect(content).not.toContain("gravatar.com");
    }
  });

  test("a picture that only shares the word stays: a film's poster named avatar", () => {
    const html = `<main><article><h1>Avatar, fifteen years on</h1><img src="https://cdn.example/films/avatar-poster.jpg" alt="Avatar poster">
      <p>The film's blue moon and its floating mountains were drawn frame by frame by a team of hundreds, and the studio still shows the poster in its lobby.</p>
      <p>Its sequels kept the look and the length, and the third is due in December, with the same cast and a new tribe by the sea.</p></article></main>`;
    for (const onlyMainContent of [true, false])
      expect(extract(html, onlyMainContent).content).toContain("avatar-poster.jpg");
  });
});

test("a lazy loader's image shows its real source; a stand-in with none to show goes", () => {
  const html = `<html><body><article><h1>Protests grow</h1>
    <p>Thousands marched through the city again on Sunday, the twenty-third weekend of protests in a row.</p>
    <p><img class="lazy" src="https://cdn.example/img/page/preloaderbig.gif" data-src="https://cdn.example/img/march.jpg" alt="Marchers"></p>
    <p><img class="lazy grow" src="/Content/images/blank.png" alt="Treadmill icon"></p>
    <p><img src="https://cdn.example/loader/ajax-loader.gif" alt="Loading..."></p>
    <p><img src="https://cdn.example/photos/crowd.jpg" data-src="https://cdn.example/photos/crowd-large.jpg" alt="Crowd"></p>
    <p>The police said the day passed without arrests, and the organisers promised to return next week.</p>
  </article></body></html>`;
  const md = extractHtml(html, "https://news.example/protests", {
    format: "markdown",
    onlyMainContent: true,
    images: false,
  }).content;
  expect(md).toContain("![Marchers](https://cdn.example/img/march.jpg)");
  expect(md).not.toContain("preloaderbig");
  expect(md).not.toContain("blank.png");
  expect(md).not.toContain("Treadmill icon");
  expect(md).not.toContain("ajax-loader");
  // Not classed for a loader, a real src stays what the page shows.
  expect(md).toContain("![Crowd](https://cdn.example/photos/crowd.jpg)");
  expect(md).toContain("without arrests");
});

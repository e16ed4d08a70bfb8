import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { extractHtml } from "./index.ts";
import type { Element } from "./nodes.ts";
import { keepPageContent } from "./page-content.ts";

/** An article of four paragraphs (the main content), with `before` and `after` around its <main>. */
function page(after: string, before = ""): string {
  const p = (n: number) =>
    `<p>Paragraph ${n} of the report on harbour tides, long enough to read as prose, with the gauges, the dates and the findings of the survey team.</p>`;
  return `<html><head><title>Harbour tides</title></head><body>${before}<main><article><h1>Harbour tides</h1>${[1, 2, 3, 4].map(p).join("")}</article></main>${after}</body></html>`;
}

const text = (html: string, onlyMainContent = false): string =>
  extractHtml(html, "https://tides.example/report", { format: "markdown", onlyMainContent, images: false })
    .content;

test("prose and headed sections outside the main content stay; a list of links does not", () => {
  const html =
    page(`<div class="block-a"><h2>Methods</h2><p>Gauges were calibrated against a benchmark every spring.</p></div>
    <div class="block-b"><p>The survey ran for ten years across forty harbours and was paid for by the port authorities of the coast.</p></div>
    <div class="block-c"><ul><li><a href="/a">Tides</a></li><li><a href="/b">Storms</a></li><li><a href="/c">Harbours</a></li></ul></div>`);
  const md = text(html);
  expect(md).toContain("## Methods");
  expect(md).toContain("Gauges were calibrated against a benchmark every spring.");
  expect(md).toContain("The survey ran for ten years");
  expect(md).not.toContain("Storms");
  // Main content mode keeps neither: they are outside the article.
  expect(text(html, true)).not.toContain("Methods");
});

test("labels and counts on their own go; a list of facts and a data table stay", () => {
  const html = page(`<div class="stats"><div>Posts: 3,760</div><div>Views: 7,909</div></div>
    <ul class="facts"><li>Forty harbours surveyed</li><li>Ten years of readings</li><li>Two storms a winter</li><li>One gauge in every harbour</li><li>Readings every hour</li></ul>
    <table><tr><th>Harbour</th><th>Rise</th></tr><tr><td>North</td><td>3 mm</td></tr><tr><td>South</td><td>2 mm</td></tr></table>`);
  const md = text(html);
  expect(md).not.toContain("3,760");
  expect(md).not.toContain("7,909");
  expect(md).toContain("Ten years of readings");
  expect(md).toContain("| North | 3 mm |");
});

const teaser = (n: number) =>
  `<div class="card"><h3><a href="/story/${n}">Story ${n} about the coast</a></h3><a href="/story/${n}"><p>A summary of story ${n}, with enough words to be a teaser of its own on the page.</p></a></div>`;

test("a rail of teasers beside an article goes with its heading; a linked headline goes with it", () => {
  const md = text(
    page(`<section class="more"><h2>More from the coast</h2>${[1, 2, 3, 4].map(teaser).join("")}</section>`),
  );
  expect(md).not.toContain("Story 2 about the coast");
  expect(md).not.toContain("More from the coast");
  expect(md).toContain("Paragraph 4 of the report");
});

test("teasers beside a short introduction are the page's own listing and stay", () => {
  const html = `<html><head><title>Stories</title></head><body><main><div class="intro"><h1>Stories</h1><p>Every story from the coast desk, newest first, with the reports of the survey.</p></div>
    <div class="list">${[1, 2, 3, 4, 5, 6].map(teaser).join("")}</div></main></body></html>`;
  const md = text(html);
  expect(md).toContain("Story 1 about the coast");
  expect(md).toContain("Story 6 about the coast");
});

test("a block repeated outside the main content is kept once, where the main content has it", () => {
  const copy =
    "Paragraph 2 of the report on harbour tides, long enough to read as prose, with the gauges, the dates and the findings of the survey team.";
  const md = text(page("", `<div class="highlights"><p>${copy}</p></div>`));
  expect(md.split(copy).length).toBe(2);
  expect(md.indexOf(copy)).toBeGreaterThan(md.indexOf("Paragraph 1"));
});

test("a byline between the title and the text stays; the same line after the text goes", () => {
  const html = `<html><head><title>Harbour tides</title></head><body><main>
    <header class="story-head"><h1>Harbour tides</h1><p class="line">By Ana Reyes · 2 March 2024</p></header>
    <div class="story-text">${[1, 2, 3, 4].map((n) => `<p>Paragraph ${n} of the report on harbour tides, long enough to read as prose, with the gauges and the dates.</p>`).join("")}</div>
    <p class="line">Filed under harbours · 2 March 2024</p></main></body></html>`;
  const md = text(html);
  expect(md).toContain("By Ana Reyes");
  expect(md).not.toContain("Filed under");
});

test("a picture beside the text stays; a linked one (a logo, an ad) goes", () => {
  const html = page(
    `<img src="/photo.jpg" alt="The north harbour"><a href="/shop"><img src="/ad.jpg" alt="Buy boats"></a>`,
  )
    .replace("<article>", '<article><div class="body">')
    .replace(
      "</article>",
      '</div><figure><img src="/gauge.jpg" alt="A gauge"><figcaption>The gauge at the north pier.</figcaption></figure></article>',
    );
  const md = text(html);
  expect(md).toContain("![A gauge](https://tides.example/gauge.jpg)");
  expect(md).toContain("The gauge at the north pier.");
  expect(md).not.toContain("Buy boats");
});

/** keepPageContent on `html`, the element with id "main" as the main content; the text left in the body. */
function kept(html: string, article = false): string {
  const $ = loadHtml(`<html><body>${html}</body></html>`);
  const body = $("body")[0] as Element;
  keepPageContent(body, [$("#main")[0] as Element], article);
  return $(body).text().replace(/\s+/g, " ");
}

const prose = (n: number) =>
  `<p>Paragraph ${n} of the introduction, long enough to be prose, about the harbours of the coast and their tides.</p>`;

test("teasers that outweigh the main content's prose are its listing; fewer are a rail; one alone goes", () => {
  const intro = `<div id="main">${prose(1)}</div>`;
  expect(kept(`${intro}<div class="list">${[1, 2, 3, 4, 5, 6, 7, 8].map(teaser).join("")}</div>`)).toContain(
    "Story 8 about the coast",
  );
  const article = `<div id="main">${[1, 2, 3, 4, 5, 6].map(prose).join("")}</div>`;
  expect(kept(`${article}<div class="list">${[1, 2, 3, 4].map(teaser).join("")}</div>`)).not.toContain(
    "Story 4",
  );
  const single = kept(`${article}<div class="next">${teaser(9)}</div>`);
  expect(single).not.toContain("Story 9");
  expect(single).not.toContain("summary of story 9");
  // However little prose the main content has.
  expect(kept(`<div id="main"><h1>Tides</h1></div><div class="next">${teaser(9)}</div>`)).not.toContain(
    "Story 9",
  );
});

test("on a page that says it is an article, teasers beside it are other stories however many", () => {
  const story = `<div id="main">${[1, 2, 3].map(prose).join("")}</div>`;
  const rails = [1, 2, 3].map(
    (r) =>
      `<section><h3>Section ${r}</h3>${[1, 2, 3, 4, 5].map((n) => teaser(r * 10 + n)).join("")}</section>`,
  );
  const html = `${story}<div class="rails">${rails.join("")}</div>`;
  // Read as a listing by their weight alone; gone once the page says it is an article.
  expect(kept(html)).toContain("Story 35 about the coast");
  const out = kept(html, true);
  expect(out).not.toContain("Story 35");
  expect(out).not.toContain("Section 2");
  expect(out).toContain("Paragraph 3 of the introduction");
  // The page's own posts right after it stay.
  const post = (n: number) =>
    teaser(n)
      .replace('<div class="card">', "<article>")
      .replace(/<\/div>$/, "</article>");
  expect(kept(`${story}<div class="loop">${[1, 2, 3, 4].map(post).join("")}</div>`, true)).toContain(
    "Story 4 about the coast",
  );
});

test("extraction reads a news story's schema: its rails go in the default mode", () => {
  const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Harbour tides"}</script>`;
  const rails = [1, 2, 3]
    .map(
      (r) =>
        `<section><h3>Section ${r}</h3>${[1, 2, 3, 4, 5].map((n) => teaser(r * 10 + n)).join("")}</section>`,
    )
    .join("");
  const html = page(`<div class="rails">${rails}</div>`).replace("</head>", `${ld}</head>`);
  const md = text(html);
  expect(md).toContain("Paragraph 4 of the report");
  expect(md).not.toContain("Story 35");
  expect(text(html.replace(ld, ""))).toContain("Story 35 about the coast");
});

test("posts right after the main content in its container are the page's own listing, however long its introduction", () => {
  const intro = `<div id="main">${[1, 2, 3, 4, 5, 6].map(prose).join("")}</div>`;
  const post = (n: number) =>
    teaser(n)
      .replace('<div class="card">', '<article class="excerpt">')
      .replace(/<\/div>$/, "</article>");
  const posts = `<div class="loop">${[1, 2, 3, 4].map(post).join("")}</div>`;
  expect(kept(`${intro}${posts}`)).toContain("Story 4 about the coast");
  // Not right after it (an aside between), or cards that are not posts: a rail, as before.
  expect(kept(`${intro}<aside><p>Tide tables for the coming week.</p></aside>${posts}`)).not.toContain(
    "Story 4",
  );
  expect(kept(`${intro}<div class="loop">${[1, 2, 3, 4].map(teaser).join("")}</div>`)).not.toContain(
    "Story 4",
  );
});

test("forms and customer reviews go wherever they sit outside the main content", () => {
  const out = kept(`<div id="main">${prose(1)}</div><div class="more">${prose(2)}
    <form><p>Get the newsletter about the tides every week of the year, free of charge, in your inbox.</p></form>
    <div class="product-reviews"><p>Great report, I read it twice and shared it with the whole harbour office last week.</p></div></div>`);
  expect(out).toContain("Paragraph 2");
  expect(out).not.toContain("newsletter");
  expect(out).not.toContain("Great report");
});

test("a linked heading outside the main content is a headline and goes; a plain one naming text stays", () => {
  const out = kept(
    `<div id="main">${prose(1)}</div><h2><a href="/next">Next: the storm season</a></h2>${prose(2)}<h2>Sources</h2>${prose(3)}`,
  );
  expect(out).not.toContain("storm season");
  expect(out).toContain("Sources");
  expect(out).toContain("Paragraph 3");
});

test("the main content stays whole, even where it looks like a menu", () => {
  const out = kept(
    `<ul id="main"><li><a href="/a">Tides</a></li><li><a href="/b">Storms</a></li></ul><ul><li><a href="/c">Harbours</a></li></ul>`,
  );
  expect(out).toContain("Storms");
  expect(out).not.toContain("Harbours");
});

test("links inside a block of prose are judged apart (breadcrumbs above a title); a copyright line goes", () => {
  const out =
    kept(`<div class="head"><ul><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li><li><a href="/blog/tides">Tides</a></li></ul>
    <h2>Why the tides change</h2><p>A short account of the moon, the sun and the shape of the coast, for readers new to the subject.</p></div>
    <div id="main">${prose(1)}</div>
    <div class="legal"><p>© 2025 Coastal Media Ltd. All rights reserved. No part of this site may be copied without written permission.</p><p>Copyright notice aside, the survey data may be reused with credit to the survey team.</p></div>`);
  expect(out).toContain("Why the tides change");
  expect(out).toContain("A short account of the moon");
  expect(out).not.toContain("Home");
  expect(out).not.toContain("All rights reserved");
  expect(out).toContain("may be reused with credit");
});

test("between the title and the text a line of words stays in any script; a bare count goes", () => {
  const html = `<html><head><title>港の潮位</title></head><body><main>
    <header class="story-head"><h1>港の潮位</h1><p class="line">文・山田花子 2024年3月2日</p><div class="votes">42</div></header>
    <div class="story-text">${[1, 2, 3, 4].map((n) => `<p>第${n}段落。港の潮位は十年間で上がり続け、観測所の記録はその変化をはっきりと示している。調査班は四十の港で潮位計を読み、衛星の観測と比べた。</p>`).join("")}</div>
  </main></body></html>`;
  const md = text(html);
  expect(md).toContain("文・山田花子");
  expect(md).not.toMatch(/^42$/m);
});

const card = (name: string, price: string) =>
  `<div class="tile"><a href="/sets/${name.length}"><img src="/img/${name.length}.jpg" alt="${name}"></a><div class="tile-body"><a href="/sets/${name.length}">${name}</a><div class="price">${price}</div></div></div>`;

test("a shop's grid of priced products beside its introduction stays: names and prices", () => {
  const intro = `<p>Our chess sets are made by hand from walnut, sheesham and boxwood, weighted and felted, and each comes with a board of the same wood and a box to keep them in.</p>`;
  const html = `<html><head><title>Chess sets</title></head><body><main><div class="grid">${card("Walnut Staunton Set", "$242.91")}${card("Sheesham Championship Set", "$196.19")}${card("Boxwood Travel Set", "$97.27")}${card("Ebony Tournament Set", "$412.00")}</div>
    <section class="about"><h2>About our chess sets</h2>${intro}${intro.replace("Our", "These")}</section></main></body></html>`;
  const md = text(html);
  expect(md).toContain("Walnut Staunton Set");
  expect(md).toContain("$242.91");
  expect(md).toContain("Ebony Tournament Set");
  expect(md).toContain("$412.00");
  expect(md).toContain("## About our chess sets");
  // Main content mode keeps the introduction it chose.
  expect(text(html, true)).not.toContain("$242.91");
});

test("the title shown twice (the page's header and the article's) is written once; a sentence saying what the dek says stays", () => {
  const prose = (n: number, s: string) =>
    Array.from(
      { length: n },
      (_, i) => `<p>${s} Sentence number ${i + 1} goes on a little longer to read as prose.</p>`,
    ).join("");
  const title = "Video Production 101: The Ultimate Guide for Beginners";
  const guide = `<html><head><title>${title} - Lemonlight</title></head><body>
    <main><header class="page-header"><h1 class="page-header-title">${title}</h1></header>
    <article><div class="pillar-header"><div class="pillar-title"><h1>${title}</h1><p>This guide is a resource for anyone interested in video production.</p></div></div>
    <div class="entry">${prose(8, "Video production is the term for the whole process of making a video.")}</div></article></main></body></html>`;
  for (const only of [true, false]) {
    const md = text(guide, only);
    expect(md.split(title)).toHaveLength(2);
    expect(md.startsWith(`# ${title}`)).toBe(true);
  }
  expect(text(guide)).toContain("This guide is a resource for anyone interested in video production.");
  // The dek above the story says what the story's first paragraph says: both are on the page.
  const dek = "The Portuguese boss had been out of work since being sacked in December 2018.";
  const story = `<html><head><title>Mourinho to replace Pochettino at Tottenham</title></head><body>
    <div class="headline"><h1>Mourinho to replace Pochettino at Tottenham</h1><h2>${dek}</h2></div>
    <main><article><p>${dek}</p>${prose(6, "Jose Mourinho has agreed a deal to become the club's manager.")}</article></main></body></html>`;
  for (const only of [true, false]) expect(text(story, only).split(dek)).toHaveLength(3);
});

/** The fastest of two runs of `work`, in milliseconds. */
function fastestOf(work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

// A hang guard: the default mode judges every block outside the main content, entering boxes
// level by level; a deep nest of boxes around a wide one stays a few walks of the page.
test("a deep nest of boxes around a wide block is judged in linear time", () => {
  const spans = "<span></span>".repeat(250_000);
  const time = (html: string) => fastestOf(() => expect(text(html)).toContain("Paragraph 4 of the report"));
  // The same boxes side by side: each read once however they are judged.
  const flat = time(page(`${"<div></div>".repeat(450)}${spans}<p>four words of text</p>`));
  for (const open of ["<div>", '<div role="button">']) {
    const nested = time(page(`${open.repeat(450)}${spans}<p>four words of text</p>${"</div>".repeat(450)}`));
    expect(nested / flat).toBeLessThan(2.5);
  }
}, 120_000);

// A hang guard: a heading outside the main content stays only if text follows it, and nested
// sections each headed so, with nothing left in them, each asked it of every section below.
test("nested sections whose headings head nothing are judged in linear time", () => {
  const ld = `<script type="application/ld+json">{"@type":"NewsArticle"}</script>`;
  const time = (open: string) => {
    const html = `<html><head>${ld}</head><body><main><h1>Rates held</h1><p>${"The bank held rates. ".repeat(20)}</p>
      ${open.repeat(450)}${"<span>word</span> ".repeat(100_000)}${"</section>".repeat(450)}<p>${"Markets barely moved. ".repeat(10)}</p></main></body></html>`;
    return fastestOf(() =>
      extractHtml(html, "https://news.example/rates", {
        format: "markdown",
        onlyMainContent: false,
        images: false,
      }),
    );
  };
  // Headed so, the sections took 5-8 s where the same sections without headings took under 1 s.
  expect(time("<section><h3>Comments</h3>") / time("<section>")).toBeLessThan(2.5);
}, 120_000);

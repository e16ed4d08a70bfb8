import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { extractHtml } from "./index.ts";
import { type Element, textOf } from "./nodes.ts";
import { dropRelatedRails } from "./related-rails.ts";

/** The body's text after dropRelatedRails. */
function railsDropped(body: string): string {
  const $ = loadHtml(`<html><body>${body}</body></html>`);
  const el = $("body")[0] as Element;
  dropRelatedRails(el);
  return textOf(el);
}

const STORY =
  "<p>A relaxed linen shirt, washed for softness, with a camp collar and a straight hem to wear untucked on warm evenings.</p>";

test("a rail a script fills goes whole: its heading, what it holds and its 'See all'", () => {
  const text = railsDropped(`<h1>Linen shirt</h1>${STORY}
    <div class="slot"><section><div><h2>Similar items</h2></div><div><span>Sponsored</span></div>
      <a href="/recs?item=1">See all</a></section></div>
    <div class="slot"><section><h2>Explore related items</h2><a href="/recs?item=2">See all</a></section></div>
    <h2>Item description</h2><p>Cotton and linen blend.</p>`);
  expect(text).toContain("A relaxed linen shirt");
  expect(text).toContain("Item descriptionCotton and linen blend.");
  for (const gone of ["Similar items", "Explore related", "See all", "Sponsored"])
    expect(text).not.toContain(gone);
});

test("a rail of linked cards goes up to the largest element that holds nothing else", () => {
  const card = (i: number) =>
    `<li><a href="/p/${i}"><img src="/i/${i}.jpg" alt="">Summer shirt ${i}</a></li>`;
  const text = railsDropped(`<main><h1>Linen shirt</h1>${STORY}
    <aside><div class="rail"><h2>Customers also bought</h2><ul>${[1, 2, 3, 4].map(card).join("")}</ul></div></aside>
    <h2>Reviews</h2><p>Fits well.</p></main>`);
  expect(text).not.toContain("Customers also bought");
  expect(text).not.toContain("Summer shirt");
  expect(text).toContain("A relaxed linen shirt");
  expect(text).toContain("ReviewsFits well.");
});

test("a rail laid out flat goes with the link-only blocks after its heading, and the text before it stays", () => {
  const text = railsDropped(`<article><h1>Spiced pear jam</h1>${STORY}<h3>You may also like:</h3>
    <div><a href="/pickles"><img src="/a.jpg" alt="Pickled sprouts"></a> <a href="/pie"><img src="/b.jpg" alt="Pie"></a></div>
    <p>Printed from the recipe box.</p></article>`);
  expect(text).not.toContain("You may also like");
  expect(text).toContain("A relaxed linen shirt");
  expect(text).toContain("Printed from the recipe box.");
});

test("a blog's flat list of related articles goes with its heading", () => {
  const links = ["Mobile UX best practices", "What is UX analytics?", "Top 8 analytics tools"]
    .map((t, i) => `<p><a href="/blog/${i}">${t}</a></p>`)
    .join("");
  const text = railsDropped(
    `<article><h1>UX audits</h1>${STORY}<h4>Related Articles:</h4>${links}<h2>Conclusion</h2><p>Audit often.</p></article>`,
  );
  expect(text).not.toContain("Related Articles");
  expect(text).not.toContain("analytics");
  expect(text).toContain("ConclusionAudit often.");
});

test("a news story's 'More:' or 'Read more' between its paragraphs goes with the headlines it lists", () => {
  const story = (title: string, i: number) =>
    `<ul><li><h4><a href="https://news.example/2019/10/${i}.html">${title}</a></h4></li></ul>`;
  const text = railsDropped(`<article><h1>Crash in Afghanistan</h1>${STORY}<h4>More:</h4>
    ${["Afghan politician sees talks as only hope", "Young people must be heard: envoy"].map(story).join("")}
    <p>It did not say where the crash happened.</p><h3>Read more</h3></article>`);
  expect(text).toContain("A relaxed linen shirt");
  expect(text).toContain("It did not say where the crash happened.");
  for (const gone of ["More:", "Afghan politician", "must be heard", "Read more"])
    expect(text).not.toContain(gone);
});

test("rails headed in other languages go like English ones, and so does a heading ending in an ellipsis", () => {
  const links = (n: number) =>
    `<ul>${[1, 2, 3].map((i) => `<li><a href="/noticias/${n}-${i}">Titular ${n}-${i} del día</a></li>`).join("")}</ul>`;
  const headings = [
    "Artículos relacionados",
    "Você pode gostar...",
    "Das könnte Sie auch interessieren",
    "À lire aussi :",
    "Leggi anche",
    "Читайте также",
    "You may also like…",
  ];
  const text = railsDropped(
    `<article><h1>Crónica</h1>${STORY}${headings.map((h, n) => `<h3>${h}</h3>${links(n)}`).join("")}</article>`,
  );
  expect(text).toContain("A relaxed linen shirt");
  for (const gone of [...headings, "Titular"]) expect(text).not.toContain(gone);
  // The phrase must be the whole heading.
  const kept = railsDropped(
    `<article>${STORY}<h3>Artículos relacionados con la pesca</h3>${links(9)}</article>`,
  );
  expect(kept).toContain("Titular 9-1");
});

test("a section headed 'More' or 'Related' that holds prose stays", () => {
  const prose =
    "<p>Each of the tools below reads the same configuration file, so settings made for one apply to all of them.</p>";
  const text = railsDropped(
    `<main><h1>Tools</h1>${STORY}<h2>More</h2>${prose}<h2>Related</h2>${prose}</main>`,
  );
  expect(text).toContain("MoreEach of the tools");
  expect(text).toContain("RelatedEach of the tools");
});

test("a short text before the rail's heading in the same block is not taken with the rail", () => {
  const text = railsDropped(`<div><p>Our shop ships linen worldwide.</p><h2>Related products</h2>
    <ul><li><a href="/a">Linen towel</a></li><li><a href="/b">Linen apron</a></li></ul></div>`);
  expect(text).toContain("Our shop ships linen worldwide.");
  expect(text).not.toContain("Related products");
  expect(text).not.toContain("Linen towel");
});

test("headings that only start like a rail, a page title, and sections of prose stay", () => {
  const list = `<ul><li><a href="/a">Linen towel</a></li><li><a href="/b">Linen apron</a></li></ul>`;
  const text = railsDropped(`<div><h1>Related products</h1>${list}</div>${STORY}
    <section><h2>Similar items we tested, and why we chose this one</h2>${list.replace(/Linen/g, "Cotton")}</section>
    <section><h2>Related products</h2><p>${"Every shirt of this range is cut from the same linen, woven in Lithuania and washed twice. ".repeat(6)}</p></section>`);
  expect(text).toContain("Related productsLinen towel");
  expect(text).toContain("Similar items we tested, and why we chose this oneCotton towel");
  expect(text).toContain("Related productsEvery shirt of this range");
});

test("a short paragraph under a rail's heading is the page's own and stays", () => {
  const text = railsDropped(
    `<main><h2>Similar items</h2><p>Three tops in black, white and green, size 6, worn once and washed before sending.</p></main>`,
  );
  expect(text).toBe(
    "Similar itemsThree tops in black, white and green, size 6, worn once and washed before sending.",
  );
});

test("a rail heading whose cards sit elsewhere stays with them; one that ends the page goes", () => {
  // The block around the heading starts with a banner: the climb stops below it, short of the cards.
  const cards = `<div class="cards"><img src="/c.jpg" alt=""><p>Ended</p><p>Linen shirt, size 6</p><p>GBP 4.00</p></div>`;
  const kept = railsDropped(
    `<div><p>Live now</p><div class="slot"><h2>People who viewed this item also viewed</h2></div>${cards}</div>${STORY}`,
  );
  expect(kept).toContain("People who viewed this item also viewedEnded");
  const ended = railsDropped(`${STORY}<div class="slot"><h2>Recently viewed</h2></div>`);
  expect(ended).toContain("A relaxed linen shirt");
  expect(ended).not.toContain("Recently viewed");
});

test("extraction drops rails in both modes", () => {
  const html = `<html><body><main><h1>Linen shirt</h1>${STORY}${STORY.replace("relaxed", "loose")}
    <section><h2>Similar items</h2><a href="/recs">See all</a></section></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(html, "https://shop.example/linen-shirt", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("A loose linen shirt");
    expect(content).not.toContain("Similar items");
    expect(content).not.toContain("See all");
  }
});

// A hang guard: rails are looked for on every page; a page of rail headings over large blocks
// stays a few walks of the page.
test("many rail headings over large blocks are handled in linear time", () => {
  const rails =
    `<div><h2>Similar items</h2>${"<span></span>".repeat(20_000)}<a href="/x">See all</a></div>`.repeat(20);
  const $ = loadHtml(`<html><body><main><h1>Linen shirt</h1>${STORY}${rails}</main></body></html>`);
  const body = $("body")[0] as Element;
  const started = performance.now();
  dropRelatedRails(body);
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(textOf(body)).toContain("A relaxed linen shirt");
}, 20_000);

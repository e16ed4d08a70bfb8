import { expect, test } from "bun:test";
import { isCardPart } from "./card-titles.ts";
import { loadHtml } from "./dom.ts";
import { extractHtml } from "./index.ts";
import type { Element } from "./nodes.ts";

const intro = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Automatic watches wind themselves from the motion of your wrist, so a watch worn every day never stops; part ${i + 1} of our guide explains the movements we use.</p>`,
).join("");

/** A shop's card: its picture links to the item, then its name links there again, then its price. */
const card = (slug: string, name: string, price: string, item: number) => `<div class="col"><div class="card">
  <div class="card-img"><a href="/item/${slug}"><img src="/img/${slug}.jpg" alt="${name}"></a></div>
  <div class="card-body"><div class="fw-bold"><a class="text-body" href="/item/${slug}">${name}</a></div>
  <div class="text-muted">Item# ${item} <span>${price}</span></div></div></div></div>`;

const page = `<html><body><nav><div><a href="/">Home</a></div><div><a href="/watches">Watches</a></div></nav>
  <main><h1>Men's Automatic Watches</h1>${intro}
  <div class="row">
  ${card("dumonde", "DuMonde Watch", "$199.00", 52061)}
  ${card("griffin", "Men's Griffin Automatic Watch", "$249.00", 56559)}
  ${card("ritorno", "Stauer 1944 Ritorno Timepiece", "$179.00", 17456)}
  </div>
  <div class="more"><div><a href="/clearance">Clearance</a></div><p>Ask about our 60-day guarantee on every watch.</p></div>
  </main></body></html>`;

test("a card stays whole, its name with its price, in both modes; a lone link line beside text leaves main content", () => {
  for (const onlyMainContent of [true, false]) {
    const md = extractHtml(page, "https://shop.example/category/watches", {
      format: "markdown",
      onlyMainContent,
      images: false,
    }).content;
    expect(md).toContain("Automatic watches wind themselves");
    for (const name of ["DuMonde Watch", "Men's Griffin Automatic Watch", "Stauer 1944 Ritorno Timepiece"])
      expect(md).toContain(`[${name}](https://shop.example/item/`);
    for (const price of ["$199.00", "$249.00", "$179.00"]) expect(md).toContain(price);
    // A link line no picture beside it shares is no card's name (the default mode shows the page's).
    if (onlyMainContent) expect(md).not.toContain("Clearance");
  }
});

const first = (html: string, selector: string) => loadHtml(html)(selector).toArray()[0] as Element;

test("a card: its links lead to one item its picture shows, and it says more than the item's name", () => {
  // The card itself, and its name line.
  expect(isCardPart(first(page, ".card"))).toBe(true);
  expect(isCardPart(first(page, ".fw-bold"))).toBe(true);
  // A tile whose picture is a button, not a link, names the item in its alt text.
  const tile = `<div class="tile"><div role="button"><img src="/a.jpg" alt="Disney Minnie Carry-On"></div>
    <div class="tile-body"><div class="name"><a href="/luggage/minnie">Disney Minnie Carry-On</a></div><div>$79.99</div></div></div>`;
  expect(isCardPart(first(tile, ".name"))).toBe(true);
  // A picture and its caption linking to a story, saying nothing more, is a teaser, not an item's card.
  const caption = `<div class="story"><a href="/news/x"><img src="/x.jpg" alt=""></a><div class="name"><a href="/news/x">Storm hits the coast</a></div></div>`;
  expect(isCardPart(first(caption, ".name"))).toBe(false);
  expect(isCardPart(first(caption, ".story"))).toBe(false);
  // A picture beside the line that leads elsewhere, or is named otherwise, makes it no card's.
  const other = `<div><a href="/promo"><img src="/p.jpg" alt="Winter sale"></a><div class="name"><a href="/luggage/minnie">Disney Minnie Carry-On</a></div><p>$79.99</p></div>`;
  expect(isCardPart(first(other, ".name"))).toBe(false);
  // A picture link with words of its own is a teaser, not a card's picture.
  const teaser = `<div><a href="/luggage/minnie"><img src="/a.jpg" alt=""> Shop the range</a><div class="name"><a href="/luggage/minnie">Disney Minnie Carry-On</a></div><p>$79.99</p></div>`;
  expect(isCardPart(first(teaser, ".name"))).toBe(false);
  // Links to two places are a menu; an in-page anchor leads nowhere.
  const menu = `<div><a href="/a"><img src="/a.jpg" alt=""></a><div class="name"><a href="/a">A</a> <a href="/b">B</a></div><p>$5</p></div>`;
  expect(isCardPart(first(menu, ".name"))).toBe(false);
  const anchor = `<div><a href="#top"><img src="/a.jpg" alt=""></a><div class="name"><a href="#top">Top</a></div><p>$5</p></div>`;
  expect(isCardPart(first(anchor, ".name"))).toBe(false);
});

test("the climb to a card stops at its fourth ancestor and at a block too big to be a card", () => {
  const card = (depth: number) =>
    `<div class="card"><a href="/x"><img src="/x.jpg" alt=""></a><span>$5</span>${"<div>".repeat(depth)}<p class="name"><a href="/x">X</a></p>${"</div>".repeat(depth)}</div>`;
  expect(isCardPart(first(card(3), ".name"))).toBe(true);
  expect(isCardPart(first(card(4), ".name"))).toBe(false);
  // A part too big to be a card's, met before the picture, ends the climb.
  const big = (words: number) =>
    `<div><a href="/x"><img src="/x.jpg" alt=""></a><span>$5</span><div>${"<span>word</span>".repeat(words)}</div><div class="name"><a href="/x">X</a></div></div>`;
  expect(isCardPart(first(big(200), ".name"))).toBe(false);
  expect(isCardPart(first(big(20), ".name"))).toBe(true);
});

test("in a story's body, a line linking where a picture near it links is that picture's item", () => {
  // A deals story: each product's photo, then "Get it on Amazon" linking to the same offer.
  const story = (gap: number) =>
    `<div class="body"><p>The best deals of the week, picked by our editors.</p><a href="https://r.example/u/1"><img src="/tv.jpg" alt=""></a>${"<p>More about this TV and why we like it.</p>".repeat(gap)}<p class="buy"><a href="https://r.example/u/1">Get it on Amazon for $649.99</a></p><p>Next deal.</p></div>`;
  expect(isCardPart(first(story(7), ".buy"))).toBe(true);
  // Eight elements away and more, the picture is another part of the story.
  expect(isCardPart(first(story(8), ".buy"))).toBe(false);
});

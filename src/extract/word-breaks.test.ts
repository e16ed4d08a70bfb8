import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { extractHtml } from "./index.ts";
import type { Element } from "./nodes.ts";
import { settleInlineEdges } from "./word-breaks.ts";

const page = (body: string) =>
  `<html><head><title>t</title></head><body><main><h1>Boots</h1>${body}</main></body></html>`;
const extract = (
  body: string,
  format: "markdown" | "text" | "html" = "markdown",
  formats?: ("markdown" | "html")[],
) =>
  extractHtml(page(body), "https://shop.example/boots", {
    format,
    formats,
    onlyMainContent: true,
    images: false,
  });

test("inline elements whose words touch only in the markup are set apart", () => {
  // A product card's brand and name, and a row of badges: laid out apart by the stylesheet.
  const card =
    '<p>Top rated: <a href="/moab"><span class="brand">Merrell</span><span class="title">Moab 3 Mid Hiking Boots</span></a> for wet trails.</p>' +
    '<p><span class="badge">Genuine Steam Deck Part</span><span class="badge">Lifetime Guarantee</span></p>';
  const { content } = extract(card);
  expect(content).toContain("[Merrell Moab 3 Mid Hiking Boots](https://shop.example/moab)");
  expect(content).toContain("Genuine Steam Deck Part Lifetime Guarantee");
  // A two-letter brand, and a price beside its former one.
  const more = extract(
    '<p>New: <span class="brand">On</span><span class="title">Cloudrock Mid</span> from <span class="sale">$123.95</span><span class="was">Was $154.95</span></p>',
  );
  expect(more.content).toContain("On Cloudrock Mid from $123.95 Was $154.95");
  // A price beside the one it replaces, a word beside a price.
  expect(
    extract('<p><span class="price">$19.99</span><s>$29.99</s>, now<b>€5</b> a month</p>').content,
  ).toContain("$19.99 ~~$29.99~~, now **€5** a month");
  // A brand in capitals, and a name that starts with a capital letter alone.
  const caps = extract(
    '<p>Also: <span class="brand">HOKA</span><span class="title">Kaha 3 GTX</span> and <span class="brand">Salomon</span><span class="title">X Ultra 5</span>, see <span>AI</span><span>SDK</span>.</p>',
  );
  expect(caps.content).toContain("HOKA Kaha 3 GTX and Salomon X Ultra 5, see AI SDK.");
  // An element beside text: a label and its value, a bold lead-in and its sentence.
  const mixed = extract(
    "<ul><li>Developed By:<span>Valve</span></li><li><b>Global Partnerships</b>We have built a strong partnership.</li></ul>",
  );
  expect(mixed.content).toContain(
    "- Developed By: Valve\n- **Global Partnerships** We have built a strong partnership.",
  );
  expect(extract(card, "text").content).toContain("Merrell Moab 3 Mid Hiking Boots");
  // A choice's option tiles, whatever their text starts with.
  const tiles = extract(
    '<p>Pack: <label><input type="radio" name="p"><span>Single</span></label><label><input type="radio" name="p"><span>4-Pack</span></label><label><input type="radio" name="p"><span>8-pack</span></label></p>',
  );
  expect(tiles.content).toContain("Pack: Single 4-Pack 8-pack");
  // Deeper edges too: the last text of one element, the first of the next.
  expect(extract("<p><span><b>Waterproof</b></span><span><i>Leather</i> upper</span></p>").content).toContain(
    "**Waterproof** *Leather* upper",
  );
});

test("an inline element its own style lays out as a block is parted from its neighbours, whatever their words", () => {
  const { content } = extract(
    '<p><span style="display:block">Line A</span><span style="display: flex !important">line b</span><em>2026</em></p>' +
      '<p><span style="display:inline-block">Dono</span><span>van</span> and <span style="color:red">ne</span>on</p>',
  );
  expect(content).toContain("Line A line b *2026*");
  // Not a block: inline-block (a tile's words may be one word split) and other styles join as before.
  expect(content).toContain("Donovan and neon");
});

test("the items of a flex or grid container are parted, by its utility class or its style; other containers' are not", () => {
  const facet = (cls: string) =>
    `<li><div class="${cls}"><label for="f">Adhesives</label><span class="count">704</span></div></li>`;
  const { content } = extract(
    `<ul>${facet("flex items-center justify-between")}${facet("d-md-flex")}${facet("md:grid")}</ul>` +
      '<p><span style="display:inline-flex"><b>Wilson</b><span>11 hours ago</span></span></p>' +
      `<ul>${facet("flexbox-note")}</ul><p class="flex-col"><span>ok</span><span>ay</span></p>`,
  );
  expect(content.match(/Adhesives 704/g)?.length).toBe(3);
  expect(content).toContain("**Wilson** 11 hours ago");
  // A class that only contains the word, and a flex direction alone, say nothing of the layout.
  expect(content).toContain("Adhesives704");
  expect(content).toContain("okay");
});

test("a number beside a number with more than digits is parted; digits alone after a number stay against it", () => {
  const { content } = extract(
    '<p><span class="now">€89</span><span class="was">€98</span><span class="save">9% Pack Savings</span></p>' +
      '<p><span class="date">Nov 15, 2019</span><span class="time">5:45 AM</span>, <span>1994</span><span>2h 22m</span></p>' +
      '<p>Only <span class="dollars">$4</span><span class="cents">99</span>, <span>1</span><span>2</span><span>0</span> sold, 10<sup>6</sup> cells, <span>3</span><sup>rd</sup></p><p>Growth in 2019<sup>12,13</sup> was slow.</p>',
  );
  expect(content).toContain("€89 €98 9% Pack Savings");
  expect(content).toContain("Nov 15, 2019 5:45 AM, 1994 2h 22m");
  expect(content).toContain("Only $499, 120 sold, 10⁶ cells, 3rd");
  expect(content).toContain("Growth in 2019 12,13 was slow.");
});

test("a word split by markup, a single letter, code and other letters' case stay as written", () => {
  const { content } = extract(
    "<p><b>W</b>ord, <em>run</em>ning, <span>i</span><span>Phone</span>, <span>ok</span><span>ay</span>, " +
      "<span>管理ソフト</span><a href='/k'>KeePass</a>, <code><span>get</span><span>Value</span></code></p>" +
      "<pre><span>load</span><span>Config</span></pre>",
  );
  expect(content).toContain(
    "**W**ord, *run*ning, iPhone, okay, 管理ソフト[KeePass](https://shop.example/k), `getValue`",
  );
  expect(content).toContain("loadConfig");
});

test("a subscript stays against the text beside it; a note's superscript mark is parted from its text", () => {
  // A digit then a capital would part two elements' words ("$123.95" + "Was"), but not in a formula.
  const { content } = extract(
    "<p>Water is H<sub>2</sub>O, acid is H<sub>2</sub>SO<sub>4</sub>; " +
      "in <span>2024</span><span>Results</span> they part.</p><p><sup>2</sup>Master of Science: closed.</p>",
  );
  expect(content).toContain("Water is H₂O, acid is H₂SO₄; in 2024 Results they part.");
  expect(content).toContain("² Master of Science: closed.");
  expect(extract("<p>CO<sub><span>2</span></sub>Emissions</p>", "text").content).toContain("CO2Emissions");
});

test("the html format keeps the page's markup as it is", () => {
  const card = '<p><span class="brand">Merrell</span><span class="title">Moab 3</span></p>';
  expect(extract(card, "html").content).toContain(
    '<span class="brand">Merrell</span><span class="title">Moab 3</span>',
  );
  const both = extract(card, "markdown", ["markdown", "html"]);
  expect(both.content).toContain("Merrell Moab 3");
  expect(both.formats?.html).toContain("Merrell</span><span");
});

test("a line break at an inline element's edge stays a line break", () => {
  // turndown trims an inline element with a space at an edge: the break at its end went with it.
  const reviews =
    '<div><span class="bold italic">Wall Street Journal</span><span class="bold"> bestseller<br/></span>' +
    '<span class="bold italic">USA Today</span><span class="bold"> bestseller<br/>\n</span><span>The best book.</span></div>';
  expect(extract(reviews).content).toContain(
    "Wall Street Journal bestseller\nUSA Today bestseller\nThe best book.",
  );
  expect(extract(reviews, "text").content).toContain(
    "Wall Street Journal bestseller\nUSA Today bestseller\nThe best book.",
  );
  // Nested, and at the start: the break leaves each element in turn.
  expect(
    extract("<p>Rated <span><a href='/r'> five<br></a></span>stars <i><br> by readers</i> today</p>").content,
  ).toContain("Rated [five](https://shop.example/r)\nstars\n*by readers* today");
});

// A hang guard: taking breaks off an element's edge one at a time, skipping again from the edge
// the blank text left between them, was quadratic (20,000 "<br> ": seconds); one pass is linear.
test("a long run of line breaks at an inline element's edges moves out in linear time", () => {
  const $ = loadHtml(`<p>a <b>${"<br> ".repeat(20_000)}x${" <br>".repeat(20_000)}</b> y</p>`);
  const p = $("p")[0] as Element;
  const started = performance.now();
  settleInlineEdges([p]);
  expect(performance.now() - started).toBeLessThan(2_000);
  const b = $("b")[0] as Element;
  expect(b.children.some((c) => (c as Element).name === "br")).toBe(false);
  expect(p.children.filter((c) => (c as Element).name === "br")).toHaveLength(40_000);
}, 30_000);

test("a label's box beside its value's, named so by their classes, is parted whatever their words' edges", () => {
  const { content } = extract(
    '<div class="specs"><div><span class="details_name">ISBN-13</span><span class="details_value">9780544103054</span></div>' +
      '<div><span class="spec-label">Publication Year</span><span class="spec-value">2013</span></div>' +
      '<div><span class="attr-key">Author</span><span class="attr-val">J. B. MacKinnon</span></div></div>' +
      '<p><span class="name">Jo</span><span class="nick">hn</span> and <span class="x">Item</span><span class="value">12</span></p>',
  );
  expect(content).toContain("ISBN-13 9780544103054");
  expect(content).toContain("Publication Year 2013");
  expect(content).toContain("Author J. B. MacKinnon");
  // Without both names, the words' edges decide, as before.
  expect(content).toContain("John and Item12");
});

test("boxes a class or style draws inline are runs of one line; a box holding blocks stays a block", () => {
  const { content } = extract(
    '<div class="title-wrap"><div class="u-d-inline"><div class="paragraph-sm u-d-inline">VP Digital Marketing</div>' +
      '<div class="paragraph-sm u-d-inline-block">, </div></div><div class="u-d-inline">Walker &amp; Dunlop</div></div>' +
      '<div><div class="d-inline">Model: ZGM-00026</div> <div style="display: inline-block">SKU: 10124570</div></div>' +
      '<div class="inline"><p>First paragraph.</p><p>Second paragraph.</p></div><div class="inline-form">Alone</div><div>After</div>',
  );
  expect(content).toContain("VP Digital Marketing, Walker & Dunlop");
  expect(content).toContain("Model: ZGM-00026 SKU: 10124570");
  expect(content).toContain("First paragraph.\n\nSecond paragraph.");
  expect(content).toContain("Alone\n\nAfter");
});

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const main = (html: string) =>
  extractHtml(html, "https://news.example/story", {
    format: "markdown",
    onlyMainContent: true,
    images: false,
  }).content;

const STORY = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i + 1} of the story: sea levels along the northern coast rose faster this decade than in any decade on record, and the harbours measured it.</p>`,
).join("");

test("an article's title (and its dek) above the body starts main content", () => {
  const md = main(`<html><head><title>Tides are rising faster | Coastal Times</title></head><body>
    <header class="site-header"><a href="/">Coastal Times</a></header>
    <div class="story"><header><h1>Tides are rising faster</h1><p class="dek">Forty harbours, one decade, and a record nobody wanted.</p></header>
    <figure><img src="/tide.jpg" alt="A harbour"><figcaption>The harbour at dawn.</figcaption></figure>
    <div class="body">${STORY}</div></div></body></html>`);
  expect(
    md.startsWith("# Tides are rising faster\n\nForty harbours, one decade, and a record nobody wanted.\n\n"),
  ).toBe(true);
  expect(md).toContain("Paragraph 6 of the story");
});

test("a heading right above the body is its title even when <title> says it otherwise", () => {
  const md = main(`<html><head><title>Travel insurance tips by Ana Reyes</title></head><body>
    <header><h1>Do I need cover abroad?</h1></header><div class="wysiwyg"><h6>By Ana Reyes</h6>${STORY}</div></body></html>`);
  expect(md.startsWith("# Do I need cover abroad?\n")).toBe(true);
});

test("a site's name or logo in an h1 is not the title, nor is a far-off heading <title> does not name", () => {
  const logo = main(`<html><head><title>Tides are rising faster | Coastal Times</title></head><body>
    <h1 class="logo"><a href="/"><img src="/logo.png" alt="Coastal Times"></a></h1><article>${STORY}</article></body></html>`);
  expect(logo.startsWith("Paragraph 1")).toBe(true);
  const site = main(`<html><head><title>Tides are rising faster | Coastal Times</title></head><body>
    <h1>Coastal Times</h1><article>${STORY}</article></body></html>`);
  expect(site.startsWith("Paragraph 1")).toBe(true);
  const links = Array.from(
    { length: 20 },
    (_, n) => `<li><a href="/issue/${n}">Issue ${n} of the weekly harbour digest</a></li>`,
  );
  const far = main(`<html><head><title>Tides are rising faster</title></head><body>
    <h1>Weekly digest</h1><ul>${links.join("")}</ul><article>${STORY}</article></body></html>`);
  expect(far).not.toContain("# Weekly digest");
});

test("a title the content already shows, or a heading after the content, is not added again", () => {
  const shown = main(`<html><head><title>Tides are rising faster</title></head><body>
    <h1>Tides are rising faster</h1><article><h2>Tides are rising faster</h2>${STORY}</article></body></html>`);
  expect(shown.match(/Tides are rising faster/g)).toHaveLength(1);
  const after = main(`<html><head><title>Tides are rising faster</title></head><body>
    <article>${STORY}</article><h1>Tides are rising faster</h1></body></html>`);
  expect(after.startsWith("Paragraph 1")).toBe(true);
});

test("a line of links after the title is the page's metadata, not its subtitle", () => {
  const md = main(`<html><head><title>Starter smells like acetone</title></head><body>
    <div class="thread-head"><h1>Starter smells like acetone</h1><p>Started by <a href="/u/miri">miri</a> in <a href="/f/bread">Bread</a>, 14 replies</p></div>
    <article>${STORY}</article></body></html>`);
  expect(md.startsWith("# Starter smells like acetone\n\nParagraph 1")).toBe(true);
});

test("a byline or dateline after the title is not its subtitle", () => {
  const md = main(`<html><head><title>Starter smells like acetone</title></head><body>
    <div class="head"><h1>Starter smells like acetone</h1><p>By Ana Reyes, baker and author of two books</p></div>
    <article>${STORY}</article></body></html>`);
  expect(md.startsWith("# Starter smells like acetone\n\nParagraph 1")).toBe(true);
});

test("a line the page names its byline after the title is not its subtitle, however it reads", () => {
  const page = (cls: string) =>
    main(`<html><head><title>New SUVs highlight the auto show</title></head><body>
    <div class="article-title"><h1>New SUVs highlight the auto show</h1><p class="${cls}">Tom Krisher, AP Auto Writer</p></div>
    <article>${STORY}</article></body></html>`);
  expect(page("byline ap-byline").startsWith("# New SUVs highlight the auto show\n\nParagraph 1")).toBe(true);
  // A dek named as one stays the title's.
  expect(
    page("dek").startsWith("# New SUVs highlight the auto show\n\nTom Krisher, AP Auto Writer\n\n"),
  ).toBe(true);
});

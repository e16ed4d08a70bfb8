import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const extract = (body: string, onlyMainContent: boolean) =>
  extractHtml(
    `<html><head><title>Packaging</title></head><body><main><h1>Packaging design</h1>
    <p>We design boxes that sell, for brands of every size, in every market we ship to.</p>${body}</main></body></html>`,
    "https://studio.example/packaging",
    { format: "markdown", onlyMainContent, images: false },
  ).content;

const times = (n: number, html: string) => Array.from({ length: n }, () => html).join("");

test("a ticker's phrase repeated in a row is read once, in both modes", () => {
  const ticker = `<div class="marquee">${times(20, '<span>Book Now <span class="star">*</span></span>')}</div>`;
  const band = `<ul class="band">${times(6, "<li>Free shipping on orders over $50</li>")}</ul>`;
  for (const main of [true, false]) {
    const content = extract(`${ticker}<p>Our process starts with a call.</p>${band}`, main);
    expect(content.match(/Book Now/g)?.length).toBe(1);
    expect(content.match(/Free shipping on orders over \$50/g)?.length).toBe(1);
    expect(content).toContain("Our process starts with a call.");
  }
});

test("repeats that are the author's stay: table cells, three copies, marks without words, cards, paragraphs", () => {
  const table = `<table><tr><th>Feature</th><th>A</th><th>B</th><th>C</th><th>D</th></tr><tr><td>Tracking</td>${times(4, "<td>Yes</td>")}</tr></table>`;
  const three = `<p>${times(3, "<span>Go team</span> ")}</p>`;
  const stars = `<p>${times(5, '<span class="s">★</span>')} from buyers</p>`;
  const cards = `<div class="programs">${[1, 2, 3, 4, 5].map((i) => `<div class="item"><img src="/program/${i}.jpg" alt=""><b>Get the Program</b></div>`).join("")}</div>`;
  const long = "For more information, including example code you can refer to, see the bindings guide.";
  const panels = `<div class="steps">${times(4, `<p>${long}</p>`)}</div>`;
  const content = extract(table + three + stars + cards + panels, false);
  expect(content).toContain("| Tracking | Yes | Yes | Yes | Yes |");
  expect(content.match(/Go team/g)?.length).toBe(3);
  expect(content).toContain("★★★★★ from buyers");
  expect(content.match(/Get the Program/g)?.length).toBe(5);
  expect(content.split(long).length - 1).toBe(4);
});

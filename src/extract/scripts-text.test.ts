import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const page = `<html><body><article><h1>Units</h1>
  <p>The area is x<sup>2</sup>, water is H<sub>2</sub>O, the energy is E = mc<sup>2</sup> and the scale is 10<sup>-3</sup> metres, or 10<sup>&minus;3</sup>.</p>
  <p>It is the 1<sup>st</sup> of May, the brand is Acme<sup>TM</sup>, and the battery lasts all day<sup class="footnote"><a href="#note-5">5</a></sup> for most people.</p>
  <p>The loop takes <code>O(n<sup>2</sup>)</code> steps, and so says this long paragraph about measuring everything twice.</p>
</article></body></html>`;
const as = (format: "markdown" | "text" | "html") =>
  extractHtml(page, "https://units.example/", { format, onlyMainContent: true, images: false }).content;

test("a superscript or subscript of digits and signs reads in Unicode's script characters, in markdown and text", () => {
  for (const format of ["markdown", "text"] as const) {
    const content = as(format);
    expect(content).toContain(
      "x², water is H₂O, the energy is E = mc² and the scale is 10⁻³ metres, or 10⁻³.",
    );
    expect(content).toMatch(/O\(n²\)/);
  }
  // The html format keeps the page's markup.
  expect(as("html")).toContain("x<sup>2</sup>, water is H<sub>2</sub>O");
});

test("a script of words and a footnote's link stay as written", () => {
  const md = as("markdown");
  expect(md).toContain("the 1st of May");
  expect(md).toMatch(/Acme ?TM, and/);
  expect(md).toContain("all day5 for most people");
});

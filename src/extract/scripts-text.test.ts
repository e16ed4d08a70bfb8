import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const page = `<html><body><article><h1>Units</h1>
  <p>The area is x<sup>2</sup>, water is H<sub>2</sub>O, the energy is E = mc<sup>2</sup> and the scale is 10<sup>-3</sup> metres, or 10<sup>&minus;3</sup>.</p>
  <p>It is the 1<sup>st</sup> of May, the brand is Acme<sup>TM</sup>, and the battery lasts all day<sup class="footnote"><a href="#note-5">5</a></sup> for most people.</p>
  <p>The loop takes <code>O(n<sup>2</sup>)</code> steps, and so says this long paragraph about measuring everything twice.<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup></p>
  <div class="footnotes"><ol><li id="fn:1">Twice, or three times for the long ones. <a href="#fnref:1" class="footnote-backref">↩</a></li></ol></div>
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

test("a script of words stays as written, a mark linked within the page is drawn, a footnote stays one", () => {
  const md = as("markdown");
  expect(md).toContain("the 1st of May");
  expect(md).toMatch(/Acme ?TM, and/);
  expect(md).toContain("all day⁵ for most people");
  expect(md).toContain("measuring everything twice.[^1]");
  expect(md).toContain("[^1]: Twice, or three times");
  expect(md).not.toContain("twice.¹");
});

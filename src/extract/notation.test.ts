import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const page = `<body><article><h1>Notes</h1>
<p>Energy <math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math> holds, as <span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x^2 + y^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">x2+y2</span></span> shows.</p>
<p>MathJax keeps <script type="math/tex">a_1+b</script> in scripts, and display math too:</p><script type="math/tex; mode=display">\\int_0^1 x\\,dx</script>
<p>Claim<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup> and another<sup><a href="#fn:2">2</a></sup>.</p>
<div class="footnotes"><ol><li id="fn:1"><p>Source: the study. <a href="#fnref:1" class="footnote-backref">↩</a></p></li><li id="fn:2"><p>Second note. <a href="#fnref:2">↩</a></p></li></ol></div>
</article></body>`;

const render = (format: "markdown" | "text" | "html") =>
  extractHtml(page, "https://x.example/a", { format, onlyMainContent: false, images: false }).content;

test("math comes out as its TeX source: MathML rebuilt, KaTeX and MathJax from their TeX", () => {
  const md = render("markdown");
  expect(md).toContain("Energy $E=mc^2$ holds, as $x^2 + y^2$ shows.");
  expect(md).toContain("keeps $a_1+b$ in scripts");
  expect(md).toContain("$$\n\\int_0^1 x\\,dx\n$$");
  expect(md).not.toContain("x2+y2");
});

test("footnotes become GFM footnotes, without their back links", () => {
  const md = render("markdown");
  expect(md).toContain("Claim[^1] and another[^2].");
  expect(md).toContain("[^1]: Source: the study.\n[^2]: Second note.");
  expect(md).not.toContain("↩");
});

test("text gets the same math and notes without markdown's syntax", () => {
  const text = render("text");
  expect(text).toContain("Energy E=mc^2 holds, as x^2 + y^2 shows.");
  expect(text).toContain("Claim[1] and another[2].");
  expect(text).toContain("[1] Source: the study.");
  expect(text).not.toContain("$");
  expect(text).not.toContain("↩");
});

test("the HTML format keeps the page's own markup", () => {
  const html = render("html");
  expect(html).toContain("<math>");
  expect(html).toContain('href="#fn:1"');
});

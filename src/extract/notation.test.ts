import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const page = `<body><article><h1>Notes</h1>
<p>Energy <math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math> holds, as <span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x^2 + y^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">x2+y2</span></span> shows.</p>
<p>MathJax keeps <script type="math/tex">a_1+b</script> in scripts, and display math too:</p><script type="math/tex; mode=display">\\int_0^1 x\\,dx</script>
<p>Claim<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup> and another<sup><a href="#fn:2">2</a></sup>.</p>
<div class="footnotes"><ol><li id="fn:1"><p>Source: the study. <a href="#fnref:1" class="footnote-backref">↩</a></p></li><li id="fn:2"><p>Second note. <a href="#fnref:2">↩</a></p></li></ol></div>
</article></body>`;

/** A page's content in `format`, the whole page (not only its main content). */
const convert = (html: string, format: "markdown" | "text" | "html") =>
  extractHtml(html, "https://x.example/post", { format, onlyMainContent: false, images: false }).content;

const render = (format: "markdown" | "text" | "html") => convert(page, format);

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

test("a note that links back to its reference is a footnote, whatever the class names", () => {
  // Substack: the reference and the note's number link to each other; "footnote-anchor" also reads
  // as a notes list's name, which used to hide the pair.
  const html = `<body><article><h1>Post</h1>
<p>A claim<a class="footnote-anchor" id="footnote-anchor-1" href="#footnote-1">1</a> made, and a second<a class="footnote-anchor" id="footnote-anchor-2" href="#footnote-2">2</a>.</p>
<p>The post goes on long enough to be the article's own prose, with the notes after it as a reader sees them.</p>
<div class="footnote"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number">1</a><div class="footnote-content"><p>The first note.</p></div></div>
<div class="footnote"><a id="footnote-2" href="#footnote-anchor-2" class="footnote-number">2</a><div class="footnote-content"><p>The second note.</p></div></div>
<p>See the <a id="see-term" href="#term">glossary term</a> and a note<a id="r3" href="#n3">3</a>.</p>
<p><span id="term">Term</span>: a definition that links <a href="#see-term">back to the text</a>.</p>
<p><span id="n3">3</span> The third note, <a href="#r3">back</a></p>
</article></body>`;
  const md = convert(html, "markdown");
  expect(md).toContain("A claim[^1] made, and a second[^2].");
  expect(md).toContain("[^1]: The first note.");
  expect(md).toContain("[^2]: The second note.");
  // A link whose text is words and its target linking back are not a note; a mark's are, and
  // the note's own number is left to its label.
  expect(md).toContain("See the glossary term and a note[^3].");
  expect(md).toContain("Term: a definition that links back to the text.");
  expect(md).toContain("[^3]: The third note,");
  // A mark that links back up to words before it is not their note: a note comes after its reference.
  const upward = convert(
    `<body><article><h1>Post</h1><p>Read <a id="intro" href="#m9">the introduction</a> first, as the rest builds on it.</p>
<p>The post goes on long enough to be the article's own prose before its closing line, as readers see it.</p>
<p><a id="m9" href="#intro">9</a> Back to the introduction.</p></article></body>`,
    "markdown",
  );
  expect(upward).toContain("Read the introduction first");
  expect(upward).not.toContain("[^");
  const text = convert(html, "text");
  expect(text).toContain("A claim[1] made");
  expect(text).toContain("[1] The first note.");
});

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const article = (block: string) =>
  `<html><body><article><h1>Code</h1><p>An introduction long enough to be the article's own prose, before the listing.</p>${block}<p>After the listing the article goes on with more prose about what the code does.</p></article></body></html>`;
const markdown = (block: string) =>
  extractHtml(article(block), "https://docs.example/page", {
    format: "markdown",
    onlyMainContent: true,
    images: false,
  }).content;

test("code beside a gutter of line numbers is one code block, without the numbers", () => {
  // Pygments' highlighttable (Sphinx, MkDocs), Hexo's figure.highlight, Rouge's rouge-table.
  expect(
    markdown(
      '<div class="highlight-python"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td><td class="code"><div class="highlight"><pre><span></span>x = 1\ny = 2</pre></div></td></tr></table></div>',
    ),
  ).toContain("```python\nx = 1\ny = 2\n```");
  expect(
    markdown(
      '<figure class="highlight js"><table><tr><td class="gutter"><pre><span class="line">1</span><br><span class="line">2</span></pre></td><td class="code"><pre><span class="line">foo()</span><br><span class="line">bar()</span></pre></td></tr></table></figure>',
    ),
  ).toContain("```\nfoo()\nbar()\n```");
  const rouge = markdown(
    '<div class="highlight"><table class="rouge-table"><tbody><tr><td class="rouge-gutter gl"><pre class="lineno">1\n2\n</pre></td><td class="rouge-code"><pre>puts 1\nputs 2\n</pre></td></tr></tbody></table></div>',
  );
  expect(rouge).toContain("```\nputs 1\nputs 2\n```");
  expect(rouge).not.toContain("|");
});

test("a table of numbers beside text, or of text beside code, stays a table", () => {
  const ranking = markdown(
    "<table><tr><th>#</th><th>Team</th></tr><tr><td>1</td><td>Rovers</td></tr><tr><td>2</td><td>United</td></tr></table>",
  );
  expect(ranking).toContain("| 1 | Rovers |");
  const labelled = markdown("<table><tr><td>Install</td><td><pre>npm i siphon</pre></td></tr></table>");
  expect(labelled).toContain("Install");
  expect(labelled).toContain("|");
});

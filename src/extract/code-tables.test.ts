import { expect, test } from "bun:test";
import { mayHoldCodeTables } from "./code-tables.ts";
import { extractHtml } from "./index.ts";
import { parseMarked } from "./marks.ts";

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

test("code laid out a line a row, numbered, is one code block with its indentation", () => {
  const lines = ["def f(x):", "    if x:", "        return 1", "", "    return 0"];
  const gist = lines
    .map(
      (l, i) =>
        `<tr><td class="blob-num" data-line-number="${i + 1}"></td><td class="blob-code blob-code-inner">${l}</td></tr>`,
    )
    .join("\n");
  expect(markdown(`<div class="file"><table class="js-file-line-container">${gist}</table></div>`)).toContain(
    `\`\`\`\n${lines.join("\n")}\n\`\`\``,
  );
  // Numbered by its text, in a table named for code.
  const listing = ["SELECT 1;", "SELECT 2;"]
    .map((l, i) => `<tr><td>${i + 1}</td><td>${l}</td></tr>`)
    .join("");
  expect(markdown(`<table class="code-listing">${listing}</table>`)).toContain(
    "```\nSELECT 1;\nSELECT 2;\n```",
  );
});

test("a ranking numbered 1, 2, 3 without a header stays a table", () => {
  const rows = ["Rovers", "United", "City"].map((t, i) => `<tr><td>${i + 1}</td><td>${t}</td></tr>`).join("");
  // A code block elsewhere on the page, so that its tables are looked at.
  const md = markdown(`<table class="standings">${rows}</table><pre>make test</pre>`);
  expect(md).toContain("| 1 | Rovers |");
  expect(md).toContain("| 3 | City |");
  expect(md).not.toContain("```\nRovers");
});

test("looking for code tables reads a page's markup in one pass, however its tags are written", () => {
  const t = performance.now();
  // One tag of 100,000 unquoted class attributes made a tag-to-class pattern backtrack for minutes.
  const mayHold = (html: string) => mayHoldCodeTables(html, parseMarked(html).marks);
  expect(mayHold(`<table><td ${"class=x ".repeat(100_000)}>`)).toBe(false);
  expect(mayHold('<table><tr><td class="blob-code">x</td></tr></table>')).toBe(true);
  expect(mayHold('<div class="blob-code">x</div>')).toBe(false);
  expect(performance.now() - t).toBeLessThan(2000);
});

test("line numbers a highlighter prints inside a code block are left out of the code", () => {
  // Pygments' inline linenos (padded), a line-number span in each line's wrapper.
  expect(
    markdown(
      '<div class="highlight-python"><pre><span class="linenos"> 9</span>x = 1\n<span class="linenos">10</span>y = 2</pre></div>',
    ),
  ).toContain("```python\nx = 1\ny = 2\n```");
  const lines = markdown(
    '<pre class="line-numbers"><code class="language-js"><span class="line"><span class="line-number">1</span>const a = 1;</span>\n<span class="line"><span class="line-number">2</span>const b = 2;</span></code></pre>',
  );
  expect(lines).toContain("```js\nconst a = 1;\nconst b = 2;\n```");
  // A number that is the code's own text, or a class word outside code, stays.
  expect(markdown('<pre><code><span class="lineno-count">n =</span> 3\nprint(n)</code></pre>')).toContain(
    "n = 3\nprint(n)",
  );
  const prose = extractHtml(
    article('<p>Chapter <span class="gutter">12</span> covers it.</p><pre>1\n2</pre>'),
    "https://docs.example/page",
    { format: "text", onlyMainContent: true, images: false },
  ).content;
  expect(prose).toContain("Chapter 12 covers it.");
  expect(prose).toContain("1\n2");
});

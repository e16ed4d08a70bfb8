import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { toMarkdown as rootsToMarkdown } from "./markdown.ts";
import { tidyMarkdown } from "./markdown-tidy.ts";

/** Markdown of an HTML snippet, parsed as extraction parses pages. */
const toMarkdown = (html: string): string => rootsToMarkdown(loadHtml(html).root().contents().get());

test("code fences carry the language from class or data-lang", () => {
  expect(toMarkdown('<pre><code class="language-ts">const a = 1;</code></pre>')).toBe(
    "```ts\nconst a = 1;\n```",
  );
  expect(toMarkdown('<pre class="lang-python"><code>print(1)</code></pre>')).toBe("```python\nprint(1)\n```");
  expect(toMarkdown('<pre data-lang="bash">ls -la</pre>')).toBe("```bash\nls -la\n```");
  expect(toMarkdown("<pre>plain</pre>")).toBe("```\nplain\n```");
  // SyntaxHighlighter's and MDN's "brush: js;" with its space.
  expect(toMarkdown('<pre class="brush: js notranslate">f();</pre>')).toBe("```js\nf();\n```");
  expect(toMarkdown('<pre class="brush: python; gutter: false">f()</pre>')).toBe("```python\nf()\n```");
  expect(toMarkdown('<pre class="brush:php">f();</pre>')).toBe("```php\nf();\n```");
});

test("a fence inside code gets a longer fence", () => {
  expect(toMarkdown("<pre><code>```\nx\n```</code></pre>")).toBe("````\n```\nx\n```\n````");
});

test("tables become GFM tables", () => {
  const md = toMarkdown(
    "<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Free</td><td>$0</td></tr><tr><td>Pro</td><td>$9</td></tr></tbody></table>",
  );
  expect(md).toContain("| Plan | Price |");
  expect(md).toMatch(/\| -+ \| -+ \|/);
  expect(md).toMatch(/^\| Pro \| \$9 *\|$/m);
});

test("a heading set in bold as a whole has no bold marks; bold on part of it keeps them", () => {
  expect(toMarkdown("<h2><strong>Grow your network</strong></h2>")).toBe("## Grow your network");
  expect(toMarkdown("<h2><b>Price</b> and terms</h2>")).toBe("## **Price** and terms");
  expect(toMarkdown("<h3><b>One</b> <b>two</b></h3>")).toBe("### **One** **two**");
});

test("headings are ATX, lists use dashes, links and images are inline", () => {
  const md = toMarkdown(
    '<h2>Setup</h2><ul><li>one</li><li>two</li></ul><p>See <a href="https://x.example/docs">the docs</a>.</p><img src="https://x.example/a.png" alt="diagram">',
  );
  expect(md).toContain("## Setup");
  expect(md).toMatch(/^- {1,3}one$/m);
  expect(md).toContain("[the docs](https://x.example/docs)");
  expect(md).toContain("![diagram](https://x.example/a.png)");
});

test("emphasis whose marks markdown would not read (between a letter and punctuation) is written without them", () => {
  expect(toMarkdown('<p>foo<b>"bar"</b>baz, <b>Note:</b>text, word<b>.</b> and <i>(aside)</i>x</p>')).toBe(
    'foo"bar"baz, Note:text, word. and (aside)x',
  );
  // Beside a space, punctuation, a line's edge or a link's bracket the marks work and stay.
  expect(
    toMarkdown(
      '<p><b>Note:</b> text, un<b>believ</b>able, say <span><b>"hi"</b></span>. <a href="/q"><b>"q"</b></a></p>',
    ),
  ).toBe('**Note:** text, un**believ**able, say **"hi"**. [**"q"**](/q)');
  // A space inside the element's edge goes outside its marks, and counts there.
  expect(toMarkdown("<ul><li><strong>The parts: </strong>When working</li></ul>")).toBe(
    "- **The parts:** When working",
  );
});

test("blank lines inside a code block stay as the code has them; elsewhere a run of them is one", () => {
  const python = "import os\n\n\ndef a():\n    pass\n\n\ndef b():\n    pass";
  expect(
    toMarkdown(`<p>a</p><br><br><br><p>b</p><pre><code class="language-python">${python}</code></pre>`),
  ).toBe(`a\n\nb\n\n\`\`\`python\n${python}\n\`\`\``);
  // Past a closed fence, and beside a line of inline code with three backticks, runs are one again.
  expect(tidyMarkdown("```\nx\n\n\ny\n```\n\n\nz\n\n\n```` ``` ````\n\n\nw")).toBe(
    "```\nx\n\n\ny\n```\n\nz\n\n```` ``` ````\n\nw",
  );
  expect(tidyMarkdown("~~~~\nq\n\n\n~~~\n\n\nr\n~~~~\n\n\ns")).toBe("~~~~\nq\n\n\n~~~\n\n\nr\n~~~~\n\ns");
  // Code in a list item opens on the item's line.
  expect(toMarkdown("<ul><li><pre><code>x\n\n\ny</code></pre></li></ul>")).toBe("- ```\n  x\n\n\n  y\n  ```");
});

test("an ordered list starts at its start attribute: a list the page continues after a figure", () => {
  expect(toMarkdown('<ol><li>one</li></ol><p>Figure</p><ol start="4"><li>four</li><li>five</li></ol>')).toBe(
    "1. one\n\nFigure\n\n4. four\n5. five",
  );
  // A start markdown cannot write (negative, not a number) counts from 1.
  expect(
    toMarkdown(
      '<ol start="-2"><li>a</li></ol><p>p</p><ol start="x"><li>b</li></ol><p>q</p><ol start="0"><li>c</li></ol>',
    ),
  ).toBe("1. a\n\np\n\n1. b\n\nq\n\n0. c");
  // An item's value numbers it and those after it, as a browser counts.
  expect(
    toMarkdown('<ol><li value="3">three</li><li>four</li><li value="10">ten</li><li>eleven</li></ol>'),
  ).toBe("3. three\n4. four\n10. ten\n11. eleven");
  expect(toMarkdown('<ol start="5"><li value="x">five</li><li>six</li></ol>')).toBe("5. five\n6. six");
  // A reversed list counts down: from its number of items, or from its start; never below 0.
  expect(toMarkdown("<ol reversed><li>three</li><li>two</li><li>one</li></ol>")).toBe(
    "3. three\n2. two\n1. one",
  );
  expect(
    toMarkdown(
      '<ol reversed start="10"><li>ten</li><li value="5">five</li><li>four</li></ol><p>p</p><ol reversed start="1"><li>a</li><li>b</li><li>c</li></ol>',
    ),
  ).toBe("10. ten\n5. five\n4. four\n\np\n\n1. a\n0. b\n0. c");
});

test("a link's title is written only when it says more than the link's text", () => {
  expect(
    toMarkdown(
      '<p><a href="/a" title="Permalink to Big [news] today">Big [news] today</a> <a href="/t" title="Titan">Titan</a> <a href="/n" title="news">Big news</a> <a href="/w" title="Opens the annual report (PDF, 2 MB)">Annual report</a> <a href="/q" title="Say &quot;hi&quot;">Greeting</a></p>',
    ),
  ).toBe(
    '[Big [news] today](/a) [Titan](/t) [Big news](/n) [Annual report](/w "Opens the annual report (PDF, 2 MB)") [Greeting](/q "Say \\"hi\\"")',
  );
});

test("a link's or image's unpaired parenthesis is encoded, paired ones and the rest of the URL stay", () => {
  expect(
    toMarkdown(
      '<p><a href="https://e.com/x)y">close</a> <a href="https://e.com/wiki/Foo_(bar)">paired</a> <a href="/a b">spaced</a> <img src="/img(1.png" alt="p"></p>',
    ),
  ).toBe(
    "[close](https://e.com/x%29y) [paired](https://e.com/wiki/Foo_(bar)) [spaced](/a%20b) ![p](/img%281.png)",
  );
});

test("a table cell's line breaks are one <br> without the hard break's spaces, and every pipe is escaped", () => {
  expect(
    toMarkdown(
      "<table><tr><th>a</th><th>b</th></tr><tr><td>line1<br>line2</td><td>x||y <code>c|d</code> e\\|f</td></tr></table>",
    ),
  ).toBe("| a | b |\n| --- | --- |\n| line1<br>line2 | x\\|\\|y `c\\|d` e\\\\\\|f |");
});

test("empty links and data: images are dropped; blank lines collapse", () => {
  const md = toMarkdown(
    '<p>a</p><a href="/x"> </a><br><br><br><img src="data:image/gif;base64,R0l"><p>b</p>',
  );
  expect(md).not.toContain("](");
  expect(md).not.toMatch(/\n{3,}/);
  expect(md).toBe("a\n\nb");
});

test("highlighted code keeps its line breaks and indentation when a highlighter split it into line elements", () => {
  const lines = [
    "import { useState } from 'react';",
    "",
    "function Counter() {",
    "  const [n, setN] = useState(0);",
    "}",
  ];
  const html = `<pre class="sp-cm"><code>${lines.map((l) => `<div class="cm-line">${l.replace(/(\w+)/, '<span class="token keyword">$1</span>') || "<br>"}</div>`).join("")}</code></pre>`;
  expect(toMarkdown(html)).toBe(`\`\`\`\n${lines.join("\n")}\n\`\`\``);
  expect(toMarkdown("<pre><code>a<br>  b<br>c</code></pre>")).toBe("```\na\n  b\nc\n```");
});

test("a code block takes its language from the highlighter's wrapper", () => {
  expect(
    toMarkdown('<div class="highlight highlight-source-python"><pre>def f():\n    return 1</pre></div>'),
  ).toBe("```python\ndef f():\n    return 1\n```");
  expect(
    toMarkdown(
      '<div class="language-ruby highlighter-rouge"><div class="highlight"><pre><code>puts 1</code></pre></div></div>',
    ),
  ).toBe("```ruby\nputs 1\n```");
  expect(toMarkdown('<pre><code data-language="Go">fmt.Println(1)</code></pre>')).toBe(
    "```go\nfmt.Println(1)\n```",
  );
});

test("tables keep every cell in its column across column and row spans, with a valid divider", () => {
  expect(
    toMarkdown(
      '<table><tr><th>Plan</th><th colspan="2">Price</th></tr><tr><td>Free</td><td>$0</td><td>forever</td></tr><tr><td colspan="3">All plans include support</td></tr></table>',
    ),
  ).toBe(
    "| Plan | Price |   |\n| --- | --- | --- |\n| Free | $0 | forever |\n| All plans include support |   |   |",
  );
  expect(
    toMarkdown(
      '<table><caption>Sales by region</caption><thead><tr><th>Region</th><th align="right">Sales</th></tr></thead><tbody><tr><td rowspan="2">North</td><td>10</td></tr><tr><td>12</td></tr></tbody></table>',
    ),
  ).toBe("Sales by region\n\n| Region | Sales |\n| --- | ---: |\n| North | 10 |\n|   | 12 |");
});

test("a table's caption is one line above it: its blocks parted, its markup kept", () => {
  // A card's caption of headings and subtitles (WordPress table blocks), with the markup's own line breaks between.
  expect(
    toMarkdown(
      "<table><caption>\n  <div><h3>Undergraduate</h3>\n  <p>Full-time</p></div><div><h3>$390</h3><p>per hour</p></div></caption><tr><th>Plan</th><th>Rate</th></tr><tr><td>Online</td><td>$455</td></tr></table>",
    ),
  ).toBe("Undergraduate Full-time $390 per hour\n\n| Plan | Rate |\n| --- | --- |\n| Online | $455 |");
  expect(
    toMarkdown(
      '<table><caption>Table 2: <b>Results</b> of the <a href="https://e.com/x">run</a></caption><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>',
    ),
  ).toBe("Table 2: **Results** of the [run](https://e.com/x)\n\n| A | B |\n| --- | --- |\n| 1 | 2 |");
  // A layout table's caption is a block of its own above its cells.
  expect(toMarkdown("<table><caption>Layout caption</caption><tr><td>only column</td></tr></table>")).toBe(
    "Layout caption\n\nonly column",
  );
});

test("a table's header rows read as one: a group's heading over each of its columns", () => {
  expect(
    toMarkdown(
      '<table><thead><tr><th rowspan="2">Name</th><th colspan="2">Scores</th></tr><tr><th>Q1</th><th align="right">Q2</th></tr></thead><tbody><tr><td>Ann</td><td>1</td><td>2</td></tr></tbody></table>',
    ),
  ).toBe("| Name | Scores Q1 | Scores Q2 |\n| --- | --- | ---: |\n| Ann | 1 | 2 |");
  // Rows of header cells only are a header and rows, not one long header.
  expect(toMarkdown("<table><tr><th>a</th><th>b</th></tr><tr><th>c</th><th>d</th></tr></table>")).toBe(
    "| a | b |\n| --- | --- |\n| c | d |",
  );
  // A heading in a cell is its text.
  expect(
    toMarkdown(
      "<table><tr><th>K</th><th>V</th></tr><tr><td><h3>Key</h3><p>note</p></td><td>v</td></tr></table>",
    ),
  ).toBe("| K | V |\n| --- | --- |\n| Key<br>note | v |");
  const many = "<tr><th>h</th><th>i</th></tr>".repeat(6);
  expect(toMarkdown(`<table>${many}<tr><td>1</td><td>2</td></tr></table>`)).toStartWith(
    "| h | i |\n| --- | --- |\n| h | i |",
  );
});

test("a table without header cells gets an empty header; a one-column layout table comes out as its blocks", () => {
  expect(toMarkdown("<table><tr><td>a</td><td>b | c</td></tr></table>")).toBe(
    "|   |   |\n| --- | --- |\n| a | b \\| c |",
  );
  expect(toMarkdown("<table><tr><td><h2>Title</h2><p>Para one.</p></td></tr></table>")).toBe(
    "## Title\n\nPara one.",
  );
});

test("a layout table's spacer rows and columns, empty in every cell, are left out", () => {
  // Hacker News: a spacer row between items, a spacer cell in every row.
  const hn =
    '<table><tr class="spacer" style="height:5px"></tr>' +
    '<tr><td align="right">1.</td><td></td><td><a href="https://a.example/">Story one</a></td></tr>' +
    '<tr><td colspan="2"></td><td>17 hours ago</td></tr><tr class="spacer" style="height:5px"></tr>' +
    '<tr><td align="right">2.</td><td> </td><td>Story two</td></tr></table>';
  expect(toMarkdown(hn)).toBe(
    "|   |   |\n| ---: | --- |\n| 1. | [Story one](https://a.example/) |\n|   | 17 hours ago |\n| 2. | Story two |",
  );
  // A column with a heading, or a cell anywhere, stays; so does a table of two columns, one empty.
  expect(
    toMarkdown("<table><tr><th>A</th><th>B</th><th></th></tr><tr><td>1</td><td></td><td>x</td></tr></table>"),
  ).toBe("| A | B |   |\n| --- | --- | --- |\n| 1 |   | x |");
  expect(toMarkdown("<table><tr><td>a</td><td></td></tr><tr><td>b</td><td></td></tr></table>")).toBe(
    "|   |   |\n| --- | --- |\n| a |   |\n| b |   |",
  );
});

test("nested lists keep their levels and numbering", () => {
  expect(
    toMarkdown(
      "<ul><li>one<ul><li>one.a</li><li>one.b<ol><li>deep</li></ol></li></ul></li><li>two</li></ul>",
    ),
  ).toBe("- one\n  - one.a\n  - one.b\n    1. deep\n- two");
});

test("an inline quotation is written in the marks a browser draws, unless the page wrote its own", () => {
  expect(toMarkdown("<p>He said <q>hello <q>there</q> friend</q> and left.</p>")).toBe(
    "He said \u201chello \u2018there\u2019 friend\u201d and left.",
  );
  expect(toMarkdown('<p>She wrote <q>"done"</q>, then "<q>gone</q>" and <q> </q>.</p>')).toBe(
    'She wrote "done", then "gone" and .',
  );
});

test("a figure's caption is set in italics under its image", () => {
  expect(
    toMarkdown(
      '<figure><img src="https://x.example/a.png" alt="A chart"><figcaption>Sales by quarter</figcaption></figure>',
    ),
  ).toBe("![A chart](https://x.example/a.png)\n\n*Sales by quarter*");
});

test("lists and quotes nest 10 levels deep in markdown; deeper ones are plain blocks, their text in order", () => {
  const quotes = Array.from({ length: 14 }, (_, i) => `<blockquote><p>q${i + 1}</p>`).join("");
  const md = toMarkdown(`${quotes}${"</blockquote>".repeat(14)}`);
  const lines = md.split("\n").filter((line) => /q\d/.test(line));
  expect(lines.map((line) => line.replace(/[> ]/g, ""))).toEqual(
    Array.from({ length: 14 }, (_, i) => `q${i + 1}`),
  );
  expect(lines[9]).toBe(`${"> ".repeat(10)}q10`);
  expect(lines[13]).toBe(`${"> ".repeat(10)}q14`);
  const items = toMarkdown(`${"<ul><li>item".repeat(12)}${"</li></ul>".repeat(12)}`).split("\n");
  expect(items[9]).toBe(`${"  ".repeat(9)}- item`);
  expect(items.at(-1)).toBe(`${"  ".repeat(9)}  item`);
});

test("markdown of quotes with text at each of 20,000 levels stays a few times the markup", () => {
  const html = `${"<blockquote>q".repeat(20_000)}${"</blockquote>".repeat(20_000)}`;
  const md = toMarkdown(html);
  expect(md.match(/q/g)?.length).toBe(20_000);
  expect(md.length).toBeLessThan(8 * html.length);
});

test("a long ordered list is numbered item by item", () => {
  const md = toMarkdown(`<ol>${"<li>x</li>".repeat(100_000)}</ol>`).split("\n");
  expect(md[0]).toBe("1. x");
  expect(md[49_999]).toBe("50000. x");
  expect(md.at(-1)).toBe("100000. x");
});

test("a highlighter's wrapper names the language: Sphinx's highlight-x, pandoc's sourceCode x; a default names none", () => {
  const sphinx = (lang: string, code: string) =>
    `<div class="highlight-${lang} notranslate"><div class="highlight"><pre><span></span>${code}</pre></div></div>`;
  expect(toMarkdown(sphinx("python", '<span class="kn">import</span> flask'))).toBe(
    "```python\nimport flask\n```",
  );
  expect(toMarkdown(sphinx("html+jinja", "{{ name }}"))).toBe("```html+jinja\n{{ name }}\n```");
  expect(toMarkdown(sphinx("default", "$ flask run"))).toBe("```\n$ flask run\n```");
  expect(
    toMarkdown(
      '<div class="sourceCode" id="cb1"><pre class="sourceCode haskell"><code class="sourceCode haskell">main = print 1</code></pre></div>',
    ),
  ).toBe("```haskell\nmain = print 1\n```");
  expect(toMarkdown('<div class="highlight highlight-source-rust"><pre>fn main() {}</pre></div>')).toBe(
    "```rust\nfn main() {}\n```",
  );
});

test("a rule inside a list item renders nothing; a rule between blocks stays", () => {
  const md = toMarkdown(
    '<ul><li><div><div><hr></div></div><h4><a href="https://a.example/one">One</a></h4></li><li><hr>Two</li></ul><p>Before</p><hr><p>After</p>',
  );
  expect(md).not.toContain("- * * *");
  expect(md).toContain("- #### [One](https://a.example/one)\n\n- Two\n");
  expect(md).toContain("Before\n\n* * *\n\nAfter");
});

test("a term or caption with emphasis of its own is not wrapped in more", () => {
  expect(toMarkdown("<dl><dt><em>class</em> Station(<em>name</em>)</dt><dd>A gauge.</dd></dl>")).toBe(
    "*class* Station(*name*)\n: A gauge.",
  );
  expect(toMarkdown("<dl><dt>Station</dt><dd>A gauge.</dd></dl>")).toBe("**Station**\n: A gauge.");
  expect(
    toMarkdown(
      '<figure><img src="https://a.example/t.png" alt="Tides"><figcaption><b>Figure 1.</b> Tides by month</figcaption></figure>',
    ),
  ).toBe("![Tides](https://a.example/t.png)\n\n**Figure 1.** Tides by month");
  expect(
    toMarkdown(
      '<figure><img src="https://a.example/t.png" alt="Tides"><figcaption>Tides by month</figcaption></figure>',
    ),
  ).toBe("![Tides](https://a.example/t.png)\n\n*Tides by month*");
});

test("a paragraph or heading drawn as a line of one character is a rule; text with such a run is not", () => {
  expect(toMarkdown("<p>First part.</p><p>___</p><p>Second part.</p>")).toBe(
    "First part.\n\n* * *\n\nSecond part.",
  );
  expect(toMarkdown("<p>One.</p><h2>____________</h2><p>Two.</p>")).toBe("One.\n\n* * *\n\nTwo.");
  expect(toMarkdown("<p>One.</p><div><b>———</b></div><p>Two.</p>")).toBe("One.\n\n* * *\n\nTwo.");
  expect(toMarkdown("<p>Score: ___ out of 10</p>")).toBe("Score: \\_\\_\\_ out of 10");
  expect(toMarkdown("<ul><li><p>Card</p><p>---</p></li></ul>")).not.toContain("* * *");
});

test("a line break first or last in bold, italics or a link goes outside their marks", () => {
  // Editors leave the break inside the element ("<strong>title<br></strong>"): "**title\n**" would not close.
  expect(toMarkdown("<p><strong>Go for whole grains.<br></strong>Whole and intact grains.</p>")).toBe(
    "**Go for whole grains.**\nWhole and intact grains.",
  );
  expect(toMarkdown("<p>Telling a story<i><br>By David Korten</i></p>")).toBe(
    "Telling a story\n*By David Korten*",
  );
  expect(toMarkdown("<p><b>Related posts:<br></b></p>")).toBe("**Related posts:**");
  // A link around bold text and its break, then a bold picture link: neither mark is left open.
  expect(
    toMarkdown(
      '<p>1) Lego set<br><a href="http://a.to/x"><strong>http://a.to/x<br>\n</strong></a><strong><a href="/i.jpg"><img src="/i-300.jpg" alt=""></a></strong><br>2) Race track</p>',
    ),
  ).toBe("1\\) Lego set\n[**http://a.to/x**](http://a.to/x)\n**[![](/i-300.jpg)](/i.jpg)**\n2\\) Race track");
  // Spaces at the edges stay turndown's business: outside the marks, as before.
  expect(toMarkdown("<p>a <strong> spaced </strong> b</p>")).toBe("a **spaced** b");
  // Bold holding only a break keeps the break and no marks.
  expect(toMarkdown("<p>one<strong><br></strong>two</p>")).toBe("one\ntwo");
});

test("bold inside bold adds no marks, and bold beside bold is one run", () => {
  expect(
    toMarkdown("<h3>Made with <strong><strong>30% recycled material</strong></strong> by weight.</h3>"),
  ).toBe("### Made with **30% recycled material** by weight.");
  // An editor's two runs inside one word or phrase.
  expect(
    toMarkdown("<p><strong>5 Tips for Game D</strong><strong>ay Parties:</strong> plan ahead.</p>"),
  ).toBe("**5 Tips for Game Day Parties:** plan ahead.");
  expect(toMarkdown("<ul><li><b>S</b><b>aving time:</b> more time to plan.</li></ul>")).toBe(
    "- **Saving time:** more time to plan.",
  );
  expect(toMarkdown("<p><em>tides</em><i>cape</i> and <i>storms</i></p>")).toBe("*tidescape* and *storms*");
  // Apart (a space, a line break between them, an empty one beside) they keep their own marks.
  expect(toMarkdown("<p><b>Blues 3:</b> <b>Oskar</b></p>")).toBe("**Blues 3:** **Oskar**");
  // Side by side across a line break they are still one run: bold over a line of a paragraph.
  expect(toMarkdown("<p><b>one<br></b><b>two</b></p>")).toBe("**one\ntwo**");
  // Italics inside them meeting at the seam are one run too, so no marks cross.
  expect(toMarkdown("<p><b>Game <i>D</i></b><b><i>ay</i> x</b></p>")).toBe("**Game *Day* x**");
  expect(toMarkdown("<p><b>one</b><b> </b>two</p>")).toBe("**one** two");
});

test("a '<' that markdown would read as a tag is escaped; in code and before other characters it stays", () => {
  expect(toMarkdown("<p>git checkout <em>&lt;commit&gt;</em> -- &lt;file&gt;</p>")).toBe(
    "git checkout *\\<commit>* -- \\<file>",
  );
  expect(toMarkdown("<h1>&lt;table&gt;: The Table element</h1>")).toBe("# \\<table>: The Table element");
  expect(toMarkdown("<p>a &lt; b and 3 &lt;4, <code>&lt;div&gt;</code></p>")).toBe("a < b and 3 <4, `<div>`");
});

test("emphasis around paragraphs leaves their text plain: marks do not reach across them", () => {
  expect(
    toMarkdown("<div><em><p>Why carry a camera at all?</p><p>Because it sees better.</p></em></div>"),
  ).toBe("Why carry a camera at all?\n\nBecause it sees better.");
  // A term holding blocks (a forum's author card) is not bolded across them either.
  expect(
    toMarkdown("<dl><dt><div>Topic Author</div><div>changingtimes</div></dt><dd>Posts: 524</dd></dl>"),
  ).toBe("Topic Author\n\nchangingtimes\n: Posts: 524");
});

test("a heading is one line, an empty one is none, and a link around a heading goes inside its marks", () => {
  expect(toMarkdown("<h2><br><strong>Meal Prep Menu</strong></h2><p>Plan A.</p>")).toBe(
    "## Meal Prep Menu\n\nPlan A.",
  );
  expect(toMarkdown("<h1>Harbour tides<br>A survey of forty harbours</h1>")).toBe(
    "# Harbour tides A survey of forty harbours",
  );
  expect(toMarkdown("<h3>Tides&nbsp;</h3><h2></h2><p>text</p>")).toBe("### Tides\n\ntext");
  expect(toMarkdown('<a href="/author/clear"><h2>James Clear</h2></a>')).toBe(
    "## [James Clear](/author/clear)",
  );
});

test("a list item left without content is no item", () => {
  expect(toMarkdown('<ul><li>tides</li><li></li><li><a href="/x"></a></li><li>storms</li></ul>')).toBe(
    "- tides\n- storms",
  );
  expect(toMarkdown('<ul><li><img src="/a.png" alt="gauge"></li><li> </li></ul>')).toBe("- ![gauge](/a.png)");
});

test("a list item whose first content follows a line break starts on the marker's line", () => {
  // A forum's post items: a header the cleaning removed, then <br>, then the post.
  expect(
    toMarkdown(
      '<ul><li><br><div class="content"><p>Saved routes do not appear.</p></div></li><li><br>\n<p>Try again.</p></li></ul>',
    ),
  ).toBe("- Saved routes do not appear.\n\n- Try again.");
  expect(toMarkdown("<ol><li> <br> <br><p>First.</p><p>More.</p></li></ol>")).toBe("1. First.\n\n   More.");
  expect(toMarkdown("<ul><li><span> </span><br/>after a break</li></ul>")).toBe("- after a break");
  expect(toMarkdown("<ul><li><pre><code>  indented</code></pre></li></ul>")).toBe(
    "- ```\n    indented\n  ```",
  );
});

test("a picture's sources and a video's tracks leave no whitespace at the start of its line", () => {
  expect(
    toMarkdown(
      '<div><picture>\n  <source srcset="/a.webp" type="image/webp">\n  <source srcset="/b.webp">\n  <img src="/a.jpg" alt="Harbour"></picture>\n  <a href="/credit">Photo credit</a></div><p>Tides rose.</p>',
    ),
  ).toBe("![Harbour](/a.jpg) [Photo credit](/credit)\n\nTides rose.");
  expect(toMarkdown('<p>before <video><track src="/a.vtt"> </video> after</p>')).toBe("before after");
});

test("soft hyphens, zero-width spaces, word joiners and byte order marks leave the text; joiners that shape it stay", () => {
  expect(toMarkdown("<p>Ele&shy;ment, pro\u200bgram\u2060ming\ufeff</p>")).toBe("Element, programming");
  // A ZWJ makes one emoji of three; a ZWNJ keeps Persian letters apart: both are the text.
  expect(toMarkdown("<p>\u{1F469}\u200d\u{1F4BB} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645</p>")).toBe(
    "\u{1F469}\u200d\u{1F4BB} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
  );
});

test("no-break spaces ending a line, or filling an empty paragraph, go like trailing spaces", () => {
  expect(toMarkdown("<p>One.&nbsp;</p><p>&nbsp;</p><p>Two&nbsp; &nbsp;</p><p>a&nbsp;b</p>")).toBe(
    "One.\n\nTwo\n\na\u00a0b",
  );
});

test("emphasis around a block adds no marks that would unmake it", () => {
  expect(toMarkdown("<div><b><pre>for x in y:\n    print(x)\ndone</pre></b><p>after</p></div>")).toBe(
    "```\nfor x in y:\n    print(x)\ndone\n```\n\nafter",
  );
  expect(toMarkdown("<div><b><h3>Title</h3></b><p>body</p></div>")).toBe("### Title\n\nbody");
  expect(toMarkdown('<a href="/u"><b><h3>Title</h3></b></a>')).toBe("### [Title](/u)");
  expect(toMarkdown("<div><b><ul><li>a</li><li>b</li></ul></b></div>")).toBe("- a\n- b");
  // Bold beside a bold block: one element, around a block, so no marks at all (none left open).
  expect(toMarkdown("<div><b>Name:</b><b><p>Bob</p></b></div>")).toBe("Name:\n\nBob");
});

test("a '<' ending a text node is escaped: the next node may go on with a tag name", () => {
  expect(toMarkdown("<p>&lt;<span>div</span> class=x&gt;</p>")).toBe("\\<div class=x>");
  expect(toMarkdown("<p>type &lt;<!-- x -->commit&gt;</p>")).toBe("type \\<commit>");
});

// A hang guard: 3,000 breaks took 24 s with an unanchored edge regex and 200,000 no-break spaces
// over a minute in tidyMarkdown; linear passes take milliseconds, far inside the time limit.
test("long runs of line breaks or no-break spaces convert without stalling", () => {
  // Bold over a paragraph break (the breaks) adds no marks.
  expect(toMarkdown(`<p><b>x${"<br>".repeat(3000)}y</b></p>`)).toBe("x\n\ny");
  expect(tidyMarkdown(`x${"\u00a0".repeat(200000)}y\u00a0\nz`)).toBe(`x${"\u00a0".repeat(200000)}y\nz`);
}, 10_000);

// A hang guard: every <br> writes "  \n", and turndown's end trim is quadratic in the run they make
// (20,000 breaks in a row around a bold word took 10 s). The mirror keeps 64 in a row.
test("tens of thousands of line breaks in a row convert without stalling, as a shorter run does", () => {
  const started = performance.now();
  const long = toMarkdown(`<p>a <b>${"<br> ".repeat(20_000)}x${"<br>".repeat(20_000)}</b> y</p>`);
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(long).toBe(toMarkdown(`<p>a <b><br> <br> x<br><br></b> y</p>`));
  expect(long).toBe("a\n\n**x**\n\ny");
}, 30_000);

// A hang guard: turndown's end trim is quadratic in a run of whitespace inside its output (a <pre>
// of 40,000 spaces took 4 s; these 80,000-character runs 30 s).
test("a run of thousands of spaces in code or text is cut to 128 and converts without stalling", () => {
  const md = toMarkdown(`<pre>a${" ".repeat(80_000)}b</pre><p>x${"&nbsp;".repeat(80_000)}y</p>`);
  expect(md).toBe(`\`\`\`\na${" ".repeat(128)}b\n\`\`\`\n\nx${"\u00a0".repeat(128)}y`);
  // Indentation and alignment stay as they are.
  expect(toMarkdown(`<pre>    indented\n${" ".repeat(40)}aligned</pre>`)).toBe(
    `\`\`\`\n    indented\n${" ".repeat(40)}aligned\n\`\`\``,
  );
}, 10_000);

test("tidyMarkdown removes spaces ending any line, and leaves lines without them as they are", () => {
  expect(tidyMarkdown("a b \nc d\t\n\ne\u00a0\u00a0\nf  g")).toBe("a b\nc d\n\ne\nf  g");
  expect(tidyMarkdown("one two\nthree four \u00a0")).toBe("one two\nthree four");
  expect(tidyMarkdown("a \rb\u2028c \u2029d")).toBe("a\rb\u2028c\u2029d");
  expect(tidyMarkdown("a  b\n\n\n\nc \t d")).toBe("a  b\n\nc \t d");
});

test("rules in a row are one, and a rule at the content's start or end goes; code and list items keep theirs", () => {
  expect(toMarkdown("<hr><h1>Features</h1><hr><div></div><hr> <hr><p>Fast.</p><hr><p>Small.</p><hr>")).toBe(
    "# Features\n\n* * *\n\nFast.\n\n* * *\n\nSmall.",
  );
  expect(tidyMarkdown("a\n\n```\n* * *\n\n* * *\n```\n\n* * *\n\n* * *\n\nb")).toBe(
    "a\n\n```\n* * *\n\n* * *\n```\n\n* * *\n\nb",
  );
  expect(tidyMarkdown("```\n* * *")).toBe("```\n* * *");
  expect(tidyMarkdown("x\n\n- * * *\n\n* * *\n\ny")).toBe("x\n\n- * * *\n\n* * *\n\ny");
});

test("a code block's language from its code after a toolbar, or a class naming a known language bare or after a prefix", () => {
  expect(
    toMarkdown(
      '<pre class="playground"><div class="buttons"><button title="Copy"></button></div><code class="language-rust hljs">fn main() {}</code></pre>',
    ),
  ).toBe("```rust\nfn main() {}\n```");
  expect(toMarkdown('<pre class="rust item-decl"><code>pub enum E {}</code></pre>')).toBe(
    "```rust\npub enum E {}\n```",
  );
  expect(
    toMarkdown(
      '<pre class="sp-cm sp-pristine sp-javascript flex"><code><div class="cm-line">let a = 1;</div><div class="cm-line">a++;</div></code></pre>',
    ),
  ).toBe("```javascript\nlet a = 1;\na++;\n```");
  // Layout classes name no language, and neither does a word that only contains one's name.
  expect(toMarkdown('<pre class="text-sm col-12 rusty"><code>plain</code></pre>')).toBe("```\nplain\n```");
});

test("a highlighter's line spans are lines of code, once each, whether or not a line break follows them", () => {
  expect(
    toMarkdown(
      '<pre class="gatsby-code-jsx"><code><span class="gatsby-highlight-code-line">// a comment</span><span class="gatsby-highlight-code-line">useEffect(() =&gt; {</span>\n  run();\n})</code></pre>',
    ),
  ).toBe("```jsx\n// a comment\nuseEffect(() => {\n  run();\n})\n```");
  expect(
    toMarkdown('<pre><code><span class="line">a</span>\n<span class="line">b</span>\n</code></pre>'),
  ).toBe("```\na\nb\n```");
  // Tokens' spans are not lines.
  expect(
    toMarkdown('<pre><code><span class="token keyword">let</span> <span class="token">x</span></code></pre>'),
  ).toBe("```\nlet x\n```");
});

test("a first row set all in bold is the header; a row with one bold figure or mixed bold is not", () => {
  expect(
    toMarkdown(
      "<table><tr><td></td><td><b>What to Do</b></td><td><strong>Why</strong></td></tr><tr><td>1</td><td>Rest</td><td>Heal</td></tr></table>",
    ),
  ).toBe("|   | What to Do | Why |\n| --- | --- | --- |\n| 1 | Rest | Heal |");
  expect(
    toMarkdown(
      "<table><tr><td>Part-time</td><td><b>$455</b>/hour</td></tr><tr><td>Full</td><td>$390</td></tr></table>",
    ),
  ).toBe("|   |   |\n| --- | --- |\n| Part-time | **$455**/hour |\n| Full | $390 |");
  expect(
    toMarkdown(
      "<table><tr><td><b>a</b> and <b>b</b></td><td><b>c</b></td></tr><tr><td>1</td><td>2</td></tr></table>",
    ),
  ).toContain("|   |   |\n| --- | --- |\n| **a** and **b** | **c** |");
  // A table of one bold row has no rows to head.
  expect(toMarkdown("<table><tr><td><b>x</b></td><td><b>y</b></td></tr></table>")).toBe(
    "|   |   |\n| --- | --- |\n| **x** | **y** |",
  );
});

import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { toMarkdown as rootsToMarkdown } from "./markdown.ts";

const md = (html: string): string => rootsToMarkdown(loadHtml(html).root().contents().get());

test("syntax of a line's start is not escaped inside a line", () => {
  // Sphinx signatures put "=" in a span of its own; a list of events puts " - date" after a link.
  expect(
    md(
      '<dl><dt>json.dump(<em>obj</em>, <em>skipkeys<span class="o">=</span><span>False</span></em>)</dt></dl>',
    ),
  ).toBe("json.dump(*obj*, *skipkeys=False*)");
  expect(md('<p><a href="https://e.com/">eCommerce Berlin</a> - February, 17-18</p>')).toBe(
    "[eCommerce Berlin](https://e.com/) - February, 17-18",
  );
  expect(md('<p>in <a href="/y">2019</a>. The end, <span>1. </span>then</p>')).toBe(
    "in [2019](/y). The end, 1. then",
  );
  expect(md("<p>a <span>#</span><span> b</span> <span>&gt; c</span> <span>+ d</span> <i>=== e</i></p>")).toBe(
    "a # b > c + d *=== e*",
  );
  expect(md("<p><strong>Wrote:</strong> - Account switching</p>")).toBe("**Wrote:** - Account switching");
  // What markdown reads anywhere in a line is still escaped there.
  expect(md("<p>a <span>*b* [c] `d` e_ \\f</span></p>")).toBe("a \\*b\\* \\[c\\] \\`d\\` e\\_ \\\\f");
});

test("text that starts a line is escaped, however it is wrapped", () => {
  expect(md("<p>- starts</p><p><span>- in a span</span></p><p><b> </b><span></span>- after blanks</p>")).toBe(
    "\\- starts\n\n\\- in a span\n\n\\- after blanks",
  );
  // A line break, inside the text's own element or an earlier one, starts a line.
  expect(md("<p>a<br>- one</p><p><span>a<br></span>- two</p><p><em>a<br>1. three</em></p>")).toBe(
    "a\n\\- one\n\na\n\\- two\n\n*a\n1\\. three*",
  );
  expect(md("<ul><li>- dash item</li><li><em>1. numbered</em></li></ul>")).toBe(
    "- \\- dash item\n- *1\\. numbered*",
  );
  expect(md("<h3>2. Title</h3>")).toBe("### 2\\. Title");
  // A table cell's text does not start a markdown line (see the test below).
  expect(
    md("<table><tr><th>h</th><th>i</th></tr><tr><td>- cell</td><td>a <span>= b</span></td></tr></table>"),
  ).toContain("| - cell | a = b |");
  // An image or an element of a rule of its own before it: escaped as at a line's start (reads the same).
  expect(md('<p><img src="/a.png" alt="x">- after an image</p>')).toBe("![x](/a.png)\\- after an image");
  expect(md('<p><span>x <span class="katex-display">y</span></span></p>')).toBe("x y");
});

test("a line's dash or equals sign before other text is not escaped; before a space or alone it is", () => {
  expect(md("<p>-56%</p><p>--help</p><p>-Mark Twain, <i>Essays</i></p><p>==x</p>")).toBe(
    "-56%\n\n--help\n\n-Mark Twain, *Essays*\n\n==x",
  );
  expect(md("<ul><li>-5 degrees</li></ul><p><b>-h, --help</b></p>")).toBe("- -5 degrees\n\n**-h, --help**");
  // An item, a lone mark (an empty item) and a text ending at the mark stay escaped.
  expect(md("<p>- item</p><p>-</p><p>=</p><p>-<b>5</b></p>")).toBe("\\- item\n\n\\-\n\n\\=\n\n\\-**5**");
});

test('a line\'s number, ")" item, lone "#" or "+" is escaped: markdown reads them as an empty item or heading', () => {
  // A step's number drawn in a badge of its own ("1." then "1x Camera"), a "1)" list typed as text.
  expect(md("<div><div>1.</div><div>1x Camera</div></div><div>12.</div>")).toBe("1\\.\n\n1x Camera\n\n12\\.");
  expect(md("<p>1)</p><p>2) Second step</p><p>#</p><p>##</p><p>+</p>")).toBe(
    "1\\)\n\n2\\) Second step\n\n\\#\n\n\\##\n\n\\+",
  );
  // Inside a line, or before other text, they stay as written.
  expect(md("<p>Step <span>1.</span></p><p>3.5 stars</p><p>#1 seller</p><p>+5 points</p><p>2024.</p>")).toBe(
    "Step 1.\n\n3.5 stars\n\n#1 seller\n\n+5 points\n\n2024\\.",
  );
});

test("past a long run of empty elements the text is escaped as at a line's start", () => {
  const empties = "<span></span>".repeat(100);
  expect(md(`<p>a${empties}- b</p>`)).toBe("a\\- b");
  expect(md(`<p>a${"<span></span>".repeat(10)}- b</p>`)).toBe("a- b");
});

test("markup turndown parses itself is escaped as turndown does", () => {
  // A link inside a link is rearranged by an HTML5 parser: turndown gets the markup (turndown-input.ts).
  expect(md('<p><a href="/a">x <a href="/b">y</a></a><span>&gt; z</span></p><p>- w</p>')).toBe(
    "[x](/a) [y](/b)\\> z\n\n\\- w",
  );
});

test("a table cell's text is inline: its start is not escaped as a line's", () => {
  expect(
    md(
      "<table><tr><th>Rank</th><th>City</th></tr><tr><td>1.</td><td>- Paris</td></tr><tr><td>19. Rome</td><td>&gt; 5</td></tr><tr><td>2) Oslo<br>+ Bergen</td><td>#</td></tr></table>",
    ),
  ).toBe(
    "| Rank | City |\n| --- | --- |\n| 1. | - Paris |\n| 19. Rome | > 5 |\n| 2) Oslo<br>+ Bergen | \\# |",
  );
  // Where the text does start a line, a list or a quote would be read: escaped as before.
  expect(md("<p>1. para start</p>")).toBe("1\\. para start");
  expect(md("<ul><li>2. inside</li></ul>")).toBe("- 2\\. inside");
  // A layout table's cells are blocks, each starting a line.
  expect(md("<table><tr><td>1. only column</td></tr></table>")).toBe("1\\. only column");
});

test("brackets that cannot be a link and a paragraph's only star are written as the page has them", () => {
  expect(
    md("<p>elsewhere [1-3], and [4].</p><p>Lean on your [site reliability engineer] specialist</p>"),
  ).toBe("elsewhere [1-3], and [4].\n\nLean on your [site reliability engineer] specialist");
  expect(md("<p>Free*</p><p>*See the complete list</p>")).toBe("Free*\n\n*See the complete list");
  // What markdown would read as a link, a reference, a definition, a task box, emphasis or an item stays escaped.
  expect(md("<p>see [x](y), [a][b] and [def]: z</p>")).toBe("see \\[x\\](y), \\[a\\][b] and \\[def\\]: z");
  expect(md("<ul><li>[ ] todo</li><li>[x] done</li></ul>")).toBe("- \\[ \\] todo\n- \\[x\\] done");
  expect(md("<p>Score* of <b>all</b></p>")).toBe("Score\\* of **all**");
  expect(md("<p>a * b * c</p><p>* item-like</p>")).toBe("a \\* b \\* c\n\n\\* item-like");
  // Emphasis never runs from one paragraph into the next.
  expect(md("<p>one *</p><p>and *two</p>")).toBe("one *\n\nand *two");
  // Code, and a paragraph holding a code span, stay as written.
  expect(md("<pre>a\n\nre = r'\\[y\\]*'\n\nb</pre>")).toBe("```\na\n\nre = r'\\[y\\]*'\n\nb\n```");
  expect(md("<pre>[keep] *</pre><p><code>[a]</code> [b] *</p>")).toBe(
    "```\n[keep] *\n```\n\n`[a]` \\[b\\] \\*",
  );
});

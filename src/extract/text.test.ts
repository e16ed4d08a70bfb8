import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { toText } from "./text.ts";

const text = (html: string): string => toText([loadHtml(`<body>${html}</body>`)("body")[0]!]);

test("paragraphs and headings are separated by blank lines, not run together", () => {
  expect(text("<h1>Title</h1><p>First   paragraph.</p><p>Second\nparagraph.</p>")).toBe(
    "Title\n\nFirst paragraph.\n\nSecond paragraph.",
  );
});

test("list items and table rows get their own lines", () => {
  expect(text("<ul><li>one</li><li>two</li></ul>")).toBe("one\ntwo");
  expect(text("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>")).toBe(
    "a\tb\nc\td",
  );
});

test("inline elements stay inline and <br> breaks the line", () => {
  expect(text("<p>Hello <b>bold</b> <a href='#'>link</a>!<br>Next line</p>")).toBe(
    "Hello bold link!\nNext line",
  );
});

test("preformatted text keeps its layout", () => {
  expect(text("<pre>if (x) {\n  y();\n}</pre>")).toBe("if (x) {\n  y();\n}");
});

test("code split into line elements keeps one line per element and its indentation", () => {
  const html =
    '<pre><code><div class="line">if (a) {</div><div class="line">  go();</div><div class="line">}</div></code></pre><p>after</p>';
  expect(toText(loadHtml(html).root().contents().get())).toBe("if (a) {\n  go();\n}\n\nafter");
});

test("soft hyphens and zero-width spaces leave the text, as in the markdown", () => {
  expect(text("<p>Ele&shy;ment pro\u200bgramming \u{1F469}\u200d\u{1F4BB}</p>")).toBe(
    "Element programming \u{1F469}\u200d\u{1F4BB}",
  );
});

// A hang guard: the trailing-space pattern was retried from every space of a run (80,000: 4.5 s).
test("a run of thousands of spaces in code converts without stalling", () => {
  expect(text(`<pre>a${" ".repeat(200_000)}b  \nc</pre>`)).toBe(`a${" ".repeat(200_000)}b\nc`);
}, 10_000);

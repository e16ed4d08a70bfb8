import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { toMarkdown as rootsToMarkdown } from "./markdown.ts";

const md = (html: string): string => rootsToMarkdown(loadHtml(html).root().contents().get());

test("inline code is its text: no emphasis or code marks inside the span", () => {
  // nginx's directive syntax and a man page's placeholders.
  expect(
    md(
      "<p>Syntax: <code><strong>return</strong> <code><i>code</i></code> [<code><i>text</i></code>];</code></p>",
    ),
  ).toBe("Syntax: `return code [text];`");
  expect(md("<p>Run <code>sudo -iu <em>user</em></code> first.</p>")).toBe("Run `sudo -iu user` first.");
  // Its own asterisks and backticks stay as they are, the backticks fenced by longer runs.
  expect(md("<p><code>**kwargs</code> <code>x `y` z</code> <code>`</code></p>")).toBe(
    "`**kwargs` ``x `y` z`` `` ` ``",
  );
  expect(md("<pre><code>block <b>bold</b></code></pre>")).toBe("```\nblock bold\n```");
});

test("a link that is all of an inline code goes around the code", () => {
  // MDN and API references link a type or element name inside <code>.
  expect(md('<p>The <code><a href="/docs/table">table</a></code> element.</p>')).toBe(
    "The [`table`](/docs/table) element.",
  );
  expect(md('<p><code> <a href="/String"><em>String</em></a> </code></p>')).toBe("[`String`](/String)");
  // No target: the code alone. A link beside other code text: markdown has no link inside a span.
  expect(md('<p><code><a href="#x">anchor</a></code> and <code>a<a href="/b">b</a></code></p>')).toBe(
    "`anchor` and `ab`",
  );
  expect(md('<p><a href="/sorted"><code>sorted()</code></a></p>')).toBe("[`sorted()`](/sorted)");
});

test("a long inline code converts in linear time", () => {
  // Starting with a space and ending without one: turndown's own test for padding retried from
  // every character (100,000 words took minutes).
  const started = performance.now();
  expect(md(`<p>a<code> ${"x ".repeat(100_000)}x</code></p>`).length).toBeGreaterThan(200_000);
  expect(performance.now() - started).toBeLessThan(5_000);
}, 10_000);

test("a code block inside another is written once, by the outer block, in linear time", () => {
  expect(md("<pre><code>outer <pre><code>inner</code></pre> end</code></pre>")).toBe(
    "```\nouter inner end\n```",
  );
  // A hang guard: each nested block read all of the outer one's text (seconds where the same
  // nest of boxes took: 2.8 times as long).
  const words = "<b>w</b> ".repeat(150_000);
  const time = (open: string, close: string) => {
    const started = performance.now();
    const out = md(`${open.repeat(250)}${words}${close.repeat(250)}`);
    return { ms: performance.now() - started, out };
  };
  const quotes = time("<div>", "</div>");
  const code = time("<pre><code>", "</code></pre>");
  expect(code.ms / quotes.ms).toBeLessThan(1.8);
  expect(code.out.match(/```/g)?.length).toBe(2);
}, 60_000);

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const page = (body: string) =>
  `<html><head><title>t</title></head><body><main><h1>Tent</h1>${body}</main></body></html>`;
const extract = (body: string, format: "markdown" | "text" = "markdown", formats?: ("markdown" | "html")[]) =>
  extractHtml(page(body), "https://shop.example/tent", {
    format,
    formats,
    onlyMainContent: true,
    images: false,
  });

const row = (label: string, value: string) =>
  `<div class="fact"><div class="labels"><div><span>${label}</span></div></div><div class="values"><div><span>${value}</span></div></div></div>`;

test("a label and its value drawn as boxes of one row read as one line, in markdown and text", () => {
  const body =
    row("Delivery:", "Varies") +
    row("Condition:", "not specified") +
    '<div class="spec">Peak Height: <div class="v"><!----> 76 in. <!----></div></div>' +
    '<ul><li><div>Seasons：</div><div><a href="/s">3-season</a></div></li></ul>' +
    "<div><div>Command:</div><div><code>tent --pitch</code></div></div>";
  const { content } = extract(body);
  expect(content).toContain("Delivery: Varies");
  expect(content).toContain("Condition: not specified");
  expect(content).toContain("Peak Height: 76 in.");
  expect(content).toContain("- Seasons： [3-season](https://shop.example/s)");
  expect(content).toContain("Command: `tent --pitch`");
  const text = extract(body, "text").content;
  expect(text).toContain("Delivery: Varies");
  expect(text).toContain("Peak Height: 76 in.");
});

test("the html format keeps the row's markup as the page has it", () => {
  const { formats } = extract(row("Delivery:", "Varies"), "markdown", ["markdown", "html"]);
  expect(formats?.markdown).toContain("Delivery: Varies");
  expect(formats?.html).toContain('<div class="values"><div><span>Varies</span></div></div>');
});

test("a label above code, a list, stacked lines, a long text or another label stays on its own line", () => {
  const long = "Read the item description or contact the seller for the details of its coverage, please.";
  const { content } = extract(
    "<div><div>Example:</div><div><pre><code>tent --pitch</code></pre></div></div>" +
      "<div><div>Learn how to:</div><div><ul><li>pitch it</li><li>fold it</li></ul></div></div>" +
      "<div><div>Coverage:</div><div><div>Ask the seller.</div><div>(Not eligible)</div></div></div>" +
      `<div><div>Note:</div><div>${long}</div></div>` +
      "<div><div>Filter by:</div><div>Sort by:</div></div>" +
      "<div><p>Size:</p><p>Large</p></div>" +
      "<div><div>Colour: green</div><div>Weight</div></div>" +
      "<ul><li><b>Status:</b>tbc</li></ul>" +
      "<div><div>Size:</div><div>Large</div><div>In stock</div></div>" +
      "<div><div>Address:</div><div>1 Main St<br>Springfield</div></div>" +
      '<blockquote><div class="title">khixxx said:</div><div class="quoted">What pays best?</div></blockquote>',
  );
  expect(content).toContain("Example:\n\n```");
  expect(content).toContain("Learn how to:\n\n- pitch it");
  expect(content).toContain("Coverage:\n\nAsk the seller.\n\n(Not eligible)");
  expect(content).toContain(`Note:\n\n${long}`);
  expect(content).toContain("Filter by:\n\nSort by:");
  // Paragraphs are lines the author wrote apart; a label needs its colon at its end.
  expect(content).toContain("Size:\n\nLarge");
  expect(content).toContain("Colour: green\n\nWeight");
  // A row of inline markup alone reads as the page sets it.
  expect(content).toContain("- Status:tbc");
  // A third line in the row, or a value of two lines, is not one label's value.
  expect(content).toContain("Size:\n\nLarge\n\nIn stock");
  expect(content).toContain("Address:\n\n1 Main St");
  // A quote's title sits above the words it quotes.
  expect(content).toContain("> khixxx said:\n>\n> What pays best?");
});

test("lines of code drawn as boxes stay lines, though one reads as a label", () => {
  const { content } = extract(
    '<pre class="editor"><div class="content"><div>server:</div><div>  port: 80</div></div></pre>',
  );
  expect(content).toContain("```\nserver:\n  port: 80\n```");
});

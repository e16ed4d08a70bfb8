import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const story =
  "<p>The harbour tides rose higher this spring than in any year on record, and the town's sea wall held through every storm.</p>" +
  "<p>Engineers say the wall was built for a sea a foot lower, and the council votes on raising it next month.</p>";
const convert = (body: string, onlyMainContent = true, includeTags?: string[]) =>
  extractHtml(
    `<html><head><title>Tides</title></head><body><article><h1>Tides</h1>${body}</article></body></html>`,
    "https://news.example/tides",
    { format: "markdown", onlyMainContent, images: false, includeTags },
  ).content;

test("a rule opening or closing the content, and a label heading with nothing after it, go, in both modes", () => {
  // A follow box whose icons went, then a closing rule.
  const body = `${story}<hr><div class="follow"><h6>Follow us:</h6><div style="display:none"><a href="/rss">RSS</a></div></div><hr>`;
  for (const only of [true, false]) {
    const md = convert(body, only);
    expect(md).toEndWith("the council votes on raising it next month.");
    expect(md).not.toContain("Follow us:");
  }
  const opened = extractHtml(
    `<html><body><div class="page"><div class="top"><hr></div>${story}</div></body></html>`,
    "https://news.example/tides",
    { format: "markdown", onlyMainContent: false, images: false },
  ).content;
  expect(opened).toStartWith("The harbour tides");
  // A section's title stays though its content is gone: an FAQ's question over an answer a click opens.
  expect(
    convert(
      `${story}<div class="faq"><h3>Can I walk on the wall?</h3><div style="display:none"><p>Yes.</p></div></div>`,
    ),
  ).toEndWith("### Can I walk on the wall?");
});

test("a label heading beside a picture, over one, linking to a page, or all there is, stays", () => {
  expect(convert(`${story}<div class="card"><img src="/a.jpg" alt=""><h3>Wall plans:</h3></div>`)).toEndWith(
    "### Wall plans:",
  );
  expect(convert(`${story}<div class="card"><h3><a href="/b">Council vote:</a></h3></div>`)).toEndWith(
    "### [Council vote:](https://news.example/b)",
  );
  expect(
    convert(
      `${story}<div class="gallery-title"><h2>The wall in pictures:</h2></div><img src="/wall.jpg" alt="The wall">`,
    ),
  ).toEndWith("## The wall in pictures:\n\n![The wall](https://news.example/wall.jpg)");
  const soon = extractHtml(
    '<html><body><div class="page"><div class="notice"><h2>Opening soon:</h2></div></div></body></html>',
    "https://shop.example/",
    { format: "markdown", onlyMainContent: false, images: false },
  ).content;
  expect(soon).toBe("## Opening soon:");
  // What the caller chose is kept as chosen.
  expect(
    convert(`<div class="steps">${story}<div><h2>Next steps:</h2></div></div>`, true, ["div.steps"]),
  ).toEndWith("## Next steps:");
});

import { expect, test } from "bun:test";
import { emojiOf } from "./emoji.ts";
import { extractHtml } from "./index.ts";

test("an image whose alternative text is only emoji is that emoji", () => {
  for (const alt of ["😀", " 👍🏽 ", "🇫🇷", "1️⃣", "👨‍👩‍👧", "❤️🔥"]) expect(emojiOf(alt)).toBe(alt.trim());
  for (const alt of [undefined, "", "2024", "#", "star", "😀 smile", "a😀", "😀".repeat(20)])
    expect(emojiOf(alt)).toBeNull();
});

test("emoji drawn as images read as emoji in markdown and text; other images stay pictures", () => {
  const html =
    "<html><head><title>t</title></head><body><article><h1>Launch</h1><p>" +
    "We shipped it <img class='emoji' alt='🎉' src='https://s.w.org/images/core/emoji/72x72/1f389.png'> " +
    "and the team <img class='wp-smiley' alt='👍🏽' src='/t.png'> agreed, rated <img alt='star' src='/star.svg'> " +
    "by readers of the long post that says what changed and why, with enough words to be the content.</p></article></body></html>";
  const { formats } = extractHtml(html, "https://e.com/p", {
    format: "markdown",
    formats: ["markdown", "text"],
    onlyMainContent: true,
    images: false,
  }) as {
    formats: { markdown: string; text: string };
  };
  expect(formats.markdown).toContain(
    "We shipped it 🎉 and the team 👍🏽 agreed, rated ![star](https://e.com/star.svg) by",
  );
  expect(formats.text).toContain("We shipped it 🎉 and the team 👍🏽 agreed, rated by");
});

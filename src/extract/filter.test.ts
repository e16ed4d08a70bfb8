import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const html = `<body><div class="intro"><p>Intro text</p></div><article><p>Article body</p><aside class="note">Side note</aside></article><div id="extra"><p>Extra text</p></div></body>`;
const run = (includeTags?: string[], excludeTags?: string[]) =>
  extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
    includeTags,
    excludeTags,
  }).content;

test("includeTags keeps only the matching elements, tags and selectors alike", () => {
  expect(run(["article"])).toBe("Article body\n\nSide note");
  expect(run(["#extra", ".intro"])).toBe("Intro text\n\nExtra text");
});

test("excludeTags removes the matching elements", () => {
  const out = run(undefined, ["aside", "#extra"]);
  expect(out).toContain("Article body");
  expect(out).not.toContain("Side note");
  expect(out).not.toContain("Extra text");
});

test("an invalid selector is ignored, not fatal", () => {
  expect(run(undefined, ["[[["])).toContain("Article body");
});

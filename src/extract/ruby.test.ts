import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";
import { parseMarked } from "./marks.ts";

const page = (body: string) =>
  `<html><head><title>t</title></head><body><article><h1>天気</h1><p>今日の天気について、少し長めの文章を書きます。明日も晴れる見込みで、週末は雨が降るかもしれません。</p>${body}</article></body></html>`;
const convert = (body: string, format: "markdown" | "text" | "html") =>
  extractHtml(page(body), "https://news.example/easy", { format, onlyMainContent: true, images: false })
    .content;

test("a ruby reading is set in parentheses after its characters, as its fallback would be", () => {
  const furigana = "<p><ruby>今日<rt>きょう</rt></ruby>は<ruby>晴<rt>は</rt></ruby>れです。</p>";
  expect(convert(furigana, "markdown")).toContain("今日(きょう)は晴(は)れです。");
  expect(convert(furigana, "text")).toContain("今日(きょう)は晴(は)れです。");
  // The marks are <rp> fallbacks: a browser showing the html format still sets the reading above.
  expect(convert(furigana, "html")).toContain("<ruby>今日<rp>(</rp><rt>きょう</rt><rp>)</rp></ruby>");
  // A page's own fallback marks are kept, not doubled; a reading per character too.
  expect(convert("<p><ruby>漢字<rp>（</rp><rt>かんじ</rt><rp>）</rp></ruby>です。</p>", "text")).toContain(
    "漢字（かんじ）です。",
  );
  expect(
    convert("<p><ruby><rb>漢</rb><rt>kan</rt><rb>字</rb><rt>ji</rt></ruby> means.</p>", "markdown"),
  ).toContain("漢(kan)字(ji) means.");
});

test("pages without ruby are not walked for it", () => {
  expect(parseMarked("<p>plain</p>").marks.ruby).toBe(false);
  expect(parseMarked("<ruby>a<rt>b</rt></ruby>").marks.ruby).toBe(true);
  expect(parseMarked("<RUBY>a<RT>b</RT></RUBY>").marks.ruby).toBe(true);
});

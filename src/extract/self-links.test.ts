import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const url = "https://news.example/2019/11/18/gift-guide/?utm_source=feed";
const page = `<html><head><title>Gift guide</title></head><body><article>
  <h1><a href="https://news.example/2019/11/18/gift-guide/?utm_source=feed">Gift guide</a></h1>
  <p>What do you buy for the person who has it all? Read <a href="/2019/11/18/gift-guide/?utm_source=feed#picks">our picks</a>
  below, or the <a href="https://news.example/2019/11/18/gift-guide">guide without the feed's tag</a> and
  <a href="https://news.example/2019/11/17/deals/">yesterday's deals</a> for more gifts to give this winter.</p>
  <p>Every pick was tried by an editor for a week before it made the list, and the prices were checked on the day.</p>
</article></body></html>`;

test("a link to the page itself is its text in markdown; the html format keeps the page's link", () => {
  const { formats } = extractHtml(page, url, {
    format: "markdown",
    formats: ["markdown", "html"],
    onlyMainContent: true,
    images: false,
  });
  const md = formats!.markdown!;
  expect(md).toStartWith("# Gift guide\n");
  expect(md).toContain("Read our picks below");
  // Another address (here without the query) is another page, as is another story.
  expect(md).toContain("[guide without the feed's tag](https://news.example/2019/11/18/gift-guide)");
  expect(md).toContain("[yesterday's deals](https://news.example/2019/11/17/deals/)");
  expect(formats!.html).toContain(
    '<a href="https://news.example/2019/11/18/gift-guide/?utm_source=feed">Gift guide</a>',
  );
});

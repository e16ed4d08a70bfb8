import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

test("relative URLs resolve against <base href>, else against the page URL", () => {
  const html = `<html><head><base href="https://cdn.example/docs/"></head><body><p>Read the <a href="guide.html">guide</a>.</p></body></html>`;
  const { content } = extractHtml(html, "https://site.example/a/b", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("[guide](https://cdn.example/docs/guide.html)");
  const plain = extractHtml('<body><p><a href="../up">up</a></p></body>', "https://site.example/a/b/c", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  });
  expect(plain.content).toContain("(https://site.example/a/up)");
});

test("html format returns cleaned HTML", () => {
  const { content } = extractHtml(
    '<body><script>x()</script><p class="lead">Hi</p></body>',
    "https://x.example/",
    {
      format: "html",
      onlyMainContent: false,
      images: false,
    },
  );
  expect(content).toContain('<p class="lead">Hi</p>');
  expect(content).not.toContain("<script");
  // Written in UTF-8, as a browser's innerHTML: only what markup needs is escaped.
  const utf8 = extractHtml(
    '<body><p title="é &quot;q&quot;">今日は café &amp; &lt;b&gt;&nbsp;x</p></body>',
    "https://x.example/",
    { format: "html", onlyMainContent: false, images: false },
  ).content;
  expect(utf8).toContain('<p title="é &quot;q&quot;">今日は café &amp; &lt;b&gt;&nbsp;x</p>');
});

test("markup after </body> is content, as in a browser", () => {
  const html = "<html><body><p>Before</p></body></html><p>After the closing tag</p>";
  const { content } = extractHtml(html, "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(content).toContain("After the closing tag");
});

test("title, metadata and links come from the original page, navigation included", () => {
  const html = `<html><head><title>Home | Shop</title><meta name="description" content="Shoes"></head>
    <body><nav><a href="/about">About</a></nav><p>Welcome</p></body></html>`;
  const doc = extractHtml(html, "https://shop.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(doc.title).toBe("Home | Shop");
  expect(doc.metadata.description).toBe("Shoes");
  expect(doc.links).toContain("https://shop.example/about");
  expect(doc.content).not.toContain("About");
});

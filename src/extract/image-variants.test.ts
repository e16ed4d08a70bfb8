import { expect, test } from "bun:test";
import { imageIdentity } from "./image-variants.ts";
import { extractHtml } from "./index.ts";

const markdown = (body: string) =>
  extractHtml(`<html><body><main>${body}</main></body></html>`, "https://news.example/list", {
    format: "markdown",
    onlyMainContent: false,
    images: false,
  }).content;

test("an image's other sizes are dropped: same alt, same file name without the size", () => {
  const card = (id: string, title: string) =>
    `<article><a href="/a/${id}"><img data-src="/picture/lg_${id}.jpg?t=1" alt="${title}" width="640"></a>` +
    `<h2><a href="/a/${id}">${title}</a></h2><p>A summary of ${title.toLowerCase()} for readers.</p>` +
    `<div class="list-image"><a href="/a/${id}"><img data-src="/picture/sm_${id}.jpg?t=1" alt="${title}" width="320"></a></div></article>`;
  const md = markdown(card("153191394", "Elevating the model") + card("153192989", "The office toolkit"));
  expect(md.match(/!\[Elevating the model\]/g)).toHaveLength(1);
  expect(md.match(/!\[The office toolkit\]/g)).toHaveLength(1);
  expect(md).toContain("](https://news.example/picture/lg_153191394.jpg?t=1)");
  expect(md).not.toContain("sm_153191394");
});

test("different pictures stay, even with the same alt text or the same file name", () => {
  const md = markdown(
    '<p><img src="/a/photo-640x480.jpg" alt="Harbour"><img src="/b/other-640x480.jpg" alt="Harbour">' +
      '<img src="/c/photo.jpg" alt="Boats"><img src="/d/photo.jpg" alt=""><img src="/e/photo.jpg"></p>',
  );
  expect(md.match(/!\[/g)).toHaveLength(5);
});

test("the size in a file name is what tells sizes apart", () => {
  expect(imageIdentity("https://a.example/p/lg_153.jpg")).toBe("153.jpg");
  expect(imageIdentity("https://a.example/p/thumb-153.jpg")).toBe("153.jpg");
  expect(imageIdentity("https://a.example/p/photo-640x480.jpg")).toBe("photo.jpg");
  expect(imageIdentity("https://a.example/p/photo@2x.png")).toBe("photo.png");
  expect(imageIdentity("https://a.example/p/photo_large.webp?w=1")).toBe("photo.webp");
  expect(imageIdentity("https://a.example/p/photo-1200w.webp")).toBe("photo.webp");
  expect(imageIdentity("https://a.example/p/lagoon.jpg")).toBe("lagoon.jpg");
  expect(imageIdentity("https://a.example/")).toBeNull();
});

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

test("images are absolute, deduplicated, typed, without data: URIs or tracking pixels", () => {
  const html = `<html><head><base href="https://cdn.example/assets/"></head><body><article>
    <p>Photo essay about the harbour at dawn.</p>
    <img src="a.jpg" alt="Harbour" title="Dawn" width="800" height="600">
    <img src="a.jpg" alt="Harbour again">
    <img src="data:image/png;base64,iVBOR" alt="inline">
    <img src="https://track.example/p.gif" width="1" height="1">
    <img data-src="/lazy.jpg" src="data:image/gif;base64,R0l" alt="Lazy">
  </article></body></html>`;
  const { images } = extractHtml(html, "https://site.example/post", {
    format: "markdown",
    onlyMainContent: false,
    images: true,
  });
  expect(images).toEqual([
    { src: "https://cdn.example/assets/a.jpg", alt: "Harbour", title: "Dawn", width: 800, height: 600 },
    { src: "https://cdn.example/lazy.jpg", alt: "Lazy", title: null, width: null, height: null },
  ]);
});

test("no images field unless asked", () => {
  const { images } = extractHtml("<body><img src='/a.jpg'></body>", "https://x.example/", {
    format: "text",
    onlyMainContent: false,
    images: false,
  });
  expect(images).toBeUndefined();
});

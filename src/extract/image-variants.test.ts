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

test("an image optimizer's URL is the picture its url parameter names: a card's hover image twice shows once", () => {
  expect(imageIdentity("https://shop.example/_next/image/?url=%2Fimg%2Fdesk-640x640.jpg&w=3840&q=100")).toBe(
    "desk.jpg",
  );
  expect(
    imageIdentity("https://shop.example/_next/image?url=https%3A%2F%2Fcdn.example%2Fp%2Fdesk.jpg&w=640"),
  ).toBe("desk.jpg");
  expect(imageIdentity("https://shop.example/_next/image/?w=640")).toBeNull();
  const hover = (w: number) =>
    `<img alt="Bamboo board hover image" src="/_next/image/?url=https%3A%2F%2Fcdn.example%2Frollover%2Fbamboo.jpg&amp;w=${w}&amp;q=100">`;
  const card = (w: number) =>
    `<a href="/bamboo"><img alt="bamboo" src="/_next/image/?url=https%3A%2F%2Fcdn.example%2Fproduct%2Fbamboo.jpg&amp;w=${w}"><div class="blur">${hover(w)}</div>${hover(w)}</a><a href="/bamboo">Bamboo board</a>`;
  const md = markdown(
    `<h1>Accessories</h1><p>Boards and mats for standing desks, in bamboo and cork.</p>${card(3840)}`,
  );
  expect(md.match(/!\[Bamboo board hover image\]/g)).toHaveLength(1);
  expect(md.match(/!\[bamboo\]/g)).toHaveLength(1);
});

test("a picture drawn for each colour scheme shows once, the one for the default (light) scheme", () => {
  expect(imageIdentity("https://docs.example/img/flow.dark.png")).toBe("flow.png");
  expect(imageIdentity("https://docs.example/img/logo-light-mode.svg")).toBe("logo.svg");
  expect(imageIdentity("https://docs.example/img/darkroom.png")).toBe("darkroom.png");
  const pair = (name: string, alt: string) =>
    `<span class="dark-only"><img alt="${alt}" src="/_next/image?url=%2Fimg%2F${name}.dark.png&amp;w=828"></span>` +
    `<span class="light-only"><img alt="${alt}" src="/_next/image?url=%2Fimg%2F${name}.png&amp;w=828"></span>`;
  const md = markdown(
    `<h1>Sharing state</h1><p>The parent holds the count and passes it down to both buttons.</p>${pair("child", "A tree of three components")}<p>Then a click updates it.</p>${pair("child_clicked", "A tree of three components")}`,
  );
  expect(md.match(/!\[A tree of three components\]/g)).toHaveLength(2);
  expect(md).toContain("%2Fimg%2Fchild.png");
  expect(md).toContain("%2Fimg%2Fchild_clicked.png");
  expect(md).not.toContain(".dark.png");
});

test("a resizing script's URL is the picture its parameter names; one naming no picture file names none", () => {
  expect(imageIdentity("https://cars.example/image.php?src=/images/posts/post16613_6.jpg&w=660")).toBe(
    "post16613_6.jpg",
  );
  expect(
    imageIdentity("https://cars.example/timthumb.php?w=300&src=https://cars.example/up/lc-500-640x480.jpg"),
  ).toBe("lc-500.jpg");
  expect(imageIdentity("https://cars.example/image.php?id=7")).toBeNull();
  // The lead photo and a photo further down share their alt text, and the script that serves them.
  const alt = "Lexus wants you to go topless";
  const md = markdown(
    `<h1>LC 500 Convertible</h1><img alt="${alt}" src="/image.php?src=/images/posts/post16613.jpg&amp;w=1280">` +
      `<p>Lexus revealed the convertible at the Los Angeles show, with a folding soft-top.</p>` +
      `<img alt="${alt}" src="/image.php?src=/images/posts/post16613_6.jpg&amp;w=660">` +
      `<img alt="${alt}" src="/image.php?id=8"><img alt="${alt}" src="/image.php?id=9">`,
  );
  expect(md.match(/!\[Lexus wants you to go topless\]/g)).toHaveLength(4);
});

test("an optimizer's URL inside another's names its picture; a URL nesting itself thousands of times costs no more than its length", () => {
  const inner = encodeURIComponent("https://cdn.example/image.php?src=/img/desk-640x640.jpg&w=640");
  expect(imageIdentity(`https://shop.example/_next/image?url=${inner}&w=300`)).toBe("desk.jpg");
  // Each level parsed what was left of the URL: 20 such images took 17 s; one pass each takes milliseconds.
  const src = `https://cdn.example/a.jpg${"?u=a.jpg".repeat(4000)}`;
  const started = performance.now();
  const md = markdown(
    `<h1>Nested</h1><p>${"A paragraph of words. ".repeat(8)}</p>${`<img src="${src}" alt="A">`.repeat(20)}`,
  );
  expect(performance.now() - started).toBeLessThan(4000);
  expect(md).toContain("![A](https://cdn.example/a.jpg?u=a.jpg");
});

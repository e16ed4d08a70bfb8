import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const q = (html: string) =>
  extractHtml(html, "https://x.example/", { format: "markdown", onlyMainContent: true, images: false })
    .quality;

test("an empty page scores 0 and an error page scores low", () => {
  expect(q("<html><body></body></html>")).toBe(0);
  expect(q("<body><h1>403 Forbidden</h1><p>Access denied.</p></body>")).toBeLessThan(0.3);
});

test("a real article scores high, a page of links scores lower", () => {
  const article = `<body><article><h1>Bridges</h1>${"<p>Engineers inspected the old suspension bridge and found that the cables had corroded far more than expected, so the council closed it.</p>".repeat(10)}</article></body>`;
  const links = `<body><ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="/p${i}">Page ${i}</a></li>`).join("")}</ul></body>`;
  expect(q(article)).toBeGreaterThan(0.75);
  expect(q(links)).toBeLessThan(q(article) - 0.3);
});

import { expect, test } from "bun:test";
import { resolveHref } from "./resolve.ts";

const parse = (href: string, base: string): string | null => {
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
};

const BASES = [
  "https://a.example/docs/page.html",
  "https://a.example/other/",
  "https://user:pw@a.example:8443/x/y",
  "http://a.example/docs/",
  "https://b.example/",
  "https://a.example?q=1/2",
  "file:///tmp/page.html",
];

const HREFS = [
  "/about",
  "/about#team",
  "//b.example/x",
  "/\\b.example/x",
  "/\t/c.example/x",
  "/a/../b/./c?x=1",
  "https://a.example//b.example/x",
  "https://c.example/path",
  "https://c.example/other#frag",
  "http://c.example",
  "HTTPS://c.example/Upper",
  "page-2.html",
  "../up",
  "?page=2",
  "https:relative",
  "/%zz bad",
  "https://[bad/",
];

test("every href resolves as new URL resolves it, whichever base asked first", () => {
  // Twice, in both orders, so remembered answers are checked against every other base.
  for (const bases of [BASES, [...BASES].reverse(), BASES]) {
    for (const base of bases)
      for (const href of HREFS)
        expect(`${href} @ ${base} -> ${resolveHref(href, base)}`).toBe(
          `${href} @ ${base} -> ${parse(href, base)}`,
        );
  }
});

test("a rooted href follows the base's host and scheme, not the first base it was seen with", () => {
  expect(resolveHref("/x", "https://a.example/1")).toBe("https://a.example/x");
  expect(resolveHref("/x", "https://b.example/1")).toBe("https://b.example/x");
  expect(resolveHref("//c.example/x", "http://a.example/")).toBe("http://c.example/x");
  expect(resolveHref("//c.example/x", "https://a.example/")).toBe("https://c.example/x");
});

test("rooted hrefs resolve right across the clearing of the remembered ones", () => {
  // More distinct hrefs than are remembered, on bases of two hosts taking turns (a page of each).
  for (let i = 0; i < 6000; i++) {
    const base = i % 2 ? `https://a.example/p/${i}` : `http://b.example:8080/q/${i}`;
    const href = `/item/${i % 4500}?n=${i % 7}`;
    expect(resolveHref(href, base)).toBe(new URL(href, base).href);
  }
});

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extractHtml } from "../../src/extract/index.ts";

/**
 * The text format of the golden pages (test/fixtures/pages/<slug>): the
 * plain text a reader should get, in expected.txt (whole page) and
 * expected.main.txt (onlyMainContent); test/golden.test.ts checks the
 * markdown. And for every golden page, the text holds the same words as the
 * markdown, in the same order: the same content without markdown's syntax;
 * and the default mode holds the main content's words, in order.
 */
const root = join(import.meta.dir, "..", "fixtures", "pages");
const normalize = (s: string): string => s.replace(/[ \t]+$/gm, "").trim();

/** Markdown's words without its syntax: link targets, fences, list markers and numbers, task boxes, escapes. */
function markdownWords(md: string): string[] {
  const text = md
    .replace(/^(`{3,}|~{3,}).*$/gm, "")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[((?:[^[\]]|\[[^\]]*\])*)\]\([^)]*\)/g, "$1")
    .replace(/^(\s*)(?:[-*+]|\d+\.)\s+(?:\[[ x]\]\s+)?/gm, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~<"'=:$&%@^])/g, "$1");
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

const words = (s: string): string[] => s.match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether `part` appears in `whole` in order, other words allowed between. */
function inOrder(part: string[], whole: string[]): boolean {
  let i = 0;
  for (const w of whole) if (i < part.length && part[i] === w) i++;
  return i === part.length;
}

describe.each(readdirSync(root).sort())("%s", (slug) => {
  const html = readFileSync(join(root, slug, "source.html"), "utf8");
  const url = `https://${slug}.example/page`;
  test("the default mode holds every word of the main content, in order", () => {
    const page = (onlyMainContent: boolean) =>
      words(extractHtml(html, url, { format: "text", onlyMainContent, images: false }).content);
    const main = page(true);
    expect(main.length).toBeGreaterThan(0);
    expect(inOrder(main, page(false))).toBe(true);
  });
  for (const onlyMainContent of [false, true]) {
    const mode = onlyMainContent ? "main content" : "default";
    const file = onlyMainContent ? "expected.main.txt" : "expected.txt";
    const path = join(root, slug, file);
    const { content: text, formats } = extractHtml(html, url, {
      format: "text",
      formats: ["markdown"],
      onlyMainContent,
      images: false,
    });
    if (existsSync(path)) {
      test(`${mode} text matches ${file}`, () => {
        expect(normalize(text)).toBe(normalize(readFileSync(path, "utf8")));
      });
    }
    test(`${mode}: text has the markdown's words, without its syntax`, () => {
      expect(words(text)).toEqual(markdownWords(formats!.markdown!));
    });
  }
});

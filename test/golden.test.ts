import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extractHtml } from "../src/extract/index.ts";

/**
 * Golden pages: each folder under test/fixtures/pages holds a hand-written
 * page (source.html) and the markdown a reader should get from it:
 * expected.md for the default mode (whole page, boilerplate removed) and
 * expected.main.md, when present, for onlyMainContent.
 */
const root = join(import.meta.dir, "fixtures", "pages");
const normalize = (s: string): string => s.replace(/[ \t]+$/gm, "").trim();

describe.each(readdirSync(root).sort())("%s", (slug) => {
  const html = readFileSync(join(root, slug, "source.html"), "utf8");
  const url = `https://${slug}.example/page`;
  const cases: [string, boolean][] = [
    ["expected.md", false],
    ["expected.main.md", true],
  ];
  for (const [file, onlyMainContent] of cases) {
    const path = join(root, slug, file);
    if (!existsSync(path)) continue;
    test(`${onlyMainContent ? "main content" : "default"} matches ${file}`, () => {
      const { content } = extractHtml(html, url, { format: "markdown", onlyMainContent, images: false });
      expect(normalize(content)).toBe(normalize(readFileSync(path, "utf8")));
    });
  }
});

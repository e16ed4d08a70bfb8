import { afterAll, describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { extractHtml } from "./index.ts";
import { createExtractorPool } from "./pool.ts";
import type { ExtractOptions } from "./types.ts";

const options: ExtractOptions = { format: "markdown", onlyMainContent: true, images: false };
const page = (n: number) =>
  `<html><head><title>Page ${n}</title></head><body><nav><a href="/">Home</a></nav>` +
  `<article><h1>Heading ${n}</h1><p>${"Paragraph text of the article. ".repeat(20)}</p>` +
  `<p><a href="/next/${n}">Next page</a></p></article><footer>Footer</footer></body></html>`;

describe("extraction worker pool", () => {
  const pool = createExtractorPool(2);
  afterAll(() => pool.close());

  test("gives what extractHtml gives in this thread, page for page, under parallel load", async () => {
    const pages = Array.from({ length: 40 }, (_, n) => page(n));
    const docs = await Promise.all(pages.map((html) => pool.extract(html, "https://a.test/x", options)));
    docs.forEach((doc, n) => {
      expect(doc).toEqual(extractHtml(pages[n] as string, "https://a.test/x", options));
      expect(doc.title).toBe(`Page ${n}`);
      expect(doc.content).toContain("Paragraph text of the article.");
      expect(doc.links).toContain(`https://a.test/next/${n}`);
    });
  });

  test("an extraction that throws in the worker rejects with its message, and the pool goes on", async () => {
    const notHtml = null as unknown as string;
    expect(() => extractHtml(notHtml, "https://a.test/", options)).toThrow(/expects a string/);
    await expect(pool.extract(notHtml, "https://a.test/", options)).rejects.toThrow(/expects a string/);
    expect((await pool.extract(page(2), "https://a.test/", options)).title).toBe("Page 2");
  });

  test("chunks made on a worker are the ones made in this thread; a bad option is the caller's 400", async () => {
    const { chunkMarkdown } = await import("../chunks/index.ts");
    const markdown = `# Guide\n\n${"Tide mills grind on the ebb. ".repeat(60)}\n\n## Install\n\nRun it.`;
    const task = { markdown, page: { url: "https://a.test/g", title: "Guide" }, options: { maxTokens: 64 } };
    const chunks = await pool.chunk(task);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks).toEqual(chunkMarkdown(markdown, task.page, task.options));
    const refused = await pool.chunk({ ...task, options: { maxTokens: 8 } }).catch((error) => error);
    expect(refused).toBeInstanceOf(SiphonError);
    expect((refused as SiphonError).type).toBe("invalid_request");
    expect((await pool.extract(page(4), "https://a.test/", options)).title).toBe("Page 4");
  });

  test("after close, pages are extracted in the calling thread", async () => {
    const closed = createExtractorPool(1);
    closed.close();
    expect((await closed.extract(page(3), "https://a.test/", options)).title).toBe("Page 3");
  });
});

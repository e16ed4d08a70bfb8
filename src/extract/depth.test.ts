import { describe, expect, test } from "bun:test";
import render from "dom-serializer";
import type { AnyNode, Element, ParentNode } from "domhandler";
import { textContent } from "domutils";
import { parseDocument } from "htmlparser2";
import { MAX_DOM_DEPTH, parseBounded } from "./depth.ts";
import { extractHtml } from "./index.ts";

const SENTENCE = "The deepest sentence survives.";

/** Depth of the deepest node under `root` (its children are at depth 1), walked without recursion. */
function maxDepth(root: ParentNode): number {
  let max = 0;
  const stack: [AnyNode, number][] = root.children.map((c) => [c, 1]);
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    max = Math.max(max, depth);
    if ("children" in node) for (const c of node.children) stack.push([c, depth + 1]);
  }
  return max;
}

function byId(root: ParentNode, id: string): Element {
  const stack: AnyNode[] = [...root.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "tag" && node.attribs.id === id) return node;
    if ("children" in node) stack.push(...node.children);
  }
  throw new Error(`no #${id}`);
}

const deepPage = (levels: number, inner: string): string =>
  `<!doctype html><html><head><title>Deep</title></head><body>${"<div>".repeat(levels)}${inner}${"</div>".repeat(levels)}</body></html>`;

describe("parseBounded", () => {
  test("200,000 nested <div> parse into a tree no deeper than a browser's, the sentence kept", () => {
    const doc = parseBounded(deepPage(200_000, `<p>${SENTENCE}</p>`));
    // Elements stop at MAX_DOM_DEPTH; the text inside the deepest one is one level below.
    expect(maxDepth(doc)).toBe(MAX_DOM_DEPTH + 1);
    expect(textContent(doc)).toBe(`Deep${SENTENCE}`);
    // Every later walk is now safe, the libraries' recursive ones included.
    expect(render(doc).length).toBeGreaterThan(200_000 * "<div></div>".length);
  });

  test("an element opened past the bound goes beside the deepest one, as Chromium's parser puts it", () => {
    // html and body are levels 1 and 2, so div d<i> sits at level i + 3 while nesting lasts.
    const ids = Array.from({ length: MAX_DOM_DEPTH + 5 }, (_, i) => `<div id="d${i}">`).join("");
    const doc = parseBounded(`<html><body>${ids}</body></html>`);
    const last = MAX_DOM_DEPTH - 3;
    expect(byId(doc, `d${last}`).parent).toBe(byId(doc, `d${last - 1}`));
    expect(byId(doc, `d${last + 1}`).parent).toBe(byId(doc, `d${last - 1}`));
    expect(byId(doc, `d${last + 2}`).prev).toBe(byId(doc, `d${last + 1}`));
    expect(byId(doc, `d${last + 1}`).next).toBe(byId(doc, `d${last + 2}`));
  });

  test("text keeps its document order when elements went beside its element", () => {
    const doc = parseBounded(
      `${"<div>".repeat(600)}one <b>two</b> three <i>four</i> five${"</div>".repeat(600)}`,
    );
    expect(textContent(doc).replace(/\s+/g, " ")).toBe("one two three four five");
    expect(maxDepth(doc)).toBeLessThanOrEqual(MAX_DOM_DEPTH + 1);
  });

  test("a page within the bound is exactly the tree htmlparser2 builds", () => {
    const page = `<!doctype html><html><head><title>T &amp; co</title></head><body>${"<section>".repeat(400)}<p>Hello <b>bold<p>implied</p> <img src=a.png> &nbsp;<!-- c --></section><script>if (a < b) x()</script></body></html>`;
    expect(render(parseBounded(page, { decodeEntities: true }))).toBe(
      render(parseDocument(page, { decodeEntities: true })),
    );
  });

  test("XML nested 200,000 deep is bounded too, names kept as written", () => {
    const doc = parseBounded(
      `<root>${"<Item>".repeat(200_000)}${SENTENCE}${"</Item>".repeat(200_000)}</root>`,
      {
        xmlMode: true,
      },
    );
    expect(maxDepth(doc)).toBe(MAX_DOM_DEPTH + 1);
    expect((doc.children[0] as Element).name).toBe("root");
    expect(textContent(doc)).toBe(SENTENCE);
  });

  test("not a string is a TypeError, as cheerio's load throws", () => {
    expect(() => parseBounded(null as unknown as string)).toThrow(TypeError);
  });
});

describe("extractHtml on deep pages", () => {
  const page = deepPage(200_000, `<p>${SENTENCE}</p>`);
  for (const onlyMainContent of [true, false]) {
    test(`200,000 levels, onlyMainContent ${onlyMainContent}: the sentence in markdown, text and html`, () => {
      const doc = extractHtml(page, "https://deep.test/", {
        format: "markdown",
        formats: ["markdown", "text", "html"],
        onlyMainContent,
        images: false,
      });
      expect(doc.title).toBe("Deep");
      expect(doc.formats?.markdown).toBe(SENTENCE);
      expect(doc.formats?.text).toBe(SENTENCE);
      expect(doc.formats?.html).toContain(`<p>${SENTENCE}</p>`);
    });
  }

  test("a deep part does not cost the normal content before and after it", () => {
    const filler = "Plain words of the article that a reader came for. ".repeat(8);
    const html = `<html><head><title>Mixed</title></head><body><nav><a href="/">Home</a></nav><main><h1>Mixed page</h1><p>Before: ${filler}</p>${"<div>".repeat(50_000)}<p>${SENTENCE}</p>${"</div>".repeat(50_000)}<p>After: ${filler}</p></main><footer>Footer text</footer></body></html>`;
    for (const onlyMainContent of [true, false]) {
      const { content } = extractHtml(html, "https://deep.test/", {
        format: "markdown",
        onlyMainContent,
        images: false,
      });
      expect(content).toContain("# Mixed page");
      expect(content.indexOf("Before:")).toBeLessThan(content.indexOf(SENTENCE));
      expect(content.indexOf(SENTENCE)).toBeLessThan(content.indexOf("After:"));
    }
  });

  test("a product description declared in JSON-LD as 200,000 nested elements is read, not overflowed", () => {
    const description = `${"<span>".repeat(200_000)}${SENTENCE} ${"Soft cotton shirt with long sleeves and a pocket. ".repeat(3)}${"</span>".repeat(200_000)}`;
    const ld = JSON.stringify({ "@type": "Product", name: "Shirt", description });
    const html = `<html><head><title>Shirt</title><script type="application/ld+json">${ld}</script></head><body><main><h1>Shirt</h1><p>Price: 20 EUR</p></main></body></html>`;
    const { content } = extractHtml(html, "https://deep.test/", {
      format: "markdown",
      onlyMainContent: true,
      images: false,
    });
    expect(content).toContain(SENTENCE);
  });

  test("a Product in JSON-LD wrapped in 200,000 nested arrays is still found (its description added)", () => {
    const product = JSON.stringify({
      "@type": "Product",
      name: "Shirt",
      description: `${SENTENCE} ${"Soft cotton shirt with long sleeves and a pocket. ".repeat(3)}`,
    });
    const ld = `${"[".repeat(200_000)}${product}${"]".repeat(200_000)}`;
    const html = `<html><head><title>Shirt</title><script type="application/ld+json">${ld}</script></head><body><main><h1>Shirt</h1><p>Price: 20 EUR</p></main></body></html>`;
    const { content } = extractHtml(html, "https://deep.test/", {
      format: "text",
      onlyMainContent: true,
      images: false,
    });
    expect(content).toContain(SENTENCE);
  });
});

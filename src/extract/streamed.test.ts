import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const OPTIONS = { format: "markdown" as const, onlyMainContent: false, images: false };

/** The page's markdown in both modes. */
function both(html: string): { main: string; page: string } {
  return {
    main: extractHtml(html, "https://shop.example/p/1", { ...OPTIONS, onlyMainContent: true }).content,
    page: extractHtml(html, "https://shop.example/p/1", OPTIONS).content,
  };
}

const DETAILS =
  "<p>A relaxed linen shirt, washed for softness, with a camp collar and a straight hem to wear untucked on warm evenings by the sea.</p>" +
  "<p>Made of European flax, woven in Portugal and garment-dyed in small batches so that every shirt has a colour of its own.</p>";

// The inline runtime as React serves it: the definitions never match an instruction.
const RUNTIME =
  "<script>$RC=function(b,c,e){c=document.getElementById(c);c.parentNode.removeChild(c)};$RS=function(a,b){a=document.getElementById(a)}</script>";

test("a boundary's streamed content replaces its fallback, in its place", () => {
  const html = `<html><head><title>Linen shirt</title></head><body><header><a href="/">Shop</a></header>
    <main><!--$?--><template id="B:0"></template><p>Loading the product…</p><!--/$--><p>Free returns within 30 days on every order placed from this page.</p></main>
    ${RUNTIME}<div hidden id="S:0"><h1>Linen shirt</h1>${DETAILS}</div><script>$RC("B:0","S:0")</script></body></html>`;
  for (const markdown of Object.values(both(html))) {
    expect(markdown).toContain("# Linen shirt");
    expect(markdown).toContain("A relaxed linen shirt");
    expect(markdown).not.toContain("Loading the product");
    // In the fallback's place: before the shell's own text that follows it.
    expect(markdown.indexOf("European flax")).toBeLessThan(markdown.indexOf("Free returns"));
  }
});

test("a segment replaces its placeholder, with ids that differ from the boundary's", () => {
  const html = `<html><body><main><h1>Linen shirt</h1><!--$?--><template id="B:1"></template><p>Loading…</p><!--/$-->
    <section><h2>Care</h2><template id="P:4"></template></section></main>
    <div hidden id="S:3">${DETAILS}</div><script>$RC("B:1","S:3")</script>
    <div hidden id="S:4"><p>Machine wash cold with like colours, tumble dry low, and iron on the reverse while still damp.</p></div>
    <script>$RS("S:4","P:4")</script></body></html>`;
  const { main, page } = both(html);
  for (const markdown of [main, page]) {
    expect(markdown).toContain("European flax");
    expect(markdown).toContain("## Care\n\nMachine wash cold");
    expect(markdown).not.toContain("Loading");
  }
});

test("a boundary nested in streamed content is filled once its segment is in place", () => {
  const html = `<html><body><main><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--></main>
    <div hidden id="S:0"><h1>Linen shirt</h1><!--$?--><template id="B:1"></template><p>Loading details…</p><!--/$--></div>
    <script>$RC("B:0","S:0")</script>
    <div hidden id="S:1">${DETAILS}</div><script>$RC("B:1","S:1")</script></body></html>`;
  const { page } = both(html);
  expect(page).toContain("# Linen shirt");
  expect(page).toContain("European flax");
  expect(page).not.toContain("Loading");
});

test("instructions as template attributes (the runtime loaded from a file) move content too", () => {
  const html = `<html><body><main><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--></main>
    <div hidden id="S:0"><h1>Linen shirt</h1>${DETAILS}</div>
    <template data-rci="" data-bid="B:0" data-sid="S:0"></template></body></html>`;
  expect(both(html).main).toContain("European flax");
});

test("only a hidden div is a segment, and a hidden div no instruction names stays hidden", () => {
  const html = `<html><body><main><template id="P:0"></template><h1>Linen shirt</h1>${DETAILS}</main>
    <div id="S:0"><p>Shown where the page puts it, and left there by the instruction, since a segment is only ever a hidden div and this one is on show.</p></div>
    <div hidden id="S:1"><p>Streamed for a boundary that no script on this page ever fills, so a reader never sees it anywhere.</p></div>
    <script>$RS("S:0","P:0")</script></body></html>`;
  const { page } = both(html);
  expect(page).toContain("left there by the instruction");
  expect(page.indexOf("European flax")).toBeLessThan(page.indexOf("left there by the instruction"));
  expect(page).not.toContain("no script ever fills");
});

test("a page of many streamed segments is placed in linear time", () => {
  const n = 20_000;
  const shell: string[] = [];
  const segments: string[] = [];
  for (let i = 0; i < n; i++) {
    shell.push(`<!--$?--><template id="B:${i.toString(36)}"></template><!--/$-->`);
    segments.push(
      `<div hidden id="S:${i.toString(36)}"><p>Item ${i}</p></div><script>$RC("B:${i.toString(36)}","S:${i.toString(36)}")</script>`,
    );
  }
  const html = `<html><body><main>${shell.join("")}</main>${segments.join("")}</body></html>`;
  const started = performance.now();
  const { content } = extractHtml(html, "https://shop.example/list", OPTIONS);
  // Quadratic placement (a search of the parent's children for each move) takes minutes here.
  expect(performance.now() - started).toBeLessThan(20_000);
  expect(content).toContain(`Item ${n - 1}`);
  expect(content.indexOf("Item 1\n")).toBeLessThan(content.indexOf("Item 2\n"));
});

test("segments nested past the parser's depth bound keep their fallback instead of nesting deeper", () => {
  // Each segment holds the next one's boundary: placed in full, 3,000 levels deep.
  const n = 3_000;
  const parts = [`<html><body><main><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--></main>`];
  for (let i = 0; i < n; i++)
    parts.push(
      `<div hidden id="S:${i}"><div><p>Level ${i}</p><!--$?--><template id="B:${i + 1}"></template><p>Loading…</p><!--/$--></div></div><script>$RC("B:${i}","S:${i}")</script>`,
    );
  const { content } = extractHtml(`${parts.join("")}</body></html>`, "https://shop.example/deep", OPTIONS);
  expect(content).toContain("Level 0");
  expect(content).toContain("Level 200");
  // 512 levels at most (depth.ts): two a segment, so the last ones never nest.
  expect(content).not.toContain(`Level ${n - 1}`);
});

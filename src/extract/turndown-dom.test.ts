import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getOuterHTML } from "domutils";
import { cleanTree } from "./clean.ts";
import { loadHtml } from "./dom.ts";
import { selectMainContent } from "./main-content.ts";
import { markdownService, toMarkdown } from "./markdown.ts";
import { tidyMarkdown } from "./markdown-tidy.ts";
import { type AnyNode, type Element, forEachElement, isElement } from "./nodes.ts";
import { attributeVisible, MdElement, MdText } from "./turndown-dom.ts";
import { turndownInput } from "./turndown-input.ts";

/**
 * The markdown of the former path: roots serialised (without the hidden
 * attributes) and parsed again by turndown (domino). The DOM mirror must give
 * the same markdown.
 */
function viaHtml(roots: AnyNode[]): string {
  const hide = (el: Element): void => {
    for (const name of Object.keys(el.attribs)) if (!attributeVisible(el.name, name)) delete el.attribs[name];
  };
  for (const root of roots) {
    if (!isElement(root)) continue;
    hide(root);
    forEachElement(root, hide);
  }
  // Serialised as that path did, every character outside ASCII as a reference (the html format
  // now writes UTF-8): a C1 control's reference reads as its Windows-1252 character, as the mirror does.
  const html = roots.map((node) => getOuterHTML(node, { xmlMode: false, decodeEntities: true })).join("\n");
  return tidyMarkdown(markdownService().turndown(html));
}

/** Markdown both ways for an HTML snippet (parsed as a fragment, each top-level node a root). */
function bothWays(html: string): [string, string] {
  const $ = loadHtml(html);
  const roots = $.root().contents().get();
  return [toMarkdown(roots), viaHtml(roots)];
}

const SNIPPETS = [
  "<p>a<!-- c -->b</p><p>x <!-- c --> y</p><p>a</p>\n<!DOCTYPE html>\n<p>b</p>",
  '<pre>\n\ncode\n  indented</pre><pre>\nx</pre><pre><code class="language-js">\nlet a;\n</code></pre>',
  "<pre>a<!-- c --><code>b</code></pre><div>x<xmp><b>raw</b></xmp></div><listing>\nlisting</listing>",
  "<p>one<br>two<br/>three</br>four</p><p>  lead  <b> bold </b>  <i>it</i>  trail  </p>",
  "<p>&amp; &lt;tag&gt; &nbsp;x&nbsp; &quot;q&quot; &#x80; &#150; caf&eacute; 😀</p>",
  '<p>cr\r\nlf\rx</p><pre>a\r\nb</pre><p>nul\u0000here</p><a href="/x\u0000y">l</a>',
  '<p>c1 \u0080 \u0099 \u0081</p><img src="/a\u0092b.png" alt="x\u0093y">',
  "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td colspan=2>2</td></tr></table>",
  "<table><caption>Cap</caption><thead><tr><th align=right>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
  "<table>\n <tr>\n  <td>only</td>\n </tr>\n</table><table><colgroup><col></colgroup><tr><th>h</th></tr></table>",
  "<table><tr><td><ul><li>a</li><li>b</li></ul></td><td>x &amp; y</td></tr></table>",
  "<div><table><tr><td><h2>h</h2></td><td>x</td></tr></table></div><p>x<table><tr><td>in p</td></tr></table>y</p>",
  "<table><tr><td>a</td></tr><tr><td><table><tr><td>in</td></tr></table></td></tr></table>",
  "<table><thead><tr><td></td><td></td></tr></thead><tbody><tr><th>x</th><th>y</th></tr></tbody></table>",
  "<table><tr><td>a</td>text<td>b</td></tr></table><table><div>x</div><tr><td>a</td></tr></table>",
  "<td>cell</td><tr><td>row</td></tr><body><p>a</p><body><p>b</p></body></body><html><p>h</p></html>",
  "<ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul><ol start=3><li>a</li><li>b<ol><li>c</li></ol></li></ol>",
  "<ul><li><input type=checkbox checked> done</li><li><input type=CHECKBOX> todo</li><li><span role=checkbox>r</span></li></ul>",
  '<a href="/a">outer <a href="/b">inner</a> tail</a><a href="/a"><div><a href="/b">inner</a></div></a>',
  "<p>para <span>span <div>block</div> more</span> end</p><p>x<li>y</li></p><ul><li>a<span><li>b</li></span></li></ul>",
  "<h1>a<h2>b</h2>c</h1><form><div><form>inner</form></div>after</form><dl><dt>t</dt><dd>d<span><dd>n</dd></span></dd></dl>",
  '<image src="/i.png" alt="im"><section><p>a<bgsound>b</bgsound>c</p></section><nobr>a<nobr>b</nobr></nobr>',
  "<noscript><p>Tom &amp; <b>Jerry</b></p></noscript><math><mi>x</mi></math> text<template><p>t</p></template>",
  "<select><option>o</option></select><button>b</button><iframe><p>z</p></iframe><ruby>漢<rb>kan<rt>かん</rt></rb></ruby>",
  '<p><a href="https://x.example/a b" title=\'t "q"\'>link</a> <a href="#top">top</a> <a href="javascript:void(0)">js</a> <a href="/e"> </a></p>',
  "<p>text <em> em </em> <strong>strong</strong><code>c`d</code> <del>del</del> <s>s</s></p><blockquote><p>q</p></blockquote><hr>",
  '<div class="highlight-source-python"><pre>print(1)</pre></div><pre data-lang="bash">ls</pre><p><![CDATA[x]]> y</p>',
  '<a href="/card"><img src="/c.png" alt=""><h3>Title</h3><p>Summary</p></a>',
  "<textarea>ta &amp; <b>x</b></textarea><title>ti</title><script>var a = '<p>';</script><style>p{}</style>",
  "<p>1</p>\n\n<p>2</p>   <span>3</span>\t<span>4</span>",
  // Whitespace collapsing (turndown-whitespace.ts): spaces kept after a void element until a block,
  // a line break or an inline element after text; trimmed before blocks, breaks and at the end.
  "<p>a <img src=/i.png alt=i> b  <span> c </span>\n\t d <br> e <wbr> <b> </b> f </p>",
  "<div> <span> </span> <img src=/i.png alt=i> <span>x</span> </div><p>\n</p><p> <i> lead</i> <i>trail </i> </p>",
  "<p>x <img src=/i.png alt=i> y  <em> z </em> <input type=text>  w</p><div>a<pre> p  q </pre> b </div>",
  "<p><span>one </span><span> two</span> <code> c  d </code> <kbd>k</kbd>\n</p> tail <hr> after <br>",
  "<ul>\n <li> a <b>b</b> </li>\n <li><a href=/x> link </a> </li>\n</ul>\n<p>end   </p>   ",
];

describe("the DOM mirror converts as turndown's own parse of the HTML did", () => {
  test.each(SNIPPETS.map((s) => [s]))("%j", (html) => {
    const [mirror, reparsed] = bothWays(html);
    expect(mirror).toBe(reparsed);
  });

  const pages = join(import.meta.dir, "..", "..", "test", "fixtures", "pages");
  test.each(readdirSync(pages).sort())("fixture page %s, whole and main content", (slug) => {
    const html = readFileSync(join(pages, slug, "source.html"), "utf8");
    for (const onlyMain of [false, true]) {
      const $ = loadHtml(html);
      const body = $("body")[0]!;
      cleanTree(body);
      const roots = onlyMain ? selectMainContent(body) : [body];
      expect(toMarkdown(roots)).toBe(viaHtml(roots));
    }
  });
});

describe("turndownInput", () => {
  const input = (html: string) => turndownInput(loadHtml(html).root().contents().get());

  test("mirrors the tree as an HTML5 parser builds it", () => {
    const root = input("<body><table>\n<tr><td>a</td></tr></table><pre>\ncode</pre>x &amp; y</body>");
    expect(root).toBeInstanceOf(MdElement);
    expect((root as MdElement).innerHTML).toBe(
      "<table>\n<tbody><tr><td>a</td></tr></tbody></table><pre>code</pre>x &amp; y",
    );
  });

  test("hands over the HTML when an HTML5 parser would rearrange it", () => {
    expect(input('<a href="/a">a <a href="/b">b</a></a>')).toBe('<a href="/a">a <a href="/b">b</a></a>');
    expect(input("<p><span><div>x</div></span></p>")).toBeTypeOf("string");
    expect(input("<table><tr><td>a</td></tr><p>b</p></table>")).toBeTypeOf("string");
    expect(input('<a href="/a">a</a><a href="/b">b</a><p><span>x</span></p>')).toBeInstanceOf(MdElement);
  });

  test("shows only the attributes the markdown rules read", () => {
    const root = input(
      '<a href="/x" class="c" style="s" role="checkbox">x</a><pre class="lang-js" id="i">y</pre>',
    );
    const [a, pre] = (root as MdElement).children;
    expect(a!.getAttribute("href")).toBe("/x");
    expect(a!.getAttribute("class")).toBeNull();
    expect(a!.getAttribute("role")).toBeNull();
    expect(pre!.getAttribute("class")).toBe("lang-js");
    expect(pre!.outerHTML).toBe('<pre class="lang-js">y</pre>');
  });
});

test("text content and descendant lookups follow changes to text and children", () => {
  const root = new MdElement("div", {});
  const p = new MdElement("p", {});
  const a = new MdText("a ");
  const b = new MdText("b");
  root.appendChild(p);
  p.appendChild(a);
  p.appendChild(b);
  const img = new MdElement("img", {});
  p.appendChild(img);
  expect(root.textContent).toBe("a b");
  expect(root.getElementsByTagName("IMG")).toEqual([img]);
  expect(root.getElementsByTagName("br")).toEqual([]);
  p.removeChild(img);
  expect(root.getElementsByTagName("img")).toEqual([]);
  a.data = "x ";
  expect(root.textContent).toBe("x b");
  p.removeChild(b);
  expect(root.textContent).toBe("x ");
  expect(p.childNodes).toEqual([a]);
  expect(p.firstChild).toBe(a);
  expect(p.lastChild).toBe(a);
  expect(a.nextSibling).toBeNull();
});

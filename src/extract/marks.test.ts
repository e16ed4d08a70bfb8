import { expect, test } from "bun:test";
import { textContent } from "domutils";
import { parseBounded } from "./depth.ts";
import { parseMarked } from "./marks.ts";

const marks = (html: string) => parseMarked(html).marks;

test("the marked parse builds the same tree as parseBounded", () => {
  const html = `<p>caf&eacute; <b>x</b>${"<div>".repeat(600)}deep</p><script>var a = "<p>";</script>`;
  const { document } = parseMarked(html);
  expect(textContent(document)).toBe(textContent(parseBounded(html, { decodeEntities: true })));
  expect(document.children.length).toBe(parseBounded(html, { decodeEntities: true }).children.length);
});

test("tables, code blocks and ruby are noted from the tree, not from text or scripts", () => {
  expect(marks("<table><tr><td>a</td></tr></table><TABLE></TABLE>").tables).toBe(2);
  expect(marks('<p>a &lt;table> tag</p><script>document.write("<table>")</script>').tables).toBe(0);
  expect(marks("<PRE>x</PRE>").pre).toBe(true);
  expect(marks("<p>use &lt;pre> for code</p>").pre).toBe(false);
  expect(marks("<ruby>漢<rt>kan</rt></ruby>").ruby).toBe(true);
  expect(marks("<p>ruby <b>rt</b></p>").ruby).toBe(false);
});

test("admonitions, Cloudflare addresses and streamed segments are noted from attributes", () => {
  expect(marks('<div class="admonitionblock note"></div>').admonitions).toBe(true);
  expect(marks("<p>admonitionblock</p>").admonitions).toBe(false);
  expect(marks('<span class="__cf_email__" data-cfemail="1f7e">x</span>').cfEmail).toBe(true);
  expect(marks('<a href="/cdn-cgi/l/email-protection#1f7e">x</a>').cfEmail).toBe(true);
  expect(marks('<a href="/contact">x</a>').cfEmail).toBe(false);
  expect(marks("<div hidden id='S:1'>x</div>").streamed).toBe(true);
  expect(marks('<div id="Section:1">x</div>').streamed).toBe(false);
});

test("mojibake is noted in text a reader sees and in alt and title, not in scripts or styles", () => {
  expect(marks("<p>computerâ€™s</p>").mojibake).toBe(true);
  expect(marks('<img alt="Ã©tÃ©">').mojibake).toBe(true);
  expect(marks('<a title="cafÃ©">x</a>').mojibake).toBe(true);
  expect(marks("<title>cafÃ©</title>").mojibake).toBe(true);
  expect(
    marks('<script>var s = "Ã©";</script><style>p::after{content:"Ã©"}</style><p>café</p>').mojibake,
  ).toBe(false);
  // A text arrives in pieces, an entity one of its own: a pair split by one is still seen.
  expect(marks("<p>caf&Atilde;&copy; and more</p>").mojibake).toBe(true);
  expect(marks("<p>cafÃ&copy;</p>").mojibake).toBe(true);
  expect(marks("<p>plain ASCII and 日本語</p>").mojibake).toBe(false);
});

test("what is not a string is refused as parseBounded refuses it", () => {
  expect(() => parseMarked(null as unknown as string)).toThrow(TypeError);
});

test("a phone-only part and a person's picture are noted from classes and sources", () => {
  expect(marks('<div class="flex md:hidden">x</div>').phoneOnly).toBe(true);
  expect(marks('<div class="ipsResponsive_showPhone">x</div>').phoneOnly).toBe(true);
  // Shown again at a desktop's width, or only hidden everywhere: no phone-only part.
  expect(marks('<div class="md:hidden xl:block">x</div><div class="d-none">y</div>').phoneOnly).toBe(false);
  expect(marks("<p>md:hidden</p>").phoneOnly).toBe(false);
  expect(marks('<a class="avatar"><img src="/u/1.jpg"></a>').avatars).toBe(true);
  expect(marks('<img src="https://secure.gravatar.com/avatar/4e?s=28">').avatars).toBe(true);
  // A lazy image's source is its data-src.
  expect(marks('<img class="lazyload" data-src="/images/avatar-default.png">').avatars).toBe(true);
  expect(marks('<img src="/films/avatar-poster.jpg"><p>avatar</p>').avatars).toBe(false);
});

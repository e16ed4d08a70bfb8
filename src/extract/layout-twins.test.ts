import { expect, test } from "bun:test";
import { parseBounded } from "./depth.ts";
import { extractHtml } from "./index.ts";
import { isPhoneOnly } from "./layout-twins.ts";
import { type Element, firstElement } from "./nodes.ts";

const OPTIONS = { format: "markdown" as const, onlyMainContent: true, images: false };

/** The markdown in main-content mode and in the default mode. */
function both(body: string, options: Partial<typeof OPTIONS & { includeTags: string[] }> = {}): string[] {
  return [true, false].map(
    (onlyMainContent) =>
      extractHtml(`<html><body>${body}</body></html>`, "https://forum.example/topic/1", {
        ...OPTIONS,
        onlyMainContent,
        ...options,
      }).content,
  );
}

const count = (text: string, part: string) => text.split(part).length - 1;

const POST =
  "<p>Not sure if this is the right place for this question, but does anyone know what these two ports on the case are for? The manual says nothing about them, yet both look very intentional.</p>" +
  "<p>One is on the outside, right below the power supply, and the other is on the inside of the bottom panel, where the intake fans would go. Thanks for any pointers!</p>";

test("a date printed for phones and again for desktops is read once, as a desktop shows it", () => {
  const html = `<main><article><div class="post"><p class="author-pane md:hidden">Posted <time>March 19, 2024</time></p>
    <p class="meta hidden md:block">Posted <time>March 19, 2024</time></p>${POST}</div></article></main>`;
  for (const markdown of both(html)) {
    expect(count(markdown, "March 19, 2024")).toBe(1);
    expect(markdown).toContain("Thanks for any pointers");
  }
});

test("what only phones show stays when desktops show it nowhere", () => {
  // A phone's summary of a table is the only place its words are said.
  const html = `<main><article><p class="d-md-none">Swipe the table sideways: the fourth column holds this year's prices.</p>${POST}</article></main>`;
  for (const markdown of both(html)) expect(markdown).toContain("fourth column holds");
});

test("a phone's copy goes only when every run of its text is printed for desktops", () => {
  // The phone's author box names the author; the desktop shows only the date: the box stays whole.
  const html = `<main><article><div class="post"><div class="ipsResponsive_showPhone"><p>Written from a workshop in Lyon</p><p>Posted March 19, 2024</p></div>
    <span class="ipsResponsive_hidePhone">Posted March 19, 2024</span>${POST}</div></article></main>`;
  for (const markdown of both(html)) {
    expect(markdown).toContain("workshop in Lyon");
    expect(count(markdown, "March 19, 2024")).toBe(2);
  }
});

test("a phone's part holding a picture stays: the picture is no run of text", () => {
  const html = `<main><article><div class="post"><figure class="md:hidden"><img src="https://forum.example/ports-mobile.jpg" alt=""><figcaption>The two ports</figcaption></figure>
    <figure class="hidden md:block"><figcaption>The two ports</figcaption></figure>${POST}</div></article></main>`;
  for (const markdown of both(html)) expect(markdown).toContain("ports-mobile.jpg");
});

test("a run is matched as whole words: a phone's 'Pay in 4' is not in 'Pay in 48'", () => {
  const html = `<main><article><p class="show-mobile">Pay in 4</p>${POST}<p>Pay in 48 monthly instalments, with no interest.</p></article></main>`;
  for (const markdown of both(html)) expect(markdown).toContain("Pay in 4\n");
});

test("a run's places are looked at up to a bound: a word met inside others first stays", () => {
  // "Kit" sits inside 80 words before it stands alone: judging it costs 64 looks, and it stays.
  const inside = Array.from({ length: 80 }, (_, i) => `Kitchen${i}`).join(" ");
  const html = `<main><article><p class="md:hidden">Kit</p>${POST}<p>${inside} and the Kit itself.</p></article></main>`;
  for (const markdown of both(html)) expect(markdown).toContain("Kit\n");
});

test("a comparison grid's labels for phones go where the desktop's row header says them", () => {
  const cell = (value: string) => `<td><span class="block md:hidden">Bit count</span>${value}</td>`;
  const html = `<main><article>${POST}<table><tr><th>Bit count</th>${cell("16")}${cell("32")}${cell("64")}</tr>
    <tr><th>Case</th><td>Aluminium</td><td>Steel</td><td>Plastic</td></tr></table></article></main>`;
  for (const markdown of both(html)) expect(count(markdown, "Bit count")).toBe(1);
});

test("chosen elements (includeTags) are kept as the page marks them up", () => {
  const html = `<main><article><p class="md:hidden">Posted March 19, 2024</p><p>Posted March 19, 2024</p>${POST}</article></main>`;
  for (const markdown of both(html, { includeTags: ["p"] }))
    expect(count(markdown, "March 19, 2024")).toBe(2);
});

function element(html: string): Element {
  return firstElement(parseBounded(`<html><body>${html}</body></html>`), "div") as Element;
}

test("phone-only by the last breakpoint rule up to a desktop's width", () => {
  for (const cls of [
    "md:hidden",
    "flex lg:hidden",
    "d-lg-none",
    "d-block d-xl-none",
    "hidden sm:block md:hidden",
  ])
    expect(isPhoneOnly(element(`<div class="${cls}">x</div>`))).toBe(true);
  // Shown again at a wider breakpoint, shown from a breakpoint up, or hidden only above a desktop's width.
  for (const cls of [
    "md:hidden xl:block",
    "hidden md:block",
    "d-none d-md-block",
    "2xl:hidden",
    "d-xxl-none",
    "hidden",
  ])
    expect(isPhoneOnly(element(`<div class="${cls}">x</div>`))).toBe(false);
});

test("phone-only by the names frameworks give the phone layout", () => {
  for (const cls of [
    "ipsResponsive_showPhone",
    "visible-xs",
    "hidden-lg",
    "is-hidden-desktop",
    "mobile-only",
    "show-for-small-only",
  ])
    expect(isPhoneOnly(element(`<div class="${cls}">x</div>`))).toBe(true);
  for (const cls of [
    "ipsResponsive_hidePhone",
    "hidden-xs",
    "desktop-only",
    "mobile-menu",
    "is-hidden-mobile",
  ])
    expect(isPhoneOnly(element(`<div class="${cls}">x</div>`))).toBe(false);
});

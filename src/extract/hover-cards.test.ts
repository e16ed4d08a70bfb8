import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const text = (html: string, onlyMainContent: boolean) =>
  extractHtml(html, "https://news.example/story", { format: "text", onlyMainContent, images: false }).content;

test("a hover card behind a name goes from the sentence; the name and a plain run of links stay", () => {
  const card = `<span class="rollover"><a href="/people/omar">Ilhan Omar</a><span class="rollover-block"><span><img src="/omar.jpg" alt=""><a href="/people/omar">Ilhan Abdullahi Omar</a><a href="/s/1">Omar answers her critics on the floor</a> <a href="/s/2">Hillicon Valley: the week in tech</a> <a href="/people/omar">MORE</a></span></span></span>`;
  const html = `<body><article><h1>Man pleads guilty</h1>
    <p>A New York man pleaded guilty to charges he threatened to kill Rep. ${card} earlier this year, prosecutors said.</p>
    <p>The app is available on <span><a href="/ios">iOS</a> <a href="/android">Android</a> <a href="/web">Web</a></span> from today.</p>
    <p>His sentencing is scheduled for February, according to the office of the attorney in Buffalo.</p>
  </article></body>`;
  for (const mode of [true, false]) {
    const content = text(html, mode);
    expect(content).toContain("threatened to kill Rep. Ilhan Omar earlier this year");
    expect(content).not.toContain("Hillicon Valley");
    expect(content).not.toContain("Ilhan Abdullahi Omar");
    expect(content).toContain("available on iOS Android Web from today");
  }
});

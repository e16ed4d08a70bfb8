import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const STORY = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>The ferry to the island runs twice a day in winter, and part ${i + 1} of this guide says where to wait for it.</p>`,
).join("");

const markdown = (html: string, onlyMainContent: boolean) =>
  extractHtml(html, "https://guide.example/ferry", { format: "markdown", onlyMainContent, images: false })
    .content;

test("a reading-time estimate on a line of its own leaves main content, in any of its languages", () => {
  for (const line of [
    "<p>6 min read</p>",
    "<div><span>5-minute read</span></div>",
    "<p>Reading time: 3 minutes</p>",
    '<span class="rt">Tempo de leitura: 2 minutos</span>',
    "<p>Lesezeit: 4 Min.</p>",
  ]) {
    const html = `<body><main><article><h1>Catching the ferry</h1>${line}${STORY}</article></main></body>`;
    const md = markdown(html, true);
    expect(md).toContain("part 5 of this guide");
    expect(md).not.toMatch(/read\b|reading|Tempo|Lesezeit/i);
    // The default mode keeps the page's short lines between the title and the text.
    expect(markdown(html, false)).toMatch(/read|Tempo|Lesezeit/i);
  }
});

test("a sentence about reading time, and an estimate inside a byline's line, stay", () => {
  const html = `<body><main><article><h1>Catching the ferry</h1>
    <p class="meta">Ana Reyes · <span>6 min read</span></p>${STORY}
    <p>It takes 10 minutes to read the timetable, so read it before you go.</p></article></main></body>`;
  const md = markdown(html, true);
  expect(md).toContain("6 min read");
  expect(md).toContain("It takes 10 minutes to read the timetable");
});

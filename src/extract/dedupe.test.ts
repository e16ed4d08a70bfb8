import { expect, test } from "bun:test";
import { textKeys } from "./dedupe.ts";
import { loadHtml } from "./dom.ts";
import { extractHtml } from "./index.ts";
import type { Element } from "./nodes.ts";

const main = { format: "text", onlyMainContent: true, images: false } as const;
const post = "My boiler loses pressure overnight and I have bled every radiator twice already this week.";

test("a reply quoting the post above it keeps only its own words", () => {
  const html = `<body><main><h1>Boiler pressure</h1>
    <div class="post"><span>ana</span><div class="body"><p>${post}</p></div></div>
    <div class="post"><span>bo</span><div class="body"><blockquote><div>${post}</div></blockquote><p>Check the expansion vessel, it is usually the culprit when the pressure drops.</p></div></div>
  </main></body>`;
  const { content } = extractHtml(html, "https://forum.example/t/1", main);
  expect(content.split(post).length - 1).toBe(1);
  expect(content).toContain("Check the expansion vessel");
});

test("a section rendered twice (mobile and desktop) comes out once", () => {
  const section = `<h2>Fast setup</h2><p>Connect your calendar and invite the team in under five minutes, no card needed.</p>`;
  const html = `<body><main><div class="mobile">${section}</div><div class="desktop">${section}</div>
    <p>Pricing starts at nine dollars per seat per month, billed yearly, with a free tier for small teams.</p></main></body>`;
  const { content } = extractHtml(html, "https://saas.example/", main);
  expect(content.split("Connect your calendar").length - 1).toBe(1);
});

test("paragraphs a writer repeats beside each other stay, and so does repeated code", () => {
  const day = (n: number) =>
    `<h3>Day ${n}</h3><p>Breakfast: one scoop of oats, one cup of blueberries and a spoon of almond butter.</p>`;
  const code = "<pre><code>const client = createClient({ region: 'eu-west-1' });</code></pre>";
  const html = `<body><article><h1>Meal plan</h1>${day(1)}${day(2)}${day(3)}<p>Set up the client before each example below, as shown here.</p>${code}<p>The same client again, for the second example.</p>${code}</article></body>`;
  const { content } = extractHtml(html, "https://food.example/", main);
  expect(content.split("one scoop of oats").length - 1).toBe(3);
  expect(content.split("createClient").length - 1).toBe(2);
});

test("documentation with code keeps the steps it repeats under each language's tab", () => {
  const steps = "<p>Create the project, then add the function and run it locally before you deploy it.</p>";
  const html = `<body><main><h1>Run functions locally</h1>
    <div class="tab csharp">${steps}<pre><code>func new --template "Http Trigger"</code></pre></div>
    <div class="tab python">${steps}<pre><code>func new --template "HTTP trigger" --name hello</code></pre></div></main></body>`;
  const { content } = extractHtml(html, "https://docs.example/functions", main);
  expect(content.split("Create the project").length - 1).toBe(2);
});

test("a subtree's key is its text with whitespace collapsed once, blocks apart, whatever the nesting", () => {
  const $ = loadHtml(
    `<div id="a"> one <b>two</b><p>three</p>\n\t four <span>five </span> <i> six</i>\u00a0</div>`,
  );
  const key = textKeys();
  expect(key($("#a")[0] as Element)).toBe("one two three four five six");
  expect(key($("p")[0] as Element)).toBe("three");
  // Inline elements run into their neighbours; a block starts a new word.
  const $2 = loadHtml(`<div id="b">ab<span>cd</span><div>ef</div>gh</div>`);
  expect(textKeys()($2("#b")[0] as Element)).toBe("abcd efgh");
});

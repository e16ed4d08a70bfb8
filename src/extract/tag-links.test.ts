import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const text = (html: string, onlyMainContent: boolean) =>
  extractHtml(html, "https://blog.example/post", { format: "text", onlyMainContent, images: false }).content;

const PROSE = `<p>${"The council approved the solar farm after a long debate about the valley. ".repeat(6)}</p>
  <p>${"Work starts in spring and the panels should feed the grid by the autumn. ".repeat(6)}</p>`;

const article = (extra: string) =>
  `<body><nav><a href="/">Home</a></nav><article><h1>Solar farm approved</h1>${PROSE}${extra}</article></body>`;

test("a tag list known by rel=tag goes in both modes, label and all, block or inline", () => {
  const lists = [
    // WordPress: a paragraph with a label and category links.
    `<p>Filed under: <a href="/category/energy" rel="category tag">Energy</a> |</p>`,
    // A bold run of tags after a line break, no class name at all.
    `<div><strong>Tags<br><a href="/tag/solar" rel="tag">solar farm</a>, <a href="/tag/valley" rel="tag">valley news</a></strong></div>`,
    // A list, in another language.
    `<ul><li>Schlagwörter:</li><li><a href="/tag/solar" rel="tag">Solarpark</a></li><li><a href="/tag/tal" rel="tag">Talnachrichten</a></li></ul>`,
    // A box with a heading for its label.
    `<div><h4>Topics</h4><a href="/tag/roofs" rel="tag">rooftop panels</a> · <a href="/tag/storage" rel="tag">grid storage</a></div>`,
  ];
  for (const list of lists)
    for (const mode of [true, false]) {
      const content = text(article(list), mode);
      expect(content).toContain("feed the grid by the autumn");
      expect(content).not.toMatch(
        /Filed under|Energy|Tags|Topics|rooftop|storage|solar farm,|valley news|Schlagwörter|Solarpark/,
      );
    }
});

test("tags in a sentence, a heading, a caption or a table stay; so does a line with other links or more than a label", () => {
  const html = article(`
    <p>Read our coverage of <span><a href="/tag/solar" rel="tag">solar power</a></span> for the background.</p>
    <p>Posted in <a href="/tag/energy" rel="tag">Energy</a> by <a href="/author/ana">Ana Reyes</a></p>
    <p>These tags were chosen by the readers of the valley edition: <a href="/tag/a" rel="tag">farms</a>, <a href="/tag/b" rel="tag">grids</a></p>
    <p>Compare <a href="/tag/solar" rel="tag">solar</a> with <a href="/tag/wind" rel="tag">wind</a> costs.</p>
    <p>Great day at the beach <a href="/tags/summer" rel="tag">#summer</a> <a href="/tags/sun" rel="tag">#sun</a></p>
    <div class="kicker"><h2><a href="/tag/policy" rel="tag">Energy policy</a></h2></div>
    <div><img src="/panels.jpg" alt="Panels"><p>Panels in the valley. <a href="/tag/solar" rel="tag">solar</a></p></div>
    <table><thead><tr><th>Topic</th><th>Posts</th></tr></thead><tbody>
      <tr><td><a href="/tag/solar" rel="tag">Solar farms</a></td><td>12</td></tr><tr><td>Wind parks</td><td>9</td></tr>
      <tr><td><a href="/tag/hydro" rel="tag">Hydro dams</a></td><td>4</td></tr></tbody></table>`);
  for (const mode of [true, false]) {
    const content = text(html, mode);
    expect(content).toContain("Read our coverage of solar power for the background.");
    expect(content).toContain("Posted in Energy by Ana Reyes");
    expect(content).toContain("chosen by the readers of the valley edition: farms, grids");
    expect(content).toContain("Compare solar with wind costs.");
    expect(content).toContain("Great day at the beach #summer #sun");
    expect(content).toContain("Energy policy");
    expect(content).toContain("Panels in the valley. solar");
    for (const cell of ["Solar farms", "Wind parks", "Hydro dams"]) expect(content).toContain(cell);
  }
});

test("a page that is its tags (a tag cloud) keeps them", () => {
  const cloud = ["solar", "wind", "hydro", "grid", "valley", "council", "budget", "schools"]
    .map((tag) => `<a href="/tag/${tag}" rel="tag">${tag} power stories</a>`)
    .join(" ");
  const html = `<body><main><h1>All topics</h1><p>Browse the stories of the valley by their topic.</p>
    <div class="cloud">${cloud}</div></main></body>`;
  for (const mode of [true, false]) expect(text(html, mode)).toContain("solar power stories");
});

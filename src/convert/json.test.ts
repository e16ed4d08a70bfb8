import { describe, expect, test } from "bun:test";
import { jsonToContent, MAX_JSON_DEPTH, prettyFits } from "./json.ts";

const SOURCE = '{"title":"Status","items":[{"id":1,"note":"<b>&"}]}';

test("markdown wraps pretty-printed JSON in a json fence", () => {
  const { title, content } = jsonToContent(SOURCE, "markdown");
  expect(title).toBe("Status");
  expect(content).toBe(
    '```json\n{\n  "title": "Status",\n  "items": [\n    {\n      "id": 1,\n      "note": "<b>&"\n    }\n  ]\n}\n```',
  );
});

test("text is the pretty JSON alone", () => {
  expect(jsonToContent("[1,2]", "text").content).toBe("[\n  1,\n  2\n]");
});

test("html escapes the JSON inside pre/code", () => {
  const { content } = jsonToContent(SOURCE, "html");
  expect(content.startsWith('<pre><code class="language-json">{')).toBe(true);
  expect(content).toContain("&lt;b&gt;&amp;");
  expect(content).not.toContain("<b>");
});

test("invalid JSON is returned as served, never thrown", () => {
  const { title, content } = jsonToContent("{ oops: ", "markdown");
  expect(title).toBe("");
  expect(content).toBe("```json\n{ oops:\n```");
});

test("a backtick run in the data cannot close the fence early", () => {
  const { content } = jsonToContent(JSON.stringify({ code: "```bash\nls\n```" }), "markdown");
  expect(content.startsWith("````json\n")).toBe(true);
  expect(content.endsWith("\n````")).toBe(true);
});

test("a UTF-8 BOM does not make valid JSON invalid", () => {
  expect(jsonToContent('\uFEFF{"name":"x"}', "text")).toEqual({ title: "x", content: '{\n  "name": "x"\n}' });
});

describe("deep or indentation-heavy JSON is shown as served", () => {
  test("200,000 nested arrays: the body itself in the fence, never a stack overflow", () => {
    const body = `${"[".repeat(200_000)}"deep"${"]".repeat(200_000)}`;
    expect(jsonToContent(body, "markdown").content).toBe(`\`\`\`json\n${body}\n\`\`\``);
    expect(jsonToContent(body, "text").content).toBe(body);
  });

  test("7,000 nested arrays (14 KB) stay 14 KB rather than 98 MB of indentation", () => {
    const body = `${"[".repeat(7_000)}1${"]".repeat(7_000)}`;
    expect(jsonToContent(body, "text").content).toBe(body);
  });

  test("nesting within the bound is pretty-printed; one level past it is not", () => {
    const within = `${'{"a":'.repeat(MAX_JSON_DEPTH)}1${"}".repeat(MAX_JSON_DEPTH)}`;
    expect(prettyFits(within)).toBe(true);
    expect(jsonToContent(within, "text").content).toBe(JSON.stringify(JSON.parse(within), null, 2));
    expect(prettyFits(`[${within}]`)).toBe(false);
  });

  test("real data (an API page of records, GeoJSON coordinates) is pretty-printed at any size", () => {
    const records = JSON.stringify(
      Array.from({ length: 20_000 }, (_, id) => ({ id, name: `user${id}`, tags: ["a", "b"], active: true })),
    );
    const geo = JSON.stringify({
      type: "Polygon",
      coordinates: [Array.from({ length: 50_000 }, (_, i) => [13.4 + i / 1e6, 52.5 - i / 1e6])],
    });
    for (const body of [records, geo]) {
      expect(prettyFits(body)).toBe(true);
      expect(jsonToContent(body, "text").content).toBe(JSON.stringify(JSON.parse(body), null, 2));
    }
  });

  test("a body that pretty-printing would grow past 8 times is shown as served", () => {
    // One-digit numbers 24 arrays deep: each would get a line of ~48 spaces.
    const body =
      JSON.stringify(Array.from({ length: 100_000 }, () => 1)).replace(/^\[/, "[".repeat(24)) +
      "]".repeat(23);
    expect(prettyFits(body)).toBe(false);
    expect(jsonToContent(body, "text").content).toBe(body);
  });

  test("brackets inside strings do not count as nesting", () => {
    const body = JSON.stringify({ text: "[".repeat(10_000) });
    expect(jsonToContent(body, "text").content).toBe(`{\n  "text": "${"[".repeat(10_000)}"\n}`);
  });
});

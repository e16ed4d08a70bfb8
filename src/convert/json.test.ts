import { expect, test } from "bun:test";
import { jsonToContent } from "./json.ts";

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

import { describe, expect, test } from "bun:test";
import { renderMarkdown } from "./markdown.ts";

const render = (markdown: string) => renderMarkdown(markdown).value;

describe("markdown from web pages, rendered for the dashboard", () => {
  test("renders markdown: headings, emphasis, lists, tables, code", () => {
    const out = render("# Title\n\nSome *text* and `code`.\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n");
    expect(out).toContain("<h1>Title</h1>");
    expect(out).toContain("<em>text</em>");
    expect(out).toContain("<code>code</code>");
    expect(out).toContain("<li>a</li>");
    expect(out).toContain("<td>1</td>");
  });

  test("raw HTML in the markdown is shown as text, never as markup", () => {
    for (const payload of [
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      '<a href="javascript:alert(1)">x</a>',
      "<iframe src=//evil></iframe>",
      "text <span onclick=alert(1)>inline</span>",
      "<svg onload=alert(1)>",
      "<style>body{display:none}</style>",
    ]) {
      const out = render(payload);
      expect(out).not.toMatch(/<(script|img|a|iframe|span|svg|style)\b/i);
      expect(out).toContain("&lt;");
    }
  });

  test("links keep only http(s), mailto and in-page targets", () => {
    expect(render("[ok](https://example.com/a?b=1&c=2)")).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">ok</a>',
    );
    expect(render("[mail](mailto:a@example.com)")).toContain('href="mailto:a@example.com"');
    expect(render("[top](#top)")).toContain('href="#top"');
    for (const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "file:///etc/passwd",
    ]) {
      const out = render(`[click](${bad})`);
      expect(out).not.toContain("<a ");
      expect(out).toContain("click");
    }
  });

  test("a title or URL cannot break out of its attribute", () => {
    const out = render('[x](https://example.com/"onmouseover="alert(1) "t" onmouseover="y")');
    expect(out).not.toMatch(/"\s*onmouseover=/);
  });

  test("images become links to them: a rendered page loads nothing", () => {
    const out = render('![A "solar" farm](https://example.com/farm.jpg)');
    expect(out).not.toContain("<img");
    expect(out).toContain('<a class="md-image" href="https://example.com/farm.jpg"');
    expect(out).toContain("[image: A &quot;solar&quot; farm]");
    expect(render("![x](javascript:alert(1))")).not.toContain("<a ");
  });

  test("a fenced block's language cannot inject attributes", () => {
    const out = render('```"><script>alert(1)</script>\ncode\n```');
    expect(out).not.toContain("<script>");
  });
});

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const STORY =
  "<p>Branching means you diverge from the main line of development and continue to do work.</p>".repeat(3);
const extract = (body: string) =>
  extractHtml(
    `<html><head><title>Branches</title></head><body><main><h1>Branches</h1>${STORY}${body}</main></body></html>`,
    "https://docs.example/branches",
    { format: "markdown", onlyMainContent: true, images: false },
  ).content;
const block = (kind: string, icon: string, content: string) =>
  `<div class="admonitionblock ${kind}"><table><tr><td class="icon">${icon}</td><td class="content">${content}</td></tr></table></div>`;

test("an Asciidoctor admonition reads as a quote led by its kind, from the icon's text, title or the block's class", () => {
  const md = extract(
    block(
      "note",
      '<div class="title">Note</div>',
      '<div class="paragraph"><p>The “master” branch is not special.</p></div>',
    ) +
      block(
        "warning",
        '<i class="fa icon-warning" title="Warnung"></i>',
        "<p>Do not rebase <code>main</code>.</p>",
      ) +
      block("tip", "", "<p>Use <code>git switch</code>.</p>"),
  );
  expect(md).toContain("> **Note:**\n>\n> The “master” branch is not special.");
  expect(md).toContain("> **Warnung:**\n>\n> Do not rebase `main`.");
  expect(md).toContain("> **Tip:**\n>\n> Use `git switch`.");
  expect(md).not.toContain("| Note |");
});

test("a table of another shape inside the block, or outside one, stays a table", () => {
  const md = extract(
    '<div class="admonitionblock note"><table><tr><td>Note</td><td>Not an icon cell.</td></tr></table></div>' +
      '<div class="note"><table><tr><td class="icon">Note</td><td class="content">A table of its own.</td></tr></table></div>',
  );
  expect(md).toContain("| Note | Not an icon cell. |");
  expect(md).toContain("| Note | A table of its own. |");
});

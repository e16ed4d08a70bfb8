import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const main = (html: string) =>
  extractHtml(html, "https://qa.example/q/1", { format: "markdown", onlyMainContent: true, images: false })
    .content;

const post = (type: string, text: string, extra = "") =>
  `<div itemscope itemtype="https://schema.org/${type}"><div class="votes">12</div>${extra}<div itemprop="text"><p>${text}</p></div>` +
  `<ul><li itemscope itemtype="https://schema.org/Comment"><span itemprop="text">A comment on it.</span></li></ul></div>`;

test("a Q&A page is its question, then each answer, a rule between posts; votes, comments and prompts stay out", () => {
  const md = main(`<html><body><div id="mainbar">
    ${post("Question", "How do I keep karaage crisp for an hour?")}
    <h2>2 Answers</h2><label>Sorted by:</label>
    ${post("Answer", "Fry it twice and keep it on a rack, not in a closed box.")}
    ${post("Answer", "Hold it in a low oven with the door ajar.", '<blockquote itemscope itemtype="https://schema.org/Quotation"><p itemprop="text">Quoted from the first answer.</p></blockquote>')}
    <h2>Start asking to get answers</h2><p>Find the answer to your question by asking.</p></div></body></html>`);
  expect(md).toBe(
    "How do I keep karaage crisp for an hour?\n\n* * *\n\nFry it twice and keep it on a rack, not in a closed box.\n\n* * *\n\nHold it in a low oven with the door ajar.",
  );
});

test("a page without a marked-up question is chosen as before", () => {
  const md = main(
    `<html><body><nav><a href="/">Home</a></nav><article>${"<p>A long paragraph of an ordinary article about frying chicken at home without a thermometer.</p>".repeat(5)}</article></body></html>`,
  );
  expect(md.startsWith("A long paragraph")).toBe(true);
  expect(md).not.toContain("* * *");
});

import { expect, test } from "bun:test";
import { loadHtml } from "./dom.ts";
import { extractHtml } from "./index.ts";
import { type Element, textOf } from "./nodes.ts";
import { dropTrailingPrompts } from "./trailing-prompts.ts";

/** The body's text after dropTrailingPrompts. */
function promptsDropped(body: string): string {
  const $ = loadHtml(`<html><body>${body}</body></html>`);
  const el = $("body")[0] as Element;
  dropTrailingPrompts([el]);
  return textOf(el);
}

const STORY =
  "<p>The museum reopened its east wing on Saturday after two years of work on the roof, the floors and the lighting of its oldest rooms.</p>" +
  "<p>Visitors queued from early morning, and the first thousand were given a print of the building as it looked in 1890.</p>";

test("the prompts that end a story go, one after another, and the story stays", () => {
  const text = promptsDropped(`<article><h1>East wing reopens</h1>${STORY}
    <p><em>Have a tip? Amy Kuperinsky may be reached at <a href="mailto:a@news.example">a@news.example</a>. Follow her on Twitter <a href="https://twitter.com/x">@x</a>.</em></p>
    <div class="tagline"><p><em>Get the latest updates right in your inbox. <a href="/newsletters">Subscribe to our newsletters</a>.</em></p></div></article>`);
  expect(text).toContain("the first thousand were given a print");
  for (const gone of ["Have a tip", "Follow her", "Subscribe"]) expect(text).not.toContain(gone);
});

test("a writer's address, a share prompt and a follow prompt each count", () => {
  for (const prompt of [
    "<p><strong><em>Like this story? Share it with a friend!</em></strong></p>",
    '<p><em>Email Tariq Malik at tmalik@news.example or follow him <a href="https://twitter.com/t">@t</a>.</em></p>',
    '<p><em>Follow <a href="https://twitter.com/deals">@Deals on Twitter</a> to keep up with the latest deals.</em></p>',
  ]) {
    const text = promptsDropped(`<article>${STORY}${prompt}</article>`);
    expect(text).toContain("given a print of the building");
    expect(text).not.toMatch(/Share it|Tariq|@Deals/);
  }
});

test("a prompt amid the story, a long closing paragraph, a closing list and a sentence that only looks like one stay", () => {
  const amid = promptsDropped(`<article><p>Follow us on Twitter for updates.</p>${STORY}</article>`);
  expect(amid).toContain("Follow us on Twitter");
  const long = `<p>${"Members who subscribe to the museum's friends scheme get in free all year, and may bring a guest on weekdays. ".repeat(5)}</p>`;
  expect(promptsDropped(`<article>${STORY.repeat(8)}${long}</article>`)).toContain("Members who subscribe");
  const list = promptsDropped(
    `<article>${STORY}<ul><li>Open daily</li><li>Follow us on Twitter</li></ul></article>`,
  );
  expect(list).toContain("Follow us on Twitter");
  // "email" lower-case before a word lower-case is no writer's address.
  const filing = promptsDropped(
    `<article>${STORY}<p>Receipts are emailed to the email address given at the time of filing.</p></article>`,
  );
  expect(filing).toContain("Receipts are emailed");
});

test("a story's closing quote or sentence that only sounds like a prompt stays", () => {
  // Its words, but plain: a story's own paragraph.
  const quote = promptsDropped(
    `<article>${STORY}<p>“We will follow him on every step of the climb,” his mother said.</p></article>`,
  );
  expect(quote).toContain("We will follow him on every step");
  // Set apart, but asking for nothing a prompt asks for.
  const theory = promptsDropped(
    `<article>${STORY}<p>Readers who <em>subscribe to</em> the theory say it explains the tides.</p></article>`,
  );
  expect(theory).toContain("Readers who subscribe to the theory");
});

test("a prompt that is nearly all the content stays", () => {
  const text = promptsDropped(`<main><p><em>Sign up for our newsletter.</em></p></main>`);
  expect(text).toContain("Sign up for our newsletter.");
});

test("a chosen root that is itself a prompt is left to the selection", () => {
  const $ = loadHtml(
    `<html><body><article>${STORY}</article><p>Sign up for our newsletter.</p></body></html>`,
  );
  const roots = [$("article")[0] as Element, $("body > p")[0] as Element];
  dropTrailingPrompts(roots);
  expect(roots[1]!.parent).not.toBeNull();
  expect(textOf($("body")[0] as Element)).toContain("Sign up for our newsletter.");
});

test("extraction drops a closing prompt in both modes", () => {
  const html = `<html><body><main><article><h1>East wing reopens</h1>${STORY}
    <p><em>Follow us on Instagram and sign up for our weekly letter.</em></p></article></main></body></html>`;
  for (const onlyMainContent of [true, false]) {
    const { content } = extractHtml(html, "https://news.example/east-wing", {
      format: "markdown",
      onlyMainContent,
      images: false,
    });
    expect(content).toContain("the first thousand were given a print");
    expect(content).not.toContain("Instagram");
  }
});

// A hang guard: prompts are looked for on every page; a page ending in a great many empty
// elements, deeply nested, stays a few walks of it.
test("a page ending in many empty elements is handled in linear time", () => {
  const empties = "<span></span>".repeat(250_000);
  const nested = `${"<div>".repeat(450)}<p><em>Follow us on Instagram.</em></p>${empties}${"</div>".repeat(450)}`;
  const $ = loadHtml(`<html><body><article>${STORY.repeat(4)}</article>${nested}</body></html>`);
  const body = $("body")[0] as Element;
  const started = performance.now();
  dropTrailingPrompts([body]);
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(textOf(body)).not.toContain("Instagram");
  expect(textOf(body)).toContain("given a print of the building");
}, 20_000);

test("the comments' heading and count ending a story go with the comments gone; a story about comments stays", () => {
  const end = (tail: string) =>
    extractHtml(
      `<html><body><main><article><h1>East wing reopens</h1>${STORY}${tail}</article></main></body></html>`,
      "https://news.example/wing",
      { format: "markdown", onlyMainContent: true, images: false },
    ).content;
  for (const tail of [
    '<center><h3>Tell us what YOU think...</h3><p><comments-count href="/wing"></comments-count> comments</p><div class="fb-comments"></div></center>',
    "<h3>Comments</h3><p>3 Comments</p>",
    "<h2>Leave a Reply</h2>",
    "<p>No comments</p>",
  ]) {
    const md = end(tail);
    expect(md).toContain("the first thousand were given a print");
    for (const gone of ["Tell us what", "Comments", "comments", "Leave a Reply"])
      expect(md).not.toContain(gone);
  }
  // A story's last words about comments are its own.
  const own = end(
    "<p>The museum said it read every one of the 3,000 comments left in its visitors' book.</p>",
  );
  expect(own).toContain("3,000 comments left in its visitors' book");
  // A heading with its section after it heads something.
  const section = end(
    "<h3>Comments</h3><p>Visitors wrote that the lighting made the paintings look new again.</p>",
  );
  expect(section).toContain("### Comments");
});

test("a story's closing credits and its follow-our-coverage and listen-live prompts go", () => {
  for (const tail of [
    "<p>Reporting by Rodrigo Campos; additional reporting by Saqib Ahmed; Editing by Nick Zieminski</p>",
    "<p>(<em>Reporting by Greg Roumeliotis, editing by Martin Howell.</em>)</p>",
    "<p>Associated Press writers Alan Fram and Zeke Miller contributed to this report.</p>",
    "<p>Keith Bradsher contributed reporting from Hong Kong.</p>",
    '<p><em>Additional reporting by <a href="/by/hudak">Joseph Hudak</a></em></p>',
    '<p>Follow AP\'s full coverage of the museum at <a href="https://news.example/museum">https://news.example/museum</a></p>',
    '<p><em>Follow The Daily Ledger Opinion section on</em> <a href="https://facebook.example/x"><em>Facebook</em></a></p>',
    '<p>If you enjoyed this article, we have a proposition for you: <a href="/join">Join our members</a>.</p>',
    '<p><em>Listen to Museum Hour</em> <a href="https://radio.example/live">live</a> <em>at 12:45 weekdays - or listen back</em> <a href="https://radio.example/episodes">here</a>.</p>',
  ]) {
    const text = promptsDropped(`<article>${STORY}${tail}</article>`);
    expect(text).toContain("given a print of the building");
    expect(text).not.toMatch(/Reporting by|reporting by|contributed|Follow|enjoyed|Listen/);
  }
});

test("a note on moderating the comments that ends a story goes, in several languages; a story's sentence about comments stays", () => {
  for (const tail of [
    '<p style="font-size:10px">ATENÇÃO: Comentários com textos ininteligíveis ou que faltem com respeito ao usuário não serão aprovados pelo moderador.</p>',
    "<p>Comments are moderated and will not appear until they have been approved.</p>",
    "<p>Note: all comments that break our rules will be removed.</p>",
    "<p>Los comentarios ofensivos serán eliminados.</p>",
  ]) {
    const text = promptsDropped(`<article>${STORY}${STORY}${tail}</article>`);
    expect(text).toContain("given a print of the building");
    expect(text).not.toMatch(/omment|omentário/);
  }
  for (const own of [
    "<p>Comments on the museum's page will be moderated from Monday, a spokeswoman said.</p>",
    "<p>The museum removed the visitors' book, and with it 3,000 comments.</p>",
  ]) {
    const text = promptsDropped(`<article>${STORY}${own}</article>`);
    expect(text).toContain(own.replace(/<[^>]+>/g, ""));
  }
});

test("a heading that is a prompt, and a rail's label left without its rail or over its links only, end nothing and go", () => {
  for (const tail of [
    '<h2><a href="http://list.example/join">Click here to subscribe to The Paradigm Newsletter</a></h2>',
    "<p>You may also like...</p>",
    "<p><strong>Related Posts:</strong></p>",
    '<p><a href="/more">Read more</a></p>',
    '<div class="linkback">Related Roundup: <a href="https://news.example/roundup/wings">Museum wings</a></div>',
    "<p>More AP Arts: https://apnews.com/arts and https://twitter.com/AP_Arts</p>",
  ]) {
    const text = promptsDropped(`<article>${STORY}${tail}</article>`);
    expect(text).toEndWith("as it looked in 1890.");
  }
  // A heading that is no prompt, and a paragraph that only starts like a rail's label, stay.
  for (const own of [
    "<h2>Subscribers wait for the newsletter</h2>",
    "<p>You may also like the gardens behind the wing.</p>",
    '<p><strong>More information:</strong> A. Petit et al., A history of the east wing, <a href="https://doi.example/1">doi:1</a></p>',
  ]) {
    const text = promptsDropped(`<article>${STORY}${own}</article>`);
    expect(text).toEndWith(own.replace(/<[^>]+>/g, ""));
  }
});

test("a sentence about reporting, following or enjoying that ends a story stays", () => {
  for (const own of [
    "<p>The museum's director said the reporting by local papers had brought the crowds back.</p>",
    "<p>Critics who follow the museum on its long road back said the wing was worth the wait.</p>",
    "<p><em>If you enjoyed the gardens, the east wing's terrace now opens onto them.</em></p>",
    "<p><em>Visitors can watch the restorers live in the east wing every summer.</em></p>",
  ]) {
    const text = promptsDropped(`<article>${STORY}${own}</article>`);
    expect(text).toContain(own.replace(/<[^>]+>/g, ""));
  }
});

test("a prompt set apart above the story goes; the same words plain, or the story's own opening, stay", () => {
  const pitch =
    '<p><strong>Start your day with the Morning Bell. <a href="https://list.example/s">Sign up</a> for the free daily newsletter.</strong></p>';
  expect(promptsDropped(`<article>${pitch}${STORY}</article>`)).not.toContain("Sign up");
  expect(promptsDropped(`<article>${pitch}${STORY}</article>`)).toContain("The museum reopened");
  const plain = "<p>Readers can sign up for the museum's newsletter at the door, the director said.</p>";
  expect(promptsDropped(`<article>${plain}${STORY}</article>`)).toContain(
    "sign up for the museum's newsletter",
  );
  // The page's title and subtitle, roots of their own above the content, are passed for the content's opening.
  const $ = loadHtml(
    `<html><body><h1>East wing reopens</h1><article>${pitch}${STORY}</article></body></html>`,
  );
  const roots = [$("h1")[0] as Element, $("article")[0] as Element];
  dropTrailingPrompts(roots);
  expect(textOf($("body")[0] as Element)).not.toContain("Sign up");
  expect(textOf($("body")[0] as Element)).toContain("East wing reopens");
});

test("a letters page's closing invitation goes", () => {
  const tail =
    '<p><em>The Times is committed to publishing a diversity of letters to the editor. We’d like to hear what you think about this or any of our articles. Here’s our email: </em><a href="mailto:letters@news.example"><em>letters@news.example</em></a><em>.</em></p>';
  const text = promptsDropped(`<article>${STORY.repeat(3)}${tail}</article>`);
  expect(text).toContain("given a print of the building");
  expect(text).not.toContain("hear what you think");
});

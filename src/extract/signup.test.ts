import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const OPTIONS = { format: "markdown" as const, onlyMainContent: false, images: false };

function both(html: string): string[] {
  return [true, false].map(
    (onlyMainContent) =>
      extractHtml(html, "https://blog.example/post", { ...OPTIONS, onlyMainContent }).content,
  );
}

const STORY =
  "<h1>Why rivers meander</h1><p>A river on a plain rarely runs straight: water flows faster on the outside of a bend, cutting the bank there, and drops its sand on the inside, so every bend grows.</p>" +
  "<p>Over centuries the loops lengthen until a flood cuts across a neck and leaves an oxbow lake behind, and the river starts again from a straighter line.</p>";

// Class names that say nothing (a build's hashes), as on the pages where this was missed.
const SIGNUP = `<div class="x7Ls"><div class="Qj1"><h2>Deals, drops and stories</h2><p>Straight to your inbox every Friday.</p></div>
  <div class="Qj2"><form class="ab1"><label for="e">Your email address</label><input id="e" type="email">
  <fieldset><legend>Topics</legend><label><input type="checkbox"> Rivers</label><label><input type="checkbox"> Coasts</label></fieldset>
  <button>Subscribe</button><p>You can unsubscribe at any time.</p></form></div></div>`;

test("a newsletter sign-up box goes with its heading and pitch, whatever its class names", () => {
  for (const markdown of both(`<html><body><main>${STORY}${SIGNUP}</main></body></html>`)) {
    expect(markdown).toContain("oxbow lake");
    for (const gone of [
      "Deals, drops",
      "Straight to your inbox",
      "Your email address",
      "Subscribe",
      "Topics",
    ])
      expect(markdown).not.toContain(gone);
  }
});

test("an email field named so (not typed email) makes a sign-up form too", () => {
  const form = `<div class="k2"><p>Get the next story by email, the morning it is published, with the maps and photographs that go with it.</p><form><input type="text" name="subscriber_email" placeholder="you@example.com"><button>Sign up</button></form></div>`;
  for (const markdown of both(`<html><body><main>${STORY}${form}</main></body></html>`))
    expect(markdown).not.toContain("Get the next story");
});

test("a form asking for a message, or holding the page's title, is not a sign-up box", () => {
  const contact = `<section><h2>Write to us</h2><p>Questions about a river near you are welcome; we answer each one within a week.</p><form><input type="email" name="email"><textarea name="message"></textarea><button>Send</button></form></section>`;
  const page = both(`<html><body><main>${STORY}${contact}</main></body></html>`)[1]!;
  expect(page).toContain("Write to us");
  expect(page).toContain("we answer each one within a week");
  const titled = `<html><body><main><form><h1>Join the river survey</h1><p>Volunteers walk one stretch of a river each spring and count the birds, the bank erosion and the litter they find along it.</p><input type="email"><button>Join</button></form></main></body></html>`;
  for (const markdown of both(titled)) expect(markdown).toContain("Join the river survey");
  // A sign-up form beside the page's title: the form goes, never the title above it.
  const hero = `<html><body><main><div class="hero"><h1>River survey</h1><p>Count what you see.</p><form><input type="email"><button>Join</button></form></div>${STORY.replace(/<h1>.*<\/h1>/, "")}</main></body></html>`;
  for (const markdown of both(hero)) expect(markdown).toContain("River survey");
});

test("the box stops where the page's own text begins", () => {
  // The sign-up sits in the story's own container: the story stays, only the box goes.
  const story = STORY.replace(/<h1>.*<\/h1>/, "");
  const html = `<html><body><main><h1>Why rivers meander</h1><div class="c1">${story}<div class="c2"><p>Like this? Get our letter.</p><form><input type="email"><button>Go</button></form></div></div></main></body></html>`;
  for (const markdown of both(html)) {
    expect(markdown).toContain("A river on a plain");
    expect(markdown).toContain("oxbow lake");
    expect(markdown).not.toContain("Get our letter");
  }
});

test("a page of many sign-up forms is cleaned in one pass", () => {
  const forms = '<form><input type="email"><button>Go</button></form>'.repeat(20_000);
  const html = `<html><body><h1>Why rivers meander</h1>${STORY.replace(/<h1>.*<\/h1>/, "")}<div>${forms}</div></body></html>`;
  const started = performance.now();
  const [main, page] = both(html);
  // Climbing from every form (each box's text and title searched again) took over 20 s here.
  expect(performance.now() - started).toBeLessThan(8_000);
  for (const markdown of [main!, page!]) expect(markdown).toContain("oxbow lake");
}, 60_000);

import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";
import { withoutPostTerms } from "./post-terms.ts";

const card = (slug: string, title: string, terms: string) =>
  `<article class="card post-${slug.length} post type-post status-publish format-standard hentry ${terms}">` +
  `<a href="/${slug}"><img src="/${slug}.jpg" alt="${title}"><div><span>84 reviews</span> / <span>5 average</span></div>` +
  `<h3>${title}</h3></a></article>`;

const page = `<html><body><main><section><h1>Air Fryer Recipes</h1>
  <p>I love a meal with crispiness and crunch, and these air fryer recipes deliver on every single weeknight of the year.</p>
  <h2>Top Rated Air Fryer Recipes</h2><div class="grid">
  ${card("banza-bowls", "Banza Chicken Bowls", "category-dinner category-meat")}
  ${card("air-fryer-salmon", "Ridiculously Good Air Fryer Salmon", "category-fish category-popular category-salmon")}
  ${card("chicken-tacos", "Chicken Tacos with Green Sauce", "category-sidebar-favourites tag-related tag-trending")}
  ${card("marry-me-chicken", "Marry Me Chicken", "category-meat")}
  </div></section>
  <aside class="popular-posts widget"><h3>Popular posts</h3><ul><li><a href="/x">Our most read recipe of the week</a></li><li><a href="/y">Another favourite</a></li></ul></aside>
  </main></body></html>`;

test("a WordPress post's category and tag classes name what it is filed under: a card filed under Popular stays", () => {
  for (const onlyMainContent of [true, false]) {
    const md = extractHtml(page, "https://recipes.example/air-fryer", {
      format: "markdown",
      onlyMainContent,
      images: false,
    }).content;
    for (const title of [
      "Banza Chicken Bowls",
      "Ridiculously Good Air Fryer Salmon",
      "Chicken Tacos with Green Sauce",
    ])
      expect(md).toContain(title);
    // A rail named "popular" is still one.
    expect(md).not.toContain("Our most read recipe");
  }
});

test("only post_class's term classes are left out, and only on a post's element", () => {
  expect(withoutPostTerms("post type-post status-publish hentry category-popular tag-related")).not.toMatch(
    /popular|related/,
  );
  expect(withoutPostTerms("post hentry category-popular")).toContain("hentry");
  // A tag list or a category menu elsewhere keeps its name.
  expect(withoutPostTerms("tag-list related")).toBe("tag-list related");
  expect(withoutPostTerms("category-nav sidebar")).toBe("category-nav sidebar");
});

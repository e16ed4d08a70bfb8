import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const main = { format: "text", onlyMainContent: true, images: false } as const;
const product = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail shoe","offers":{"@type":"Offer","price":"120.00","priceCurrency":"USD"}}</script>`;
const description = [
  "A light trail shoe with a grippy outsole for wet rock and loose gravel alike, built for long days.",
  "The upper is a recycled mesh that drains quickly and dries before the next river crossing comes.",
  "A rock plate under the forefoot protects from sharp stones without taking the feel of the ground.",
  "Sizes run true; choose a half size up if you wear thick socks or plan long descents in the hills.",
]
  .map((p) => `<p>${p}</p>`)
  .join("");

test("a product page drops its customer reviews, many or closing the page", () => {
  const review = (i: number) =>
    `<div class="review"><span>5 stars</span><p>Review ${i}: bought these for a hut-to-hut trek and they held up for two weeks of rain and mud.</p></div>`;
  const html = `<html><head>${product}</head><body><main><h1>Trail shoe</h1>${description}
    <section class="reviews"><h2>What buyers say</h2>${[1, 2, 3].map(review).join("")}</section></main></body></html>`;
  const { content } = extractHtml(html, "https://shop.example/trail-shoe", main);
  expect(content).toContain("A light trail shoe");
  expect(content).toContain("Sizes run true");
  expect(content).not.toContain("hut-to-hut");

  const lone = `<html><head>${product}</head><body><main><h1>Trail shoe</h1>${description}
    <section class="reviews"><h2>Reviews</h2><p>Bought these for a hut-to-hut trek and they held up for two weeks of rain and mud.</p></section></main></body></html>`;
  expect(extractHtml(lone, "https://shop.example/trail-shoe", main).content).not.toContain("hut-to-hut");
});

test("a product page's reviews go before its main block is chosen: the choice falls on the product", () => {
  // Buyers wrote more than the shop did: had the reviews been weighed, they were the block chosen,
  // and the product's details beside them were lost with them.
  const review = (i: number) =>
    `<div class="review"><span>5 stars</span><p>Review ${i}: bought this for the hallway and it holds every shoe, bag and scarf we own, still sturdy after a year of use.</p></div>`;
  const html = `<html><head>${product}</head><body><main><div class="page">
    <div class="info"><h1>Trail shoe</h1><p>A light trail shoe with a grippy outsole for wet rock.</p>
      <div class="details"><h2>Product details</h2><p>Designer: Anna Berg. Upper of recycled mesh, outsole of natural rubber.</p></div></div>
    <div class="customer-reviews">${[1, 2, 3, 4, 5, 6].map(review).join("")}</div></div></main></body></html>`;
  const { content } = extractHtml(html, "https://shop.example/trail-shoe", main);
  expect(content).toContain("Designer: Anna Berg");
  expect(content).toContain("a grippy outsole");
  expect(content).not.toContain("Review 3");
});

test("a product page keeps a single quote box named reviews that opens its description", () => {
  const html = `<html><head>${product}</head><body><main><h1>Trail shoe</h1>
    <div id="reviews"><h2>Reviews</h2><p>"The best trail shoe of the year, light and sure-footed on any ground." Outdoor Magazine, 9/10</p></div>
    ${description}</main></body></html>`;
  const { content } = extractHtml(html, "https://shop.example/trail-shoe", main);
  expect(content).toContain("The best trail shoe of the year");
  expect(content).toContain("Sizes run true");
});

test("a thread drops the badges beside each post (post counts, helpful votes)", () => {
  const post = (i: number) =>
    `<div class="post"><div class="profile"><a href="/u/${i}">traveller${i}</a><div class="postBadge badge"><span>${i * 120} posts</span></div><div class="votesBadge badge"><span>${i * 7} helpful votes</span></div></div>
    <div class="postcontent"><p>Reply ${i}: take the early train to the onsen village, the baths are quiet before nine and the walk is lovely.</p></div></div>`;
  const html = `<html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head><body><main><h1>Onsen tips</h1>${[1, 2, 3, 4].map(post).join("")}</main></body></html>`;
  const { content } = extractHtml(html, "https://forum.example/t/3", main);
  for (let i = 1; i <= 4; i++) expect(content).toContain(`Reply ${i}:`);
  expect(content).not.toContain("helpful votes");
  expect(content).not.toContain("240 posts");
});

test("a thread that declares nothing is told by its members' signatures, which go; one signature-named block stays", () => {
  const post = (i: number) =>
    `<div class="msg"><span class="user">member${i}</span><span class="post_time">2 years ago</span><div class="msg_text"><p>Post ${i}: the stream starts in an hour and the recording goes up on the channel right after it ends.</p></div><div class="signature">Sig ${i}: currently playing three games at once</div></div>`;
  const thread = `<body><main><h1>Showcase discussion thread</h1>${[1, 2, 3, 4].map(post).join("")}</main></body>`;
  const t = extractHtml(thread, "https://boards.example/t/1", main).content;
  expect(t).toContain("Post 4: the stream");
  expect(t).not.toContain("Sig 2");
  const page = `<body><main><h1>Our brand</h1>${description}<div class="signature">Signature collection: handmade in Portugal</div><div class="badge">Bestseller</div></main></body>`;
  const p = extractHtml(page, "https://brand.example/about", main).content;
  expect(p).toContain("Signature collection");
  expect(p).toContain("Bestseller");
});

test("a thread drops each post's vote and like counts", () => {
  const post = (i: number) =>
    `<div class="post"><div class="js-vote-count">${i * 7}</div><p>Answer ${i}: press Ctrl+E, then Escape, and the focus moves to the file list in every version.</p><div class="post-likes">${i + 40} likes</div></div>`;
  const html = `<html><head><script type="application/ld+json">{"@type":"QAPage"}</script></head><body><main><h1>Focus the file pane</h1>${[1, 2, 3].map(post).join("")}</main></body></html>`;
  const { content } = extractHtml(html, "https://qa.example/q/1", main);
  expect(content).toContain("Answer 3: press");
  expect(content).not.toContain("21");
  expect(content).not.toContain("likes");
});

test("a page that declares nothing drops customer reviews beside its text; reviews that are its text stay (a roundup)", () => {
  const review = (i: number) =>
    `<div class="review"><p>Review ${i}: the oil calmed my skin within a week and the dropper makes it easy to dose every evening.</p></div>`;
  const page = `<body><main><h1>Calming oil</h1>${description}<section class="reviews">${[1, 2].map(review).join("")}</section></main></body>`;
  const p = extractHtml(page, "https://shop.example/oil", main).content;
  expect(p).toContain("grippy outsole");
  expect(p).not.toContain("Review 2:");
  const roundup = `<body><main><h1>Two trail shoes tested</h1><div class="product-review"><h2>First</h2>${description}</div><div class="product-review"><h2>Second</h2>${description}</div></main></body>`;
  expect(extractHtml(roundup, "https://gear.example/tested", main).content).toContain("grippy outsole");
});

test("a member's post count, join date and group beside each post go; the post stays", () => {
  const post = (i: number) =>
    `<div class="post"><dl class="postprofile"><dt><a href="/memberlist.php?mode=viewprofile&u=${i}">member${i}</a></dt><dd class="profile-posts"><strong>Posts:</strong> ${i * 523}</dd><dd class="profile-joined"><strong>Joined:</strong> Mon Jul 24, 2017 9:28 am</dd><dd class="membergroup">Senior Member</dd></dl><div class="postbody"><p>Post ${i}: rebalance once a year, keep the bond fund in the tax-advantaged account, and leave the rest alone.</p></div></div>`;
  const thread = `<body><main><h1>Portfolio review, 2024 version</h1>${[1, 2, 3, 4].map(post).join("")}</main></body>`;
  const content = extractHtml(thread, "https://forum.example/viewtopic.php?t=1", main).content;
  expect(content).toContain("Post 4: rebalance once a year");
  expect(content).not.toContain("Joined:");
  expect(content).not.toContain("1569");
  expect(content).not.toContain("Senior Member");
});

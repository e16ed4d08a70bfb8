import { ARTICLE, bestBlock, LISTING } from "./best-block.ts";
import { isCardPart, isTeaserRail } from "./card-titles.ts";
import { dropDuplicateBlocks } from "./dedupe.ts";
import { isTextDespiteLinks } from "./linked-text.ts";
import {
  type AnyNode,
  contains,
  type Element,
  forEachElement,
  hasDescendant,
  isElement,
  isEmbeddedPost,
  linkCount,
  nameWords,
  nextElement,
  removeNode,
  textOf,
  wordsOf,
} from "./nodes.ts";
import type { PageType } from "./page-type.ts";
import { dropProductGrids } from "./product-grid.ts";
import { productHeader } from "./product-header.ts";
import { dropReadingTimes } from "./reading-time.ts";
import { dropRelatedRails } from "./related-rails.ts";
import { dropSideChrome, isChapterContents } from "./side-chrome.ts";
import { dropMeasured, isTableData, type Measured, measure, TABLE_PARTS } from "./stats.ts";
import {
  ARTICLE_PROSE,
  COMMENT_WORDS,
  declaredBody,
  headlineArticle,
  openingPostBefore,
  postBeforeReplies,
  postsAround,
  SHORT_STORY,
} from "./story-bounds.ts";
import { dropTagLinks } from "./tag-links.ts";
import {
  dropArticleMeta,
  dropForms,
  dropPhotoCaptions,
  dropPostExtras,
  dropReviews,
  dropSectionFooters,
  dropStoryByline,
  inReviews,
} from "./trims.ts";

/** Paragraphs from which a block is an article even if teasers surround it (ARTICLE_PROSE: its prose). */
const ARTICLE_PARAS = 4;

const CODE_BLOCK = new Set(["pre"]);

/** Code, whose class names are a highlighter's token names ("token comment"). */
const CODE_TAGS = new Set(["pre", "code"]);

/** Prose outside the comments from which the page is an article with comments, not a thread. */
const ARTICLE_OUTSIDE_COMMENTS = 300;

function hasHeadline(el: Element): boolean {
  let found = false;
  forEachElement(el, (d) => {
    if (d.name === "h1" || d.name === "article" || d.attribs.itemprop === "articleBody") found = true;
  });
  return found;
}

/**
 * Drops an article's comment section; a thread (little prose outside the
 * comments) keeps them. On a page declared a thread, elements named comments
 * are its posts unless they hold less prose than the rest (the comments under
 * a Q&A site's question and answers).
 */
function dropComments(body: Element, stats: Measured, thread: boolean): boolean {
  const sections: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      if (CODE_TAGS.has(child.name)) continue;
      const words = nameWords(child);
      if (words.length > 1 && COMMENT_WORDS.test(words) && !hasHeadline(child)) sections.push(child);
      else visit(child);
    }
  };
  visit(body);
  if (!sections.length) return false;
  let inside = 0;
  for (const el of sections) inside += stats.get(el)?.good ?? 0;
  const outside = (stats.get(body)?.good ?? 0) - inside;
  if (outside < ARTICLE_OUTSIDE_COMMENTS || (thread && outside < inside)) return false;
  for (const el of sections) removeNode(el);
  return true;
}

/**
 * Drops link-dominated blocks (menus, tag lists, "read next" link lists)
 * inside the chosen content. For the whole page (`page`), a block of one
 * link beside text of its parent's own stays: a post's author, a card's
 * title.
 */
function dropLinkBlocks(root: Element, stats: Measured, page = false): void {
  let posts: Set<AnyNode> | undefined;
  dropMeasured(root, stats, (el, s) => {
    if (isChapterContents(el) || isEmbeddedPost(el)) return "keep";
    if (!(s.text > 0 && s.bad > 0.6 * s.text && s.good < 200)) return "enter";
    // A wrapper of an embedded post (WordPress's `wp-block-embed` figure around a tweet) holds it:
    // asked first, as it costs nothing once found, and an element entered is read again below.
    posts ??= embeddedPostsAndHolders(root);
    if (posts.has(el)) return "enter";
    if (isTableData(el) || isTextDespiteLinks(el) || isCardPart(el) || isDefinedTerm(el)) return "keep";
    return page && oneLinkBesideText(el, stats) ? "keep" : "drop";
  });
}

/** Words from which a definition defines (more than a forum author box's "Posts: 120"). */
const DEFINITION_WORDS = 4;

/**
 * A definition list's term with a definition in prose after it (`<dt><a href="#type-clusterip">
 * ClusterIP</a></dt><dd>Exposes the Service…</dd>`): the term names the definition, however much
 * of it is a link (to its own section, as documentation links its terms). A forum's author box
 * (`<dt>` a linked name, `<dd>Posts: 120</dd>`) defines nothing: a definition has words.
 */
function isDefinedTerm(el: Element): boolean {
  if (el.name !== "dt") return false;
  const definition = nextElement(el);
  return definition?.name === "dd" && wordsOf(textOf(definition)).length >= DEFINITION_WORDS;
}

/**
 * The elements under `root` that are or hold a post embedded from a social network: one walk,
 * then a climb from each post, so asking of every block costs nothing more.
 */
function embeddedPostsAndHolders(root: Element): Set<AnyNode> {
  const found = new Set<AnyNode>();
  forEachElement(root, (el) => {
    if (!isEmbeddedPost(el)) return;
    found.add(el);
    for (let p = el.parent; p && p !== root && !found.has(p); p = p.parent) found.add(p);
  });
  return found;
}

/** A block holding a single link whose parent has text besides it. */
function oneLinkBesideText(el: Element, stats: Measured): boolean {
  const links = linkCount(el);
  const parent = el.parent as Element | null;
  const p = parent ? stats.get(parent) : undefined;
  const own = stats.get(el)!;
  return links === 1 && p !== undefined && p.weak + p.good > own.weak + own.good;
}

/** A trailing block with less prose than this, mostly teasers or links, is not the article's. */
const TRAIL_PROSE = 100;
const TRAIL_SHARE = 0.5;

/**
 * Drops what trails an article's last prose: "related stories" lists,
 * teaser grids and link lists after the text, however deep they sit.
 * Teasers inside the text (a listicle's linked headings) stay.
 */
function trimTrailingTeasers(root: Element, stats: Measured): void {
  let posts: Set<AnyNode> | undefined;
  for (let el: Element | null = root; el; ) {
    let next: Element | null = null;
    for (let i: number = el.children.length - 1; i >= 0; i--) {
      const child: AnyNode = el.children[i]!;
      if (!isElement(child)) continue;
      const s = stats.get(child);
      if (!s || s.text === 0) continue;
      // A table's last row and cell are its data: the table went whole, or stays whole.
      if (TABLE_PARTS.has(child.name)) break;
      // A post embedded from a social network (a tweet) ends a story as its text would: quoted, not a teaser.
      if ((s.good < TRAIL_PROSE && s.card + s.bad > TRAIL_SHARE * s.text) || isTeaserRail(child)) {
        posts ??= embeddedPostsAndHolders(root);
        if (!posts.has(child)) {
          removeNode(child);
          continue;
        }
      }
      next = child;
      break;
    }
    el = next;
  }
}

/** Share of the main area's prose (or text) below which the best block is one section among many. */
const SECTION_SHARE = 0.6;
/** Share of link-dominated text up to which the main area is still content, not a menu. */
const LANDMARK_LINKS = 0.5;

/**
 * The page's main area (`<main>`, else the cleaned body) when its prose is
 * spread over sections (a landing page's hero, features, pricing and FAQ)
 * rather than one article: the best block holds less than half of the
 * area's prose, and the area is not mostly links.
 */
function spreadLandmark(body: Element, chosen: Element, stats: Measured): Element | null {
  let main: Element | null = null;
  forEachElement(body, (el) => {
    if (!main && (el.name === "main" || el.attribs.role === "main")) main = el;
  });
  const area = (main as Element | null) ?? body;
  if (area === chosen || !contains(area, chosen)) return null;
  // Text with code is documentation, whose content is that text and not the navigation around it.
  if (hasDescendant(chosen, CODE_BLOCK)) return null;
  const a = stats.get(area)!;
  const c = stats.get(chosen)!;
  // A declared main area may spread its text over cards; the body, only its prose.
  const spread = c.good < SECTION_SHARE * a.good || (main !== null && c.text < SECTION_SHARE * a.text);
  return spread && a.bad < LANDMARK_LINKS * a.text ? area : null;
}

/**
 * A page WordPress draws as an archive: its `body_class()` names it `archive` and says of what (a
 * category's, a tag's, an author's, a date's, a taxonomy's or a post type's posts). Its posts are
 * the page, however long the category's description above them.
 */
const ARCHIVE_BODY =
  /(?:^|\s)archive(?:\s.*)?\s(?:category|tag|author|date|tax-\S+|post-type-archive\S*)(?:$|\s)/;

/**
 * Whether short prose chosen as an article (a category page's description)
 * is the introduction of a listing: the best listing block holds the prose,
 * and more teaser text than the prose has follows it (a listing's items come
 * after its introduction; a rail of headlines before a story is not its list).
 * On an archive (see ARCHIVE_BODY) the prose may be long and any teasers
 * after it are the listing's items.
 */
function introOfListing(body: Element, chosen: Element, stats: Measured): boolean {
  const s = stats.get(chosen)!;
  const archive = ARCHIVE_BODY.test(body.attribs.class ?? "");
  if (s.good >= ARTICLE_PROSE && !archive) return false;
  const listing = bestBlock(body, stats, LISTING);
  if (listing === chosen || !contains(listing, chosen)) return false;
  let after = 0;
  for (let el: AnyNode = chosen; el !== listing && el.parent; el = el.parent)
    for (let next = el.next; next; next = next.next) if (isElement(next)) after += stats.get(next)?.card ?? 0;
  return archive ? after > 0 : after >= s.good;
}

/**
 * Picks the main content of a cleaned page, by what the page declares itself
 * to be (`type`, see page-type.ts; `weakType` when only `og:type` says
 * article). One bottom-up measuring pass, then the element with the most
 * prose net of teasers and link-dominated text (strong candidates `main`,
 * `article`, `.content`, `#content` preferred when they score nearly as
 * well). A page whose prose is spread over sections keeps its whole main
 * area; a page without such prose is a listing: its teasers become content
 * and the search runs again. Sidebars, and an article's comment section (a
 * thread's posts stay), go first (and a product's customer reviews, when
 * the choice fell on them); an article then loses the teasers after its
 * text, its byline and photo captions; a product keeps its title and price.
 * Never returns nothing for a page with text: falls back to the whole body.
 * For the default mode's page (`page`, see page-content.ts) the byline,
 * photo captions and one-link lines beside text (a post's author, a card's
 * title) stay: the page shows them. `tagLinks` says the page has a
 * `rel="tag"` link (its scan knows): without one, no tag list is looked for.
 */
export function selectMainContent(
  body: Element,
  type: PageType | null = null,
  weakType = false,
  page = false,
  tagLinks = true,
): Element[] {
  // Other products' cards, with their prices, outweigh a short description; on any page, rails of
  // other products or posts go by their heading ("Similar items", "You may also like").
  if (type === "product") dropProductGrids(body);
  dropRelatedRails(body);
  const first = measure(body);
  const droppedSide = dropSideChrome(body, first);
  const droppedComments = dropComments(body, first, type === "forum");
  // Measuring is a full pass: repeat it only when the tree changed.
  let stats = droppedSide || droppedComments ? measure(body) : first;
  let chosen = bestBlock(body, stats, ARTICLE);
  // Buyers may write more than the shop: a choice that fell on a product's reviews is made again
  // without them (they go from the product anyway), so it falls on the product's own text.
  if (type === "product" && inReviews(chosen, body) && dropReviews(body, stats)) {
    stats = measure(body);
    chosen = bestBlock(body, stats, ARTICLE);
  }
  const s = stats.get(chosen)!;
  // og:type "article" alone is set on every page of many sites: it does not make a page one story.
  const land = type === null || weakType ? spreadLandmark(body, chosen, stats) : null;
  if (land) {
    chosen = land;
    dropLinkBlocks(chosen, stats, page);
  } else if (
    (s.good >= ARTICLE_PROSE || s.paras >= ARTICLE_PARAS) &&
    !((type === null || weakType) && introOfListing(body, chosen, stats))
  ) {
    if (type !== "forum") chosen = headlineArticle(chosen, stats) ?? chosen;
    if (type === null || type === "forum") chosen = postsAround(chosen, stats) ?? chosen;
    // A thread's longest branch is one post's replies: the post goes with them (og:type article too,
    // as link aggregators set it on their threads).
    if (type === null || type === "forum" || weakType) chosen = postBeforeReplies(chosen, stats) ?? chosen;
    if (type === "forum") chosen = openingPostBefore(chosen, stats) ?? chosen;
    dropLinkBlocks(chosen, stats, page);
    trimTrailingTeasers(chosen, stats);
    if (!page) dropSectionFooters(chosen, stats);
    if (type === "article" && !page) dropArticleMeta(chosen, stats);
    else if (type === null && !page) dropStoryByline(chosen, stats);
  } else {
    // On a listing the link lists are the content: keep them. But a short
    // story beside link lists stays a story: the listing search must gain
    // teasers or labels, not just links.
    const listing = bestBlock(body, stats, LISTING);
    const l = stats.get(listing)!;
    const gained = l.card + l.weak + l.good - (s.card + s.weak + s.good);
    const declared = s.good >= SHORT_STORY ? declaredBody(chosen) : null;
    // A product is its block however little prose it has: the block around it is taken only for
    // the text it adds (the item's details), not for the links (rails of other products, menus).
    const short = s.good < SHORT_STORY && type !== "product";
    const story = chosen;
    if (!declared && (short || gained >= 0.5 * (l.bad - s.bad))) chosen = listing;
    else {
      chosen = declared ?? chosen;
      dropLinkBlocks(chosen, stats, page);
    }
    // A short story (a paywall's first paragraphs) is still an article: its byline is metadata. A
    // listing around it holds other stories' bylines, which are their teasers' text.
    if (type === "article" && !page && (chosen === story || chosen !== listing))
      dropArticleMeta(chosen, stats);
  }
  if ((stats.get(chosen)?.text ?? 0) === 0) return [body];
  // Tag lists go in both modes: the default mode's page is no more made of links to other pages.
  if (tagLinks) dropTagLinks(chosen);
  // A product's form holds its options (colours, sizes): the product's facts.
  if (type !== "product") dropForms(chosen, stats);
  // Documentation repeats itself on purpose (the same steps under each language's tab): code marks it.
  if (!hasDescendant(chosen, CODE_BLOCK)) dropDuplicateBlocks(chosen, stats);
  // A photo's caption is under the photo on the page; main content leaves both out.
  if (!page) dropPhotoCaptions(chosen, stats, type === "article");
  // A reading-time estimate is metadata like a byline.
  if (!page) dropReadingTimes(chosen);
  if (type === "forum" || type === null) dropPostExtras(chosen, type === "forum");
  if (type === null) dropReviews(chosen, stats, false);
  if (type === "product") {
    dropReviews(chosen, stats);
    return [...productHeader(chosen, body), chosen];
  }
  return [chosen];
}

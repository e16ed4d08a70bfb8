/**
 * Trims applied to the chosen content by page type: an article's byline and
 * photo captions, a forum post's signature and member extras, a product's
 * customer reviews; and on any page, the forms inside the content.
 */

import { dropLeadingByline } from "./leading-lines.ts";
import {
  type AnyNode,
  type Element,
  forEachElement,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  nameWords,
  removeNode,
  smallTextOf,
} from "./nodes.ts";
import { dropMeasured, type Measured } from "./stats.ts";

/** Class words of an article's byline, dateline and metadata strip. */
const META_WORDS =
  /(?:^|[\s_-])(?:byline|bylines|author|authors|dateline|date|timestamp|published|pubdate|post-?meta|entry-?meta|article-?meta|meta)(?:$|[\s_-])/;
/** Text above which an element named like metadata holds more than a byline. */
const META_MAX = 300;

/**
 * Drops an article's byline, dateline and metadata strip ("By Ana Reyes,
 * Published 10:02 AM"): the result carries author and date as metadata, and
 * readers of the text skip them. Only on pages declared articles: elsewhere
 * these words name other things.
 */
export function dropArticleMeta(root: Element, stats: Measured): void {
  dropMeasured(root, stats, (el, s) =>
    isNamedMeta(el) && s.text < META_MAX && !hasDescendant(el, TITLE) ? "drop" : "enter",
  );
  dropLeadingByline(root);
}

/** Class words only a story's byline goes by (`author`, `date` and `meta` name other things too). */
const BYLINE_WORDS = /(?:^|[\s_-])(?:byline|bylines|dateline)(?:$|[\s_-])/;

/**
 * On a page of no declared type read as one story: its byline named so
 * (`h3.byline`: "by Jeff Foust, Monday, November 18, 2019"), and a leading
 * line reading as one.
 */
export function dropStoryByline(root: Element, stats: Measured): void {
  const named: Element[] = [];
  dropMeasured(root, stats, (el, s) => {
    if (isNamedMeta(el, BYLINE_WORDS) && s.text < META_MAX && !hasDescendant(el, TITLE)) {
      named.push(el);
      return "keep";
    }
    return "enter";
  });
  // A story has a byline, and may sign off with its author's bio; more are posts' or teasers' own.
  if (named.length <= STORY_BYLINES) for (const el of named) removeNode(el);
  dropLeadingByline(root);
}

/** Bylines named so in one story: the one under its title and the author's bio closing it. */
const STORY_BYLINES = 2;

/** Whether `el`'s class or id names an article's metadata (`byline`, `dateline`, `post-meta`), or the `words` given. */
export function isNamedMeta(el: Element, words: RegExp = META_WORDS): boolean {
  const named = nameWords(el);
  return named.length > 1 && words.test(named);
}

const TITLE = new Set(["h1"]);

/**
 * Class words of what forum software prints around a post: signatures, member titles, counts and
 * badges, reaction bars, vote and like counts, and a member's post count, join date and group
 * (phpBB's profile-posts and profile-joined, SMF's postcount and membergroup).
 */
const POST_EXTRAS =
  /(?:^|[\s_-])(?:signature|signatures|userextras|user-?extras|usertitle|user-?title|user-?stats|member-?stats|post-?signature|reactionsbar|reactions-?bar|badges?|votes?|voting|vote-?count|likes|like-?count|profile-?posts|profile-?joined|postcount|post-?group|member-?group)(?:$|[\s_-])/;

/** Class words only forum software uses (a badge or a title may sit on a product card). */
const MEMBER_WORDS =
  /(?:^|[\s_-])(?:signature|signatures|userextras|user-?extras|usertitle|user-?stats|member-?stats|post-?signature|profile-?posts|profile-?joined|postcount|postgroup|membergroup)(?:$|[\s_-])/;
/** Members' signatures or stats from which an undeclared page is a thread: one per post of several posts. */
const THREAD_MEMBERS = 3;

/**
 * Drops a thread's post extras: the signature under each post, the member's
 * title, join date and post count beside it, the reactions bar. The author
 * line (name, date) and the post stay. `declared` says the page is a thread;
 * otherwise the extras themselves tell one (several members' signatures or
 * stats), and without them nothing is dropped.
 */
export function dropPostExtras(root: Element, declared = true): void {
  const doomed: Element[] = [];
  let members = 0;
  forEachElement(root, (el) => {
    const w = nameWords(el);
    if (w.length < 2 || !POST_EXTRAS.test(w)) return;
    doomed.push(el);
    if (MEMBER_WORDS.test(w)) members++;
  });
  if (!declared && members < THREAD_MEMBERS) return;
  for (const el of doomed) removeNode(el);
}

/** Class words of photo captions and credits on article pages (elsewhere "caption" often names a card's text). */
const CAPTION_WORDS = /(?:^|[\s_-])(?:caption|credit|photo-?credit|image-?credit)s?(?:$|[\s_-])/;
/** Text above which a caption-named element is more than a caption. */
const CAPTION_MAX = 400;

/**
 * Drops the captions of photos: they describe an image the text does not
 * carry, and neither benchmark's readers count them as the article. The
 * `<figcaption>` of code, a table ("Listing 9-3: ...") or a quotation stays; on a page
 * declared an article, short elements named captions or credits go too.
 */
export function dropPhotoCaptions(root: Element, stats: Measured, article: boolean): void {
  const doomed: Element[] = [];
  forEachElement(root, (el) => {
    if (el.name === "figcaption") {
      const figure = figureOf(el);
      if (figure && !hasDescendant(figure, CAPTIONED_DATA)) doomed.push(el);
    } else if (article && el.attribs.class && isCaptionClass(el, stats)) {
      doomed.push(el);
    }
  });
  for (const el of doomed) removeNode(el);
}

/** A caption or credit as the last word of a camel-cased class: `newsCaption`, `imageCredit`. */
const CAMEL_CAPTION = /[a-z\d](?:Caption|Credit)s?(?:$|[\s_-])/;

const PARAGRAPHS = new Set(["p"]);

/**
 * Whether `el` is a caption or credit by its class, under CAPTION_MAX characters. One named so in camel case and written as
 * paragraphs (NBC's `embeddedMediaCaption` under a video) describes what the text does not
 * show, and stays.
 */
function isCaptionClass(el: Element, stats: Measured): boolean {
  const cls = el.attribs.class ?? "";
  if (CAPTION_WORDS.test(cls.toLowerCase())) return (stats.get(el)?.text ?? 0) < CAPTION_MAX;
  if (!CAMEL_CAPTION.test(cls)) return false;
  // A caption is a few nodes: a bigger element is read no further (nested ones each walked it all).
  const text = smallTextOf(el, CAPTION_NODES);
  return text !== null && text.length < CAPTION_MAX && !hasDescendant(el, PARAGRAPHS);
}

/** Nodes a caption holds at most: its words, their emphasis and links, a credit. */
const CAPTION_NODES = 200;

/** Levels up from a caption to its figure: a template may wrap the picture and caption in a box of their own. */
const CAPTION_DEPTH = 3;

/** The `<figure>` a caption belongs to: its parent, or the figure around a box holding both. */
function figureOf(caption: Element): Element | null {
  let up = caption.parent;
  for (let level = 0; level < CAPTION_DEPTH && up && isElement(up); level++, up = up.parent)
    if (up.name === "figure") return up;
  return null;
}

/** What a figure holds when its caption is text worth keeping; anything else is media (photo, video, embed). */
const CAPTIONED_DATA = new Set(["pre", "code", "table", "blockquote"]);

/** Class words of a product's customer reviews ("reviews", "bvseo-review", "customerReviews"). */
const REVIEW_WORDS = /(?:^|[\s_-])(?:reviews?|customer-?reviews?|product-?reviews?)(?:$|[\s_-])/;
/** An element holding customer reviews, by its microdata or its class words. */
export function isReviews(el: Element): boolean {
  const words = nameWords(el);
  return el.attribs.itemprop === "review" || (words.length > 1 && REVIEW_WORDS.test(words));
}

/** Whether `el` is, or sits inside, a block of customer reviews (below `root`). */
export function inReviews(el: Element, root: Element): boolean {
  for (let up: AnyNode | null = el; up && up !== root; up = up.parent)
    if (isElement(up) && isReviews(up)) return true;
  return false;
}

/** Prose after a lone review block up to which it closes the page, rather than quoting critics inside the description. */
const REVIEWS_TAIL = 300;

/** Share of the content's prose from which, on a page not declared a product, review-named blocks are its text. */
const UNDECLARED_REVIEWS_SHARE = 0.5;

/** Prose that follows `el` inside `root`. */
function proseAfter(el: Element, root: Element, stats: Measured): number {
  let n = 0;
  for (let cur: AnyNode = el; cur !== root && cur.parent; cur = cur.parent)
    for (let next = cur.next; next; next = next.next) if (isElement(next)) n += stats.get(next)?.good ?? 0;
  return n;
}

/**
 * Drops a product's customer reviews: what buyers wrote is not the product's
 * description. Several reviews (more than one paragraph under review names)
 * go wherever they sit; a single block named reviews goes only when it ends
 * the content, since a box of critics' quotes may open the description.
 * On a page that declares no type (`declared` false) reviews go too, unless
 * they hold most of its prose.
 */
export function dropReviews(root: Element, stats: Measured, declared = true): boolean {
  const found: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      if (isReviews(child)) found.push(child);
      else visit(child);
    }
  };
  visit(root);
  let paras = 0;
  let good = 0;
  for (const el of found) {
    paras += stats.get(el)?.paras ?? 0;
    good += stats.get(el)?.good ?? 0;
  }
  // On a page not declared a product, reviews holding most of the prose are the page (a critic's review, a roundup).
  if (!declared && good >= UNDECLARED_REVIEWS_SHARE * (stats.get(root)?.good ?? 0)) return false;
  let dropped = false;
  for (const el of found)
    if (paras >= 2 || proseAfter(el, root, stats) <= REVIEWS_TAIL) {
      removeNode(el);
      dropped = true;
    }
  return dropped;
}

/** Share of the content's text up to which a form in it is a form beside the content, not the page's frame. */
const FORM_SHARE = 0.3;
/** A field's label: what is left of a form once cleaning has dropped its inputs. */
const LABEL = new Set(["label"]);

/**
 * Drops the forms inside the content (contact, quote and sign-up forms):
 * their labels and help texts ("Email (Required)") are not the page's text.
 * A form holding much of the content is the page's frame (ASP.NET wraps
 * whole pages in one) and stays.
 */
export function dropForms(root: Element, stats: Measured): void {
  const limit = FORM_SHARE * (stats.get(root)?.text ?? 0);
  const doomed: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts). A small
  // form is decided whole: it goes, or it holds no label and neither does a form inside it.
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      if (child.name === "form" && (stats.get(child)?.text ?? 0) <= limit) {
        if (hasDescendant(child, LABEL)) doomed.push(child);
      } else visit(child);
    }
  };
  visit(root);
  for (const el of doomed) removeNode(el);
}

/** Share of the content's text up to which a `<footer>` inside it is its section's footer, not its frame. */
const FOOTER_SHARE = 0.25;
/** Where a `<footer>` is a quote's or a figure's citation ("— Ada Lovelace"), which is the quote's. */
const CITED = new Set(["blockquote", "figure", "q"]);

/**
 * Drops the footers of an article or section inside the content (HTML's `<footer>` of a sectioning
 * element: who wrote it, its tags, its share links, its comment policy, "As you comment, please be
 * respectful..."), as cleaning drops the page's footer outside it. A quote's or a figure's footer is
 * its citation and stays, and so does a footer holding a heading or much of the content (a page
 * drawn inside one).
 */
export function dropSectionFooters(root: Element, stats: Measured): void {
  const limit = FOOTER_SHARE * (stats.get(root)?.text ?? 0);
  const doomed: Element[] = [];
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child) || CITED.has(child.name)) continue;
      if (child.name !== "footer") visit(child);
      else if ((stats.get(child)?.text ?? 0) <= limit && !hasDescendant(child, HEADING_TAGS))
        doomed.push(child);
    }
  };
  visit(root);
  for (const el of doomed) removeNode(el);
}

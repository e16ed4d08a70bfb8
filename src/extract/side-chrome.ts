import { isFactBox } from "./fact-box.ts";
import {
  type AnyNode,
  type Element,
  forEachElement,
  hasDescendant,
  isElement,
  isEmbeddedPost,
  listsOtherPages,
  nameWords,
  removeNode,
  someDescendant,
  TOC_WORD,
} from "./nodes.ts";
import type { Measured, TextStats } from "./stats.ts";
import { ARTICLE_PROSE } from "./story-bounds.ts";

/**
 * Side chrome a "main content only" answer drops before choosing its block (main-content.ts):
 * sidebars and rails named so, related and popular lists, author boxes, a table of contents,
 * pagination, testimonials beside an article; unless what is named so is the page itself.
 */

const CODE_BLOCK = new Set(["pre"]);

/** Code, whose class names are a highlighter's token names ("token comment"). */
const CODE_TAGS = new Set(["pre", "code"]);

/** Chrome that the default mode keeps but a "main content only" answer drops. */
const SIDE_WORDS =
  /(?:^|[\s_-])(sidebar|side-?bar|aside|related|recommended|recommendations|more-stories|read-?more|trending|popular|most-?read|widget|widgets|tags|tag-?list|author-?bio|author-?box|about-?(?:the-?)?author|author-?card|author-?details|byline-?social|newsletter|promo|rail|right-?rail|left-?rail|toc|table-?of-?contents|pagination|pager|testimonials?)(?:$|[\s_-])/;

/**
 * Share of the page's text above which the elements sharing a side-chrome
 * word are the page itself: Elementor names every block `elementor-widget`,
 * a WordPress sidebar is `widget` beside the article.
 */
const SIDE_SHARE = 0.5;

/**
 * Customers' quotes: a carousel of them may outweigh the article it follows
 * (sliders clone every slide), yet beside an article's prose they are not
 * the page's text; a page of testimonials alone keeps them.
 */
const QUOTE_WORDS = /^testimonials?$/;

export function dropSideChrome(body: Element, stats: Measured): boolean {
  const page = stats.get(body);
  // A side element holding much of the page's prose is the content, whatever its name.
  const limit = Math.min(1500, 0.3 * (page?.good ?? 0));
  const groups = new Map<string, { text: number; good: number; els: Element[] }>();
  // A layout wrapper named after its sidebar ("content-sidebar-wrap") that holds the main landmark is not a sidebar.
  const holdsMain = new Set<AnyNode>();
  forEachElement(body, (el) => {
    if (el.name === "main" || el.attribs.role === "main")
      for (let p: AnyNode | null = el; p && p !== body; p = p.parent) holdsMain.add(p);
  });
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (el: Element, inContent: boolean): void => {
    for (const child of el.children as AnyNode[]) {
      if (!isElement(child)) continue;
      const s = stats.get(child);
      if (!s || CODE_TAGS.has(child.name)) continue;
      const a = child.attribs;
      const words = nameWords(child);
      const landmark =
        (child.name === "aside" || a.role === "complementary") && !(inContent && isFactBox(child, s, stats));
      const word = landmark ? "" : SIDE_WORDS.exec(words)?.[1];
      // A side column holding code is the code samples beside an API reference, not chrome.
      if (
        word === undefined ||
        (word !== "" && isTextExpander(word, s)) ||
        isFactList(word, s) ||
        s.good >= limit ||
        holdsMain.has(child) ||
        hasDescendant(child, CODE_BLOCK) ||
        // A "widget" holding a post embedded in the text (a tweet) is that post.
        someDescendant(child, isEmbeddedPost) ||
        isChapterContents(child)
      ) {
        visit(child, inContent || child.name === "main" || child.name === "article" || a.role === "main");
        continue;
      }
      let group = groups.get(word);
      if (!group) {
        group = { text: 0, good: 0, els: [] };
        groups.set(word, group);
      }
      group.text += s.text;
      group.good += s.good;
      group.els.push(child);
    }
  };
  visit(body, false);
  let dropped = false;
  for (const [word, group] of groups) {
    const besideArticle = QUOTE_WORDS.test(word) && (page?.good ?? 0) - group.good >= ARTICLE_PROSE;
    if (word && !besideArticle && group.text > SIDE_SHARE * (page?.text ?? 0)) continue;
    for (const el of group.els) removeNode(el);
    dropped = true;
  }
  return dropped;
}

/**
 * "Tags" names both a post's tag list (a link a tag) and a card's facts
 * ("C$115k - 145k", "Offers relocation", "Remote, Canada only"): these are
 * mostly unlinked text, and the card's own.
 */
function isFactList(word: string, s: TextStats): boolean {
  return TAG_WORD.test(word) && s.link < FACTS_LINKED * s.text;
}
const TAG_WORD = /^(?:tags|tag-?list)$/;
const FACTS_LINKED = 0.5;

/**
 * "Read more" names both a list of more stories and the expander holding the
 * rest of a text ("read-more-content"): the second is prose, not links.
 */
function isTextExpander(word: string, s: TextStats): boolean {
  return READ_MORE.test(word) && s.good >= EXPANDER_PROSE * s.text;
}
const READ_MORE = /^read-?more$/;
const EXPANDER_PROSE = 0.8;

/** A chapter's table of contents (see listsOtherPages): links, yet the chapter page's own text. */
export function isChapterContents(el: Element): boolean {
  const words = nameWords(el);
  return TOC_WORD.test(words) && listsOtherPages(el);
}

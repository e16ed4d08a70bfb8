import {
  type AnyNode,
  contains,
  type Element,
  forEachElement,
  isElement,
  nameWords,
  previousElement,
} from "./nodes.ts";
import type { Measured } from "./stats.ts";

/**
 * Where the story or the thread ends, once main-content selection has chosen
 * a block of prose (see main-content.ts): the article holding the headline
 * among other stories' articles, the posts of a thread around the one post
 * chosen, the body a page declares for a short story.
 */

/** Prose of a short story (a news brief) that link lists around it must not outweigh. */
export const SHORT_STORY = 300;

/** Prose from which a block is an article even if teasers surround it. */
export const ARTICLE_PROSE = 1000;

/** Comment sections of articles (not forum posts: those are the content of a thread page). */
export const COMMENT_WORDS =
  /(?:^|[\s_-])(?:comments?|commentlist|comment-?list|comments-?(?:area|section|wrapper|container|block)|respond|disqus|disqus_thread)(?:$|[\s_-])/;

/**
 * Of sibling `<article>` elements, the one holding the page's only headline
 * (h1) is the story; the others are other stories' teasers ("you may also
 * like" posts, each an article of its own), unless one other article alone
 * holds more prose than it (the story's body beside its header). Not on a
 * thread, whose replies are articles too, nor beside articles named comments.
 */
export function headlineArticle(chosen: Element, stats: Measured): Element | null {
  const headlines: Element[] = [];
  const articles: Element[] = [];
  forEachElement(chosen, (el) => {
    if (el.name === "h1") headlines.push(el);
    else if (el.name === "article") articles.push(el);
  });
  if (headlines.length !== 1) return null;
  let story: Element | null = null;
  for (let p = headlines[0]!.parent; p && p !== chosen; p = p.parent)
    if (isElement(p) && p.name === "article") story = p;
  if (!story || (stats.get(story)?.good ?? 0) < SHORT_STORY) return null;
  const found = story;
  // Replies to a post (a thread's, or comments) are articles of their own too, and they stay.
  if (articles.some((a) => COMMENT_WORDS.test(nameWords(a)))) return null;
  const others = articles.filter((a) => !contains(a, found) && !contains(found, a));
  // One other article outweighing the headline's is the story's body (a recipe's header is an
  // article, and so are its steps); other stories' teasers come several, one of them maybe longer.
  if (others.length === 1 && (stats.get(others[0]!)?.good ?? 0) > (stats.get(found)?.good ?? 0)) return null;
  return others.length ? found : null;
}

/**
 * A post of a thread chosen alone (the longest reply): when it, or a wrapper
 * a few levels up, has siblings of its own kind (same tag and class) that hold
 * prose too, the thread is their container. Posts of a forum are drawn by one
 * template, so they share their markup; an article's parts do not repeat it.
 */
export function postsAround(chosen: Element, stats: Measured): Element | null {
  let unit: Element = chosen;
  for (let level = 0; level <= POST_LEVELS && unit.parent && isElement(unit.parent); level++) {
    const parent = unit.parent as Element;
    const cls = unit.attribs.class;
    if (cls) {
      let others = 0;
      for (const sibling of parent.children as AnyNode[]) {
        if (
          sibling === unit ||
          !isElement(sibling) ||
          sibling.name !== unit.name ||
          sibling.attribs.class !== cls
        )
          continue;
        if ((stats.get(sibling)?.good ?? 0) >= POST_PROSE) others++;
      }
      if (others >= 1) return parent;
    }
    unit = parent;
  }
  return null;
}

/**
 * A thread's replies chosen without the post that opened it: when the block chosen holds posts
 * (children of one tag with prose, `<article class="reply">`) and an element of that tag with
 * prose stands before it (`<article class="topic">`, the question), the thread is their parent.
 */
export function openingPostBefore(chosen: Element, stats: Measured): Element | null {
  const parent = chosen.parent;
  if (!parent || !isElement(parent)) return null;
  const tags = postTags(chosen, stats);
  if (!tags.size) return null;
  for (let before = chosen.prev; before; before = before.prev) {
    if (!isElement(before)) continue;
    if (tags.has(before.name) && (stats.get(before)?.good ?? 0) >= POST_PROSE) return parent;
  }
  return null;
}

/**
 * Replies chosen without the post they answer: a thread drawn as nested lists (Lobsters' and
 * Hacker News-like `<li><div class="comment">post</div><ol class="comments">replies</ol></li>`)
 * whose longest branch is one post's replies. When the block chosen holds posts as list items and
 * the element right before it holds a post's prose, the post and its replies are their parent.
 */
export function postBeforeReplies(chosen: Element, stats: Measured): Element | null {
  const parent = chosen.parent;
  if (!parent || !isElement(parent) || !postTags(chosen, stats).has("li")) return null;
  const before = previousElement(chosen);
  return before && (stats.get(before)?.good ?? 0) >= POST_PROSE ? parent : null;
}

/** The tag names of the block's children that hold a post's prose (`article`, `li`, ...). */
function postTags(block: Element, stats: Measured): Set<string> {
  const tags = new Set<string>();
  for (const child of block.children as AnyNode[])
    if (isElement(child) && (stats.get(child)?.good ?? 0) >= POST_PROSE) tags.add(child.name);
  return tags;
}

/** Levels above the chosen text where a post's outer wrapper may sit (text, post, post area, wrapper, post). */
const POST_LEVELS = 5;
/** Prose from which a sibling of the chosen post is a post too. */
const POST_PROSE = 100;

/** The element holding `el` that the page declares its article's body (schema.org microdata). */
export function declaredBody(el: Element): Element | null {
  for (let p: AnyNode | null = el; p && isElement(p); p = p.parent)
    if (p.attribs.itemprop === "articleBody") return p;
  return null;
}

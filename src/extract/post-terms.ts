/**
 * WordPress's `post_class()` signs a post's element with `hentry` (or `status-publish`) and names
 * each of the post's categories and tags in a class of its own: `category-popular`,
 * `category-sidebar-recipes`, `tag-related`. Those name the terms the post is filed under, not what
 * the element is: a recipe card filed under "Popular" is no "popular posts" rail. On such an
 * element they are left out of the words class-name rules read; a `tag-list` or `category-nav`
 * elsewhere still names its element.
 */
const POST_CLASS = /(?:^|\s)(?:hentry|status-publish)(?=\s|$)/;
const TERM_CLASSES = /(?:^|\s)(?:category|tag)-\S+/g;

/** The class attribute without the post's category and tag classes, when it is WordPress's post_class. */
export function withoutPostTerms(cls: string): string {
  return POST_CLASS.test(cls) ? cls.replace(TERM_CLASSES, " ") : cls;
}

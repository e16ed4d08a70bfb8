import type { SearchCategory } from "../schemas/search.ts";

/**
 * What each category means to an engine. DuckDuckGo and Brave take the query
 * operators (site:, filetype:, intitle:, OR), which both document; SearXNG
 * takes its own category where it has one. docs/search-and-answers.md (Search) shows this table.
 */
export const CATEGORY_OPERATORS: Record<SearchCategory, string> = {
  github: "site:github.com",
  pdf: "filetype:pdf",
  docs: "intitle:documentation OR intitle:docs",
  blog: "intitle:blog",
  news: "site:reuters.com OR site:apnews.com OR site:bbc.com OR site:theguardian.com OR site:npr.org",
  video: "site:youtube.com OR site:vimeo.com",
  social: "site:reddit.com OR site:x.com OR site:linkedin.com OR site:news.ycombinator.com",
};

/** SearXNG's own categories (its `categories` parameter); the others go in as operators. */
export const SEARXNG_CATEGORIES: Partial<Record<SearchCategory, string>> = {
  github: "repos",
  news: "news",
  video: "videos",
  social: "social media",
};

/**
 * The query with the operators of `categories` appended: one category as
 * written, alternatives (several categories, or a category of several sites)
joined with OR in parentheses ("any of these kinds").
 */
export function withOperators(q: string, categories: SearchCategory[]): string {
  if (categories.length === 0) return q;
  const operators = categories.map((c) => CATEGORY_OPERATORS[c]).join(" OR ");
  return operators.includes(" OR ") ? `${q} (${operators})` : `${q} ${operators}`;
}

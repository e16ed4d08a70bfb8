/** The Accept headers siphon sends for a page: constants the pipeline names without loading the HTTP engine. */

/** The Accept of a desktop Chrome navigation: HTML first. */
export const HTML_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
/**
 * The Accept of a page fetched for site markdown: Chrome's, stating markdown below HTML, so a site
 * that publishes markdown twins may answer with one (src/pipeline/site-markdown.ts) and every
 * other site is unaffected. The simple engine's own default stays HTML_ACCEPT.
 */
export const MARKDOWN_AWARE_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,text/markdown;q=0.9,image/avif,image/webp,*/*;q=0.8";

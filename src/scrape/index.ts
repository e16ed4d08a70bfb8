/**
 * What a scrape is made of besides the fetch: the deadline of the whole operation and the
 * page's meta tags. The operation itself is src/pipeline/scrape.ts; its request and outcome
 * types are re-exported here for the modules that name them from this folder.
 */
export type { ScrapeOutcome, ScrapeRequest } from "../pipeline/scrape.ts";
export { withDeadline } from "./deadline.ts";
export { type PageMetaTags, pageMetaTags } from "./meta-tags.ts";

import { defineCommand } from "citty";
import { CrawlBody, ScrapeOptions } from "../../src/schemas/jobs.ts";
import { refuseTogether } from "../flag-rules.ts";
import { jobOutputArgs, runJobCommand } from "../job-follow.ts";
import { setQuiet } from "../output.ts";
import { jobPageFlagPicks } from "../page-flags.ts";
import { remoteArgs } from "../remote.ts";
import { nonEmpty, schemaFlags, validateFlags } from "../schema-flags.ts";

/** What to crawl: POST /v1/crawl's own fields. */
const crawlFlags = schemaFlags(CrawlBody, {
  limit: true,
  maxDepth: true,
  includePaths: true,
  excludePaths: true,
  allowSubdomains: true,
  allowExternalLinks: true,
  ignoreRobotsTxt: true,
  ignoreSitemap: true,
  sitemap: {
    description: "include (default): sitemaps and links; skip: links alone; only: the sitemaps' URLs alone",
    valueHint: "use",
  },
  maxConcurrency: true,
  delay: { valueHint: "s" },
  // The crawl's own location and languages are the ones its pages use (src/jobs/spec.ts).
  location: {
    description: "Country code (ISO 3166-1 alpha-2) for every page's Accept-Language",
    valueHint: "cc",
  },
  languages: { description: "Language preferences for every page, e.g. de-CH,fr" },
});

/** How each page is fetched: the request's scrapeOptions (POST /v1/fetch's options). */
const pageFlags = schemaFlags(
  ScrapeOptions,
  {
    format: { description: "Format of each page's content: markdown, text or html", valueHint: "fmt" },
    formats: {
      description:
        "Outputs of each page, all from one fetch (in --json), as POST /v1/fetch's formats: markdown, text, html, rawHtml, links, images, screenshot…",
    },
    ...jobPageFlagPicks,
  },
  "scrapeOptions",
);

export default defineCommand({
  meta: { name: "crawl", description: "Crawl a site: pages as they finish, or one .md per page with -o DIR" },
  args: {
    url: { type: "positional", required: true, description: "Starting URL" },
    ...crawlFlags.args,
    ...pageFlags.args,
    ...jobOutputArgs,
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    refuseTogether(args, "output", "json", "-o DIR writes the pages to files, --json prints them");
    const input = validateFlags(
      CrawlBody,
      { url: args.url, ...crawlFlags.read(args), scrapeOptions: nonEmpty(pageFlags.read(args)) },
      [crawlFlags, pageFlags],
    );
    return runJobCommand(args, "crawl", input, "markdown");
  },
});

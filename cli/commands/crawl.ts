import { defineCommand } from "citty";
import { submitCrawl } from "../../src/jobs/submit.ts";
import { splitList } from "../../src/schemas/common.ts";
import { CrawlBody } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { jobOutputArgs, runJobCommand } from "../job-follow.ts";
import { setQuiet } from "../output.ts";
import { remoteArgs } from "../remote.ts";

export default defineCommand({
  meta: { name: "crawl", description: "Crawl a site: pages as they finish, or one .md per page with -o DIR" },
  args: {
    url: { type: "positional", required: true, description: "Starting URL" },
    limit: { type: "string", description: "Most pages (default 100)", valueHint: "n" },
    "max-depth": { type: "string", description: "Most link hops (default 3)", valueHint: "n" },
    "include-paths": {
      type: "string",
      description: "Comma-separated path regexes to follow",
      valueHint: "list",
    },
    "exclude-paths": {
      type: "string",
      description: "Comma-separated path regexes to skip",
      valueHint: "list",
    },
    "allow-subdomains": { type: "boolean", description: "Follow subdomains" },
    "allow-external-links": { type: "boolean", description: "Follow other sites" },
    "ignore-robots-txt": { type: "boolean", description: "Do not read robots.txt" },
    "ignore-sitemap": { type: "boolean", description: "Do not seed from sitemaps" },
    "max-concurrency": {
      type: "string",
      description: "Pages fetched at once, 1-5 (default 5)",
      valueHint: "n",
    },
    delay: { type: "string", description: "Seconds between two pages of one host", valueHint: "s" },
    format: {
      type: "string",
      description: "Page format: markdown (default), text or html",
      valueHint: "fmt",
    },
    "only-main-content": { type: "boolean", description: "Keep only each page's main content" },
    ...jobOutputArgs,
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    const scrapeOptions = defined({ format: args.format, onlyMainContent: args["only-main-content"] });
    const input = validate(
      CrawlBody,
      defined({
        url: args.url,
        limit: numberFlag(args.limit, "limit"),
        maxDepth: numberFlag(args["max-depth"], "max-depth"),
        includePaths: splitList(args["include-paths"]),
        excludePaths: splitList(args["exclude-paths"]),
        allowSubdomains: args["allow-subdomains"],
        allowExternalLinks: args["allow-external-links"],
        ignoreRobotsTxt: args["ignore-robots-txt"],
        ignoreSitemap: args["ignore-sitemap"],
        maxConcurrency: numberFlag(args["max-concurrency"], "max-concurrency"),
        delay: numberFlag(args.delay, "delay"),
        scrapeOptions: Object.keys(scrapeOptions).length ? scrapeOptions : undefined,
      }),
    );
    return runJobCommand(
      args,
      "/v1/crawl",
      input,
      (ctx, accountId) => submitCrawl(input, accountId, { ...ctx, now: Date.now() }),
      "markdown",
    );
  },
});

import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { submitCrawl } from "../../src/jobs/submit.ts";
import { splitList } from "../../src/schemas/common.ts";
import { CrawlBody } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { followJob, localJob, remoteJob } from "../job-follow.ts";
import { setQuiet } from "../output.ts";
import { remoteArgs, remoteOf } from "../remote.ts";

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
    format: {
      type: "string",
      description: "Page format: markdown (default), text or html",
      valueHint: "fmt",
    },
    "only-main-content": { type: "boolean", description: "Keep only each page's main content" },
    output: {
      type: "string",
      alias: "o",
      description: "Folder for one .md per page and index.json",
      valueHint: "dir",
    },
    json: { type: "boolean", description: "JSON Lines, one page a line, as pages finish" },
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
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
        scrapeOptions: Object.keys(scrapeOptions).length ? scrapeOptions : undefined,
      }),
    );
    const options = { json: args.json === true, outDir: args.output, contentKey: "markdown" };
    const remote = remoteOf(args, loadConfig());
    if (remote) return followJob(await remoteJob(remote, "/v1/crawl", input), options);
    const ctx = await openContext();
    try {
      const host = await localJob(ctx, (accountId) =>
        submitCrawl(input, accountId, { ...ctx, now: Date.now() }),
      );
      return await followJob(host, options);
    } finally {
      await ctx.close();
    }
  },
});

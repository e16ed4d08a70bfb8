import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { applyCrawlPrompt } from "../../src/crawl/prompt.ts";
import { SiphonError } from "../../src/errors.ts";
import { CrawlBody, type CrawlInput, ScrapeOptions } from "../../src/schemas/jobs.ts";
import { chunkArgs, chunkEntry, withChunks } from "../chunk-flags.ts";
import { refuseTogether } from "../flag-rules.ts";
import { jobOutputArgs, runJobCommand } from "../job-follow.ts";
import { llmArgs, llmRequestFields } from "../llm-flags.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { jobPageFlagPicks } from "../page-flags.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
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
    ...chunkArgs,
    prompt: {
      type: "string",
      description:
        "What to crawl, in a sentence: an LLM (--llm…, else SIPHON_LLM_*) turns it into paths, depth, limit and sitemap use; flags given win",
      valueHint: "text",
    },
    preview: {
      type: "boolean",
      description: "With --prompt: print the crawl options it gives (JSON) and stop, crawling nothing",
    },
    ...llmArgs,
    ...jobOutputArgs,
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    refuseTogether(args, "output", "json", "-o DIR writes the pages to files, --json prints them");
    const pages = pageFlags.read(args);
    const chunks = chunkEntry(args);
    if (chunks) pages.formats = withChunks(pages.formats, chunks);
    const raw = { url: args.url, ...crawlFlags.read(args), scrapeOptions: nonEmpty(pages) };
    const prompt = typeof args.prompt === "string" ? args.prompt : undefined;
    if (args.preview && !prompt)
      throw new SiphonError("invalid_request", "--preview shows what --prompt gives: add --prompt");
    if (!prompt)
      return runJobCommand(args, "crawl", validateFlags(CrawlBody, raw, [crawlFlags, pageFlags]), "markdown");
    const asked = { ...raw, prompt, ...llmRequestFields(args) };
    const remote = remoteOf(args, loadConfig());
    if (remote) {
      if (args.preview) {
        const preview = await callApi<{ params: unknown }>(remote, "POST", "/v1/crawl/params-preview", {
          url: args.url,
          prompt,
          ...llmRequestFields(args),
        });
        await writeStdout(`${JSON.stringify(preview.params, null, 2)}\n`);
        return 0;
      }
      // The server reads the prompt, with the same LLM fields.
      return runJobCommand(args, "crawl", asked as unknown as CrawlInput, "markdown");
    }
    // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
    const prompted = await applyCrawlPrompt(asked, { config: loadConfig(), apiBasePolicy: "trust" });
    if (args.preview) {
      await writeStdout(`${JSON.stringify(prompted.params, null, 2)}\n`);
      return 0;
    }
    log.info(`crawl options from the prompt: ${JSON.stringify(prompted.params)}`);
    const input = validateFlags(CrawlBody, prompted.body, [crawlFlags, pageFlags]);
    return runJobCommand(args, "crawl", input, "markdown");
  },
});

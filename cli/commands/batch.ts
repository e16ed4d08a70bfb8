import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { SiphonError } from "../../src/errors.ts";
import { BatchBody } from "../../src/schemas/jobs.ts";
import { chunkArgs, chunkEntry, withChunks } from "../chunk-flags.ts";
import { refuseTogether } from "../flag-rules.ts";
import { jobOutputArgs, runJobCommand } from "../job-follow.ts";
import { setQuiet } from "../output.ts";
import { jobPageFlagPicks } from "../page-flags.ts";
import { remoteArgs } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";

function readList(file: string): string[] {
  let text: string;
  try {
    text = file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8");
  } catch {
    throw new SiphonError("invalid_request", `Cannot read the URL list "${file}"`);
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** What each page gives: POST /v1/batch/scrape's own fields. */
const batchFlags = schemaFlags(BatchBody, {
  format: {
    description: "Each page's content: markdown (default), text or html (put first in --formats)",
    valueHint: "fmt",
  },
  formats: {
    description:
      "Outputs of each page, all from one fetch (in --json): markdown, text, html (the first sets content), rawHtml, links, images…",
  },
  maxTokens: { description: "Truncate each page's content at this many tokens" },
  maxConcurrency: true,
});

/** How each page is fetched: the batch body's page options (POST /v1/fetch's), as crawl's page flags. */
const pageFlags = schemaFlags(BatchBody, {
  ...jobPageFlagPicks,
  location: {
    description: "Country code (ISO 3166-1 alpha-2) for every page's Accept-Language",
    valueHint: "cc",
  },
  languages: { description: "Language preferences for every page, e.g. de-CH,fr" },
  timeout: { description: "ms for each page's whole fetch (1000-300000)", valueHint: "ms" },
});

export default defineCommand({
  meta: {
    name: "batch",
    description: "Scrape up to 100 URLs from a file (one a line; - for stdin), 5 at a time",
  },
  args: {
    file: { type: "positional", required: true, description: "File of URLs, one a line, or -" },
    ...batchFlags.args,
    ...pageFlags.args,
    ...chunkArgs,
    ...jobOutputArgs,
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    refuseTogether(args, "output", "json", "-o DIR writes the pages to files, --json prints them");
    const own = batchFlags.read(args);
    const chunks = chunkEntry(args);
    const input = validateFlags(
      BatchBody,
      {
        urls: readList(args.file),
        ...own,
        ...(chunks ? { formats: withChunks(own.formats, chunks) } : {}),
        ...pageFlags.read(args),
      },
      [batchFlags, pageFlags],
    );
    return runJobCommand(args, "batch", input, "content");
  },
});

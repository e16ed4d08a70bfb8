import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { SiphonError } from "../../src/errors.ts";
import { BatchBody } from "../../src/schemas/jobs.ts";
import { refuseTogether } from "../flag-rules.ts";
import { jobOutputArgs, runJobCommand } from "../job-follow.ts";
import { setQuiet } from "../output.ts";
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

/** What each page gives: POST /v1/batch/scrape's fields. */
const batchFlags = schemaFlags(BatchBody, {
  formats: {
    description:
      "Outputs of each page, all from one fetch (in --json): markdown, text, html (the first sets content), rawHtml, links, images…",
  },
  maxTokens: { description: "Truncate each page's content at this many tokens" },
  maxConcurrency: true,
});

/** --format X: X first in formats (it sets each item's content), then the rest of --formats. */
function formatsOf(format: unknown, formats: unknown): unknown {
  if (typeof format !== "string") return formats;
  const rest = Array.isArray(formats) ? formats.filter((f) => f !== format) : [];
  return [format, ...rest];
}

export default defineCommand({
  meta: {
    name: "batch",
    description: "Scrape up to 100 URLs from a file (one a line; - for stdin), 5 at a time",
  },
  args: {
    file: { type: "positional", required: true, description: "File of URLs, one a line, or -" },
    format: {
      type: "string",
      description: "Each page's content: markdown (default), text or html (the first of --formats)",
      valueHint: "fmt",
    },
    ...batchFlags.args,
    ...jobOutputArgs,
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    refuseTogether(args, "output", "json", "-o DIR writes the pages to files, --json prints them");
    const given = batchFlags.read(args);
    const formats = formatsOf(args.format, given.formats);
    const input = validateFlags(
      BatchBody,
      { urls: readList(args.file), ...given, ...(formats ? { formats } : {}) },
      [batchFlags],
    );
    return runJobCommand(args, "batch", input, "content");
  },
});

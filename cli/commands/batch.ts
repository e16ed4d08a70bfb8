import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { SiphonError } from "../../src/errors.ts";
import { submitBatch } from "../../src/jobs/submit.ts";
import { BatchBody } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { jobOutputArgs, runJobCommand } from "../job-follow.ts";
import { setQuiet } from "../output.ts";
import { remoteArgs } from "../remote.ts";

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

export default defineCommand({
  meta: {
    name: "batch",
    description: "Scrape up to 100 URLs from a file (one a line; - for stdin), 5 at a time",
  },
  args: {
    file: { type: "positional", required: true, description: "File of URLs, one a line, or -" },
    format: { type: "string", description: "markdown (default), text or html", valueHint: "fmt" },
    "max-tokens": { type: "string", description: "Truncate each page at this many tokens", valueHint: "n" },
    "max-concurrency": {
      type: "string",
      description: "URLs fetched at once, 1-5 (default 5)",
      valueHint: "n",
    },
    ...jobOutputArgs,
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    const input = validate(
      BatchBody,
      defined({
        urls: readList(args.file),
        formats: args.format ? [args.format] : undefined,
        maxTokens: numberFlag(args["max-tokens"], "max-tokens"),
        maxConcurrency: numberFlag(args["max-concurrency"], "max-concurrency"),
      }),
    );
    return runJobCommand(
      args,
      "/v1/batch/scrape",
      input,
      (ctx, accountId) => submitBatch(input, accountId, { ...ctx, now: Date.now() }),
      "content",
    );
  },
});

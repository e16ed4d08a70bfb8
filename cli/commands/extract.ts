import { existsSync, readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { extractJobView, extractMany, extractRequestOf } from "../../src/jobs/extract-job.ts";
import { isEnded } from "../../src/jobs/read.ts";
import {
  ExtractBody,
  type ExtractInput,
  type ExtractJobPoll,
  type ExtractResponse,
} from "../../src/schemas/extract.ts";
import { validate } from "../../src/schemas/validate.ts";
import { extractUrl, extractUrlAuto } from "../../src/structured/fetch.ts";
import { extractRequest } from "../../src/structured/index.ts";
import { defined } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { llmArgs, llmKeyOf } from "../llm-flags.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { progressBar } from "../progress.ts";
import { callApi, type Remote, remoteArgs, remoteOf } from "../remote.ts";
import { many } from "../strict-args.ts";

const args = {
  url: many({
    type: "positional",
    required: true,
    description: "The page; several (up to 100) are extracted as a job and their data merged",
  }),
  schema: {
    type: "string",
    description: "JSON Schema of the result: a file, or JSON",
    valueHint: "file|json",
  },
  prompt: { type: "string", description: "What to extract, in words (needs --llm)", valueHint: "text" },
  selectors: {
    type: "string",
    description: 'Fields by CSS selector, no LLM: \'{"name":"h1","images":["img@src"]}\' (a file or JSON)',
    valueHint: "file|json",
  },
  ...llmArgs,
  json: {
    type: "boolean",
    description:
      "Print the whole Extract response (data, method, sources, tokensUsed); with several URLs the job's final poll (data, results)",
  },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** A flag that holds JSON, or names a file holding it. */
function jsonFlag(value: unknown, name: string): unknown {
  if (typeof value !== "string") return undefined;
  const text = !value.trim().startsWith("{") && existsSync(value) ? readFileSync(value, "utf8") : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SiphonError(
      "invalid_request",
      `--${name} is neither JSON nor a readable JSON file: ${(error as Error).message}`,
    );
  }
}

/** The request body for the flags (`url` for one page, `urls` for several); the LLM only when a --llm flag asks for one. */
function inputFor(urls: string[], a: Args): ExtractInput {
  const wantsLlm = a.llm !== undefined || a["llm-key"] !== undefined || a["llm-base"] !== undefined;
  return validate(
    ExtractBody,
    defined({
      url: urls.length === 1 ? urls[0] : undefined,
      urls: urls.length > 1 ? urls : undefined,
      schema: jsonFlag(a.schema, "schema"),
      prompt: a.prompt,
      selectors: jsonFlag(a.selectors, "selectors"),
      llmProvider: wantsLlm ? (a.llm ?? "openai") : undefined,
      llmApiKey: wantsLlm ? llmKeyOf(a.llm, a["llm-key"]) : undefined,
      llmModel: a["llm-model"],
      llmApiBase: a["llm-base"],
    }),
  );
}

/** Starts the extraction job on the server and polls it to its end; Ctrl-C cancels it. */
async function remoteJob(remote: Remote, input: ExtractInput): Promise<ExtractJobPoll> {
  const { id } = await callApi<{ id: string }>(remote, "POST", "/v1/extract", input);
  const path = `/v1/extract/${id}`;
  const stop = () => void callApi(remote, "DELETE", path).catch(() => {});
  process.once("SIGINT", stop);
  const bar = progressBar({});
  try {
    for (;;) {
      const poll = await callApi<ExtractJobPoll>(remote, "GET", `${path}?limit=1000`);
      bar.update(poll.status, poll.completed, poll.total);
      if (isEnded(poll)) return poll;
      await Bun.sleep(200);
    }
  } finally {
    process.off("SIGINT", stop);
    bar.end();
  }
}

/** The pages extracted here, 5 at a time, in the shape of the job's final poll. */
async function localJob(input: ExtractInput, urls: string[]): Promise<ExtractJobPoll> {
  const request = await extractRequestOf(input);
  const ctx = await openContext();
  try {
    // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
    const { job, pages } = await extractMany(urls, request, { ...ctx, apiBasePolicy: "trust" });
    const view = extractJobView(job, pages, 0, pages.length);
    return { success: true, progress: 100, ...view, lastProgressAt: new Date().toISOString() };
  } finally {
    await ctx.close();
  }
}

/**
 * Several URLs: one extraction job (on the server, or here), then the merged data on stdout
 * (--json: the final poll); failed pages are named on stderr. Exit 5 when every page failed.
 */
async function extractSeveral(urls: string[], a: Args, remote: Remote | null): Promise<number> {
  const input = inputFor(urls, a);
  const poll = remote ? await remoteJob(remote, input) : await localJob(input, urls);
  for (const page of poll.results)
    if ("error" in page) log.warn(`${page.url}: ${page.error.message} [${page.error.type}]`);
  if (poll.tokensUsed) log.debug(`tokens: ${poll.tokensUsed.input} in, ${poll.tokensUsed.output} out`);
  if (a.json) await writeStdout(`${JSON.stringify(poll, null, 2)}\n`);
  else if (poll.data) await writeStdout(`${JSON.stringify(poll.data, null, 2)}\n`);
  if (poll.status === "failed") log.error(poll.error ?? "The extraction job failed");
  else log.info(`${poll.status}: ${poll.completed - poll.failed} of ${poll.total} pages`);
  return poll.status === "failed" ? 5 : 0;
}

export default defineCommand({
  meta: {
    name: "extract",
    description:
      "Extract structured data from pages as JSON: with --schema/--prompt and --llm, with --schema alone (the page's structured data), with --selectors, or with nothing (everything found on one page); several URLs are merged",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { url: string; _: string[] };
    setQuiet(a.quiet === true);
    const remote = remoteOf(a, loadConfig());
    const urls = a._.length ? a._ : [a.url];
    if (urls.length > 1) return extractSeveral(urls, a, remote);
    const input = inputFor([a.url], a);
    const auto = !input.schema && !input.prompt && !input.selectors;
    let response: ExtractResponse;
    if (remote) {
      response = auto
        ? await callApi<ExtractResponse>(remote, "GET", `/v1/extract/auto?url=${encodeURIComponent(a.url)}`)
        : await callApi<ExtractResponse>(remote, "POST", "/v1/extract", input);
    } else {
      const request = auto ? undefined : await extractRequest(input, input);
      const ctx = await openContext();
      try {
        // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
        const deps = { ...ctx, apiBasePolicy: "trust" as const };
        const outcome = request ? await extractUrl(a.url, request, deps) : await extractUrlAuto(a.url, deps);
        if (outcome.degraded) log.warn(outcome.degraded);
        response = { success: true, ...outcome.result };
      } finally {
        await ctx.close();
      }
    }
    if (response.tokensUsed)
      log.debug(`tokens: ${response.tokensUsed.input} in, ${response.tokensUsed.output} out`);
    await writeStdout(`${JSON.stringify(a.json ? response : response.data, null, 2)}\n`);
    return 0;
  },
});

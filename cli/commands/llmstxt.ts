import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineCommand } from "citty";
import { ensureLocalAccount } from "../../src/auth/principal.ts";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { startJobRunner } from "../../src/jobs/index.ts";
import { llmstxtJobView } from "../../src/jobs/llmstxt-job.ts";
import { jobOwner, startJob } from "../../src/jobs/read.ts";
import { LlmstxtBody, type LlmstxtResult } from "../../src/schemas/llmstxt.ts";
import type { JobRecord } from "../../src/store/types.ts";
import { openContext } from "../context.ts";
import { refuseTogether } from "../flag-rules.ts";
import { llmArgs, llmRequestFields } from "../llm-flags.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { progressBar } from "../progress.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";

/** POST /v1/llmstxt's fields. */
const llmsFlags = schemaFlags(LlmstxtBody, {
  limit: { description: "Most pages read" },
  maxDepth: true,
  includePaths: true,
  excludePaths: true,
  regenerate: {
    description:
      "Write llms.txt from the site's pages even when the site publishes its own (else its own is used)",
  },
});

type View = Record<string, unknown> &
  Partial<LlmstxtResult> & { status: string; error?: string; completed: number; total: number };
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * Reads a job's view every `everyMs` until it ends, drawing its progress; Ctrl-C calls `cancel`
 * (the job then ends cancelled and the loop returns it).
 */
async function untilEnded(
  read: () => Promise<View>,
  cancel: () => void,
  bar: ReturnType<typeof progressBar>,
  everyMs: number,
): Promise<View> {
  process.once("SIGINT", cancel);
  try {
    for (;;) {
      const view = await read();
      bar.update(view.status, view.completed, view.total);
      if (TERMINAL.has(view.status)) return view;
      await Bun.sleep(everyMs);
    }
  } finally {
    process.off("SIGINT", cancel);
    bar.end();
  }
}

/** Runs the job in this process on the local store, as the local account, until it ends. */
async function runLocal(input: Record<string, unknown>, bar: ReturnType<typeof progressBar>): Promise<View> {
  const ctx = await openContext();
  const runner = startJobRunner(ctx.config, ctx.store, ctx.engines, { log: (m) => log.warn(m) });
  try {
    await ensureLocalAccount(ctx.store, ctx.config.localTier, Date.now());
    const job = await startJob("llmstxt", input as never, jobOwner(null), {
      ...ctx,
      runner,
      now: Date.now(),
    });
    const read = async () => llmstxtJobView((await ctx.store.jobs.get(job.id)) as JobRecord) as View;
    return await untilEnded(read, () => void runner.cancel(job.id), bar, 200);
  } finally {
    await runner.close();
    await ctx.close();
  }
}

/** Starts the job on a server and polls it until it ends. */
async function runRemote(
  remote: NonNullable<ReturnType<typeof remoteOf>>,
  input: unknown,
  bar: ReturnType<typeof progressBar>,
): Promise<View> {
  const { id } = await callApi<{ id: string }>(remote, "POST", "/v1/llmstxt", input);
  const path = `/v1/llmstxt/${id}`;
  const cancel = () => void callApi(remote, "DELETE", path).catch(() => {});
  return untilEnded(() => callApi<View>(remote, "GET", path), cancel, bar, 500);
}

export default defineCommand({
  meta: {
    name: "llmstxt",
    description: "Write llms.txt and llms-full.txt for a site (its own llms.txt when it publishes one)",
  },
  args: {
    url: { type: "positional", required: true, description: "The site's start URL" },
    ...llmsFlags.args,
    ...llmArgs,
    output: {
      type: "string",
      alias: "o",
      description: "Folder to write llms.txt and llms-full.txt to (else llms.txt on stdout)",
      valueHint: "dir",
    },
    full: { type: "boolean", description: "Print llms-full.txt on stdout instead of llms.txt" },
    json: { type: "boolean", description: "Print the job's result as JSON (llmsTxt, llmsFullTxt, source…)" },
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    refuseTogether(args, "output", "json", "-o DIR writes the files, --json prints them");
    refuseTogether(args, "output", "full", "-o DIR writes both files; --full prints llms-full.txt");
    const input = validateFlags(
      LlmstxtBody,
      { url: args.url, ...llmsFlags.read(args), ...llmRequestFields(args) },
      [llmsFlags],
    );
    const remote = remoteOf(args, loadConfig());
    const bar = progressBar({ quiet: args.quiet === true, json: args.json === true });
    const view = remote ? await runRemote(remote, input, bar) : await runLocal(input, bar);
    if (view.status !== "completed") {
      // As a crawl: a failed job exits 5, one cancelled (Ctrl-C) 130.
      log.error(`The llms.txt job ${view.status}${view.error ? `: ${view.error}` : ""}`);
      return view.status === "cancelled" ? 130 : 5;
    }
    if (view.existing) {
      log.info(
        view.source === "site"
          ? `${view.existing} exists: it is used as it is (--regenerate writes one from the pages)`
          : `${view.existing} exists; written from the pages anyway (--regenerate)`,
      );
    }
    if (args.json) {
      const { success: _s, ...rest } = view;
      await writeStdout(`${JSON.stringify(rest, null, 2)}\n`);
    } else if (typeof args.output === "string") {
      mkdirSync(args.output, { recursive: true });
      writeFileSync(join(args.output, "llms.txt"), view.llmsTxt ?? "");
      if (view.llmsFullTxt) writeFileSync(join(args.output, "llms-full.txt"), view.llmsFullTxt);
      log.success(
        `wrote llms.txt${view.llmsFullTxt ? " and llms-full.txt" : ""} (${view.pages} pages) to ${args.output}`,
      );
    } else if (args.full) {
      if (!view.llmsFullTxt)
        throw new SiphonError("not_found", "The site publishes llms.txt but no llms-full.txt");
      await writeStdout(view.llmsFullTxt);
    } else await writeStdout(view.llmsTxt ?? "");
    return 0;
  },
});

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureLocalAccount } from "../src/auth/principal.ts";
import { loadConfig } from "../src/config.ts";
import { startJobRunner } from "../src/jobs/index.ts";
import { finishedCount, type JobInputs, jobOwner, readResults, startJob } from "../src/jobs/read.ts";
import type { JobRunner } from "../src/jobs/runner.ts";
import type { JobRecord } from "../src/store/types.ts";
import { chunkLines } from "./chunk-flags.ts";
import { type CliContext, openContext } from "./context.ts";
import { log, writeStdout } from "./output.ts";
import { progressBar } from "./progress.ts";
import { callApi, type Remote, remoteOf } from "./remote.ts";

/** One poll of a job: its state and the results after `skip`. */
export interface JobPoll {
  status: string;
  total: number;
  completed: number;
  data: Record<string, unknown>[];
}

/** Where a job runs: this process (local store and runner) or a server. */
export interface JobHost {
  poll(skip: number): Promise<JobPoll>;
  cancel(): Promise<void>;
  close(): Promise<void>;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Runs a job in this process: the same engine as the server, on the local store, as the local account. */
export async function localJob<K extends "crawl" | "batch">(
  ctx: CliContext,
  type: K,
  input: JobInputs[K],
): Promise<JobHost> {
  await ensureLocalAccount(ctx.store, ctx.config.localTier, Date.now());
  const runner: JobRunner = startJobRunner(ctx.config, ctx.store, ctx.engines, { log: (m) => log.warn(m) });
  const job = await startJob(type, input, jobOwner(null), { ...ctx, runner, now: Date.now() });
  return {
    async poll(skip) {
      const current = (await ctx.store.jobs.get(job.id)) as JobRecord;
      const { items } = await readResults(ctx.store, current, skip, 1000);
      return {
        status: current.status,
        total: current.total,
        completed: finishedCount(current),
        data: items.map((i) => i.data as Record<string, unknown>),
      };
    },
    async cancel() {
      await runner.cancel(job.id);
    },
    close: () => runner.close(),
  };
}

/** Follows a job on a server through its poll URL. */
export async function remoteJob(remote: Remote, path: string, body: unknown): Promise<JobHost> {
  const { id } = await callApi<{ id: string }>(remote, "POST", path, body);
  return {
    poll: (skip) => callApi<JobPoll>(remote, "GET", `${path}/${id}?skip=${skip}&limit=1000`),
    async cancel() {
      await callApi(remote, "DELETE", `${path}/${id}`).catch(() => {});
    },
    async close() {},
  };
}

/** A file name for a page's markdown: its path, made safe, unique in the folder. */
function fileName(url: string, used: Set<string>): string {
  let base = "index";
  try {
    const u = new URL(url);
    base = `${u.pathname}${u.search}`.replace(/^\/+|\/+$/g, "").replace(/[^a-zA-Z0-9._-]+/g, "_") || "index";
  } catch {
    base = url.replace(/[^a-zA-Z0-9._-]+/g, "_") || "page";
  }
  let name = `${base.slice(0, 120)}.md`;
  for (let n = 2; used.has(name); n++) name = `${base.slice(0, 116)}-${n}.md`;
  used.add(name);
  return name;
}

/**
 * Prints a job's results as they finish: JSON Lines with --json, one .md per
 * page plus index.json with -o DIR, else each page's content. Progress goes to
 * stderr on a terminal; Ctrl-C cancels the job. Returns the exit code: 5 when
 * the job failed, 0 otherwise.
 */
export async function followJob(
  host: JobHost,
  options: { json: boolean; outDir?: string; contentKey: string; chunks?: boolean; quiet?: boolean },
): Promise<number> {
  const bar = progressBar(options);
  const stop = () => void host.cancel();
  process.once("SIGINT", stop);
  const used = new Set<string>();
  const index: { url: string; title?: unknown; file?: string; error?: unknown }[] = [];
  if (options.outDir) mkdirSync(options.outDir, { recursive: true });
  // A folder written before holds an old chunks.jsonl: this run's replaces it.
  if (options.outDir && options.chunks) writeFileSync(join(options.outDir, "chunks.jsonl"), "");
  let skip = 0;
  let poll: JobPoll;
  try {
    for (;;) {
      poll = await host.poll(skip);
      for (const item of poll.data) {
        skip++;
        const url = String(item.url);
        if (options.outDir) {
          const file = item.error ? undefined : fileName(url, used);
          if (file) writeFileSync(join(options.outDir, file), String(item[options.contentKey] ?? ""));
          // Every page's chunks in one file, as pages finish.
          if (options.chunks) appendFileSync(join(options.outDir, "chunks.jsonl"), chunkLines(item));
          index.push({ url, title: item.title, file, error: item.error });
        } else if (options.json) await writeStdout(`${JSON.stringify(item)}\n`);
        else if (options.chunks) await writeStdout(chunkLines(item));
        else if (!item.error)
          await writeStdout(`<!-- ${url} -->\n${String(item[options.contentKey] ?? "")}\n\n`);
        if (item.error) log.warn(`${url}: ${JSON.stringify(item.error)}`);
      }
      bar.update(poll.status, poll.completed, poll.total);
      if (TERMINAL.has(poll.status) && skip >= poll.completed) break;
      await Bun.sleep(200);
    }
  } finally {
    process.off("SIGINT", stop);
    await host.close();
  }
  bar.end();
  if (options.outDir) {
    writeFileSync(join(options.outDir, "index.json"), `${JSON.stringify(index, null, 2)}\n`);
    log.success(`wrote ${index.filter((i) => i.file).length} pages and index.json to ${options.outDir}`);
  }
  log.info(`${poll.status}: ${poll.completed} of ${poll.total}`);
  return poll.status === "failed" ? 5 : 0;
}

/** Flags every job command shares. */
export const jobOutputArgs = {
  output: {
    type: "string",
    alias: "o",
    description: "Folder for one .md per page and index.json",
    valueHint: "dir",
  },
  json: { type: "boolean", description: "JSON Lines, one page a line, as pages finish" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
} as const;

/** Where a server starts each kind of job a CLI command runs. */
const JOB_PATHS = { crawl: "/v1/crawl", batch: "/v1/batch/scrape" } as const;

/**
 * Runs a job command: on the server named by --api-url/SIPHON_API_URL when
 * there is one, else in this process on the local store; then follows it.
 */
export async function runJobCommand<K extends "crawl" | "batch">(
  args: Record<string, unknown>,
  type: K,
  input: JobInputs[K],
  contentKey: string,
): Promise<number> {
  const options = {
    json: args.json === true,
    outDir: args.output as string | undefined,
    contentKey,
    chunks: args.chunks === true,
    quiet: args.quiet === true,
  };
  const remote = remoteOf(args, loadConfig());
  if (remote) return followJob(await remoteJob(remote, JOB_PATHS[type], input), options);
  const ctx = await openContext();
  try {
    return await followJob(await localJob(ctx, type, input), options);
  } finally {
    await ctx.close();
  }
}

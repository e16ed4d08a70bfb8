import { defineCommand } from "citty";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { finishedCount, isEnded } from "../../src/jobs/read.ts";
import { JobsQuery } from "../../src/schemas/jobs.ts";
import { openStore } from "../../src/store/index.ts";
import type { JobRecord, JobStatus } from "../../src/store/types.ts";
import { defined } from "../browser-flags.ts";
import { followJob, type JobHost } from "../job-follow.ts";
import { type JobSource, type JobSummary, openJob, summaryLines } from "../job-show.ts";
import { log, writeStdout } from "../output.ts";
import { progressBar } from "../progress.ts";
import { callApi, type Remote, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";

interface ListedJob {
  id: string;
  type: string;
  status: string;
  total: number;
  completed: number;
  createdAt: string | null;
}

const listed = (j: JobRecord): ListedJob => ({
  id: j.id,
  type: j.type,
  status: j.status,
  total: j.total,
  completed: finishedCount(j),
  createdAt: new Date(j.createdAt).toISOString(),
});

/** The list's filters: GET /v1/jobs's query. */
const listFlags = schemaFlags(JobsQuery, {
  type: { description: "Only jobs of this type", valueHint: "type" },
  status: { description: "Only jobs in this state", valueHint: "status" },
  limit: { description: "Most jobs listed" },
});

async function list(args: Record<string, unknown>, remote: Remote | null, config: Config): Promise<number> {
  const filter = validateFlags(JobsQuery, listFlags.read(args), [listFlags]);
  let jobs: ListedJob[];
  if (remote) {
    const query = new URLSearchParams(defined({ ...filter }) as Record<string, string>).toString();
    jobs = (await callApi<{ jobs: ListedJob[] }>(remote, "GET", `/v1/jobs?${query}`)).jobs;
  } else {
    const store = await openStore(config);
    try {
      const found = await store.jobs.list({ accountId: LOCAL_ACCOUNT_ID, ...filter });
      jobs = found.map(listed);
    } finally {
      await store.close();
    }
  }
  const lines = args.json
    ? jobs.map((j) => JSON.stringify(j))
    : jobs.map((j) => [j.id, j.type, j.status, `${j.completed}/${j.total}`, j.createdAt].join("\t"));
  if (lines.length) await writeStdout(`${lines.join("\n")}\n`);
  return 0;
}

const ended = (job: JobSummary) => isEnded(job as { status: JobStatus });

/** Polls the job until it has ended, showing its progress on a terminal; Ctrl-C stops waiting, not the job. */
async function untilEnded(source: JobSource, job: JobSummary): Promise<JobSummary> {
  let now = job;
  const bar = progressBar({});
  while (!ended(now)) {
    bar.update(now.status, now.completed, now.total);
    await Bun.sleep(500);
    now = await source.summary();
  }
  bar.end();
  return now;
}

/** The field holding a page's content: crawl items carry markdown, batch items content. */
function contentKey(job: JobSummary, pages: Record<string, unknown>[]): string {
  const usual = job.type === "crawl" ? "markdown" : "content";
  const other = usual === "markdown" ? "content" : "markdown";
  const page = pages.find((p) => !p.error);
  return page && !(usual in page) && other in page ? other : usual;
}

/**
 * Writes an ended job's pages to `dir` with crawl -o's writer (followJob): one .md per page and
 * index.json. Returns its exit code (5 for a failed job).
 */
async function writePages(source: JobSource, job: JobSummary, dir: string): Promise<number> {
  const pages = await source.pages(0);
  const host: JobHost = {
    // One read: the job has ended, so these are all its pages.
    poll: async (skip) => ({
      status: job.status,
      total: job.total,
      completed: Math.min(job.completed, pages.length),
      data: pages.slice(skip),
    }),
    cancel: async () => {},
    close: async () => {},
  };
  return followJob(host, { json: false, outDir: dir, contentKey: contentKey(job, pages) });
}

async function show(id: string, args: Record<string, unknown>, remote: Remote | null, config: Config) {
  const source = await openJob(id, remote, config);
  try {
    let job = await source.summary();
    if (args.wait) job = await untilEnded(source, job);
    if (typeof args.output === "string") {
      if (job.type !== "crawl" && job.type !== "batch") {
        throw new SiphonError(
          "invalid_request",
          `-o writes the pages of crawl and batch jobs; ${id} is ${job.type}`,
          {
            hint: "Use --json for its results.",
          },
        );
      }
      if (!ended(job)) {
        throw new SiphonError(
          "invalid_request",
          `${id} is still ${job.status} (${job.completed} of ${job.total} pages): -o writes a job's pages once it has ended`,
          { hint: "Add --wait to wait for it, or run this again later." },
        );
      }
      return writePages(source, job, args.output);
    }
    if (args.json) await writeStdout(`${JSON.stringify({ ...job, data: await source.pages(0) }, null, 2)}\n`);
    else {
      await writeStdout(summaryLines(job));
      if (job.type === "crawl" || job.type === "batch")
        log.info(`its pages: siphon jobs ${id} --json, or -o DIR`);
    }
    return job.status === "failed" ? 5 : 0;
  } finally {
    await source.close();
  }
}

/** Flags that only mean something with, or only without, a job id. */
const FOR_ONE = ["output", "wait"] as const;

export default defineCommand({
  meta: {
    name: "jobs",
    description:
      "List crawl, batch, agent, extract and llms.txt jobs, or show one job with its id (the local store's, or a server's with --api-url)",
  },
  args: {
    id: {
      type: "positional",
      required: false,
      description: "A job's id: show its status and progress (its pages with --json or -o DIR)",
    },
    ...listFlags.args,
    output: {
      type: "string",
      alias: "o",
      description:
        "With an id: write the job's pages here, one .md per page and index.json, as crawl -o does",
      valueHint: "dir",
    },
    wait: { type: "boolean", description: "With an id: wait for the job to end first" },
    json: {
      type: "boolean",
      description: "JSON Lines, one job a line; with an id, the job and all its pages as one JSON object",
    },
    ...remoteArgs,
  },
  async run({ args }) {
    const config = loadConfig();
    const remote = remoteOf(args, config);
    if (typeof args.id !== "string") {
      const oneOnly = FOR_ONE.find((name) => args[name] !== undefined);
      if (oneOnly) {
        throw new SiphonError("invalid_request", `--${oneOnly} needs a job id: siphon jobs ID --${oneOnly}`);
      }
      return list(args, remote, config);
    }
    const filter = Object.keys(listFlags.read(args))[0];
    if (filter) {
      throw new SiphonError(
        "invalid_request",
        `--${filter} filters the list of jobs; it does not go with a job id`,
      );
    }
    return show(args.id, args, remote, config);
  },
});

/**
 * What siphon_crawl and siphon_batch share: they start a job on the runner (as the REST routes
 * do), wait for it while reporting progress, and answer with its pages, a window at a time. A
 * call with jobId instead reads a job started earlier (not metered, as a REST poll).
 */

import { Type as T } from "@sinclair/typebox";
import { jobActivity } from "../../src/jobs/activity.ts";
import {
  findJob,
  finishedCount,
  isEnded,
  type JobInputs,
  readResults,
  startJob,
} from "../../src/jobs/read.ts";
import type { JobRecord, JobType } from "../../src/store/types.ts";
import { ItemPage, itemPaging, itemWindow } from "../paging.ts";
import type { ToolContext, ToolOutput } from "../types.ts";
import { cutWithNote, itemsNote } from "./render.ts";

const DEFAULT_WAIT_SECONDS = 50;
/** How often the store is read while waiting, for jobs run by another process (events are local). */
const POLL_MS = 1000;
const DEFAULT_PAGES_LENGTH = 40_000;

/** The arguments that say whether and how long to wait, and which part of the pages to return. */
export const jobWaitFields = (tool: string, prefix: string) => ({
  jobId: T.Optional(
    T.String({
      pattern: `^${prefix}`,
      maxLength: 100,
      description: `The id (${prefix}…) of a job an earlier ${tool} call started: returns its status and pages (waiting for it when wait is true) instead of starting one`,
    }),
  ),
  wait: T.Boolean({
    default: true,
    description:
      "true: wait for the job (with progress notifications) and return its pages; false: return the job id at once, to read later with jobId",
  }),
  maxWaitSeconds: T.Integer({
    minimum: 1,
    maximum: 600,
    default: DEFAULT_WAIT_SECONDS,
    description: `Most seconds to wait (default ${DEFAULT_WAIT_SECONDS}); a job still running then is returned with the pages so far and continues: call again with its jobId`,
  }),
  ...itemPaging("pages", DEFAULT_PAGES_LENGTH),
});

/** One page of a job as the tools return it: the crawl's or batch's item, without its links. */
const JobPage = T.Object(
  {
    url: T.String(),
    title: T.Optional(T.String()),
    markdown: T.Optional(T.String({ description: "Crawl pages: the content as markdown" })),
    content: T.Optional(T.String({ description: "Batch pages: the content in the requested format" })),
    json: T.Optional(T.Unsafe<Record<string, unknown>>({ type: "object", description: "Extraction result" })),
    error: T.Optional(T.Object({ type: T.String(), message: T.String() })),
  },
  { additionalProperties: true },
);

/** The structured answer of siphon_crawl and siphon_batch. */
export const JobOutput = T.Object({
  jobId: T.String(),
  status: T.Union(
    ["queued", "processing", "completed", "failed", "cancelled"].map((s) => T.Literal(s)),
    { description: "queued and processing: still running; call again with jobId for the rest" },
  ),
  total: T.Integer({ description: "Pages in the job so far (a crawl finds more as it goes)" }),
  completed: T.Integer({ description: "Pages finished, failed ones included" }),
  failed: T.Integer(),
  creditsUsed: T.Integer(),
  error: T.Optional(T.String({ description: "Why the job failed" })),
  lastProgressAt: T.String({
    description: "ISO 8601: when the job last moved (a page finished, a status changed)",
  }),
  warning: T.Optional(T.String({ description: "The job has not moved for a while and looks stalled" })),
  pages: T.Array(JobPage, { description: "The finished pages named by page, in the order they finished" }),
  page: ItemPage,
});

const finished = finishedCount;
const isRunning = (job: JobRecord) => !isEnded(job);

/** A job of `type` the caller owns that has not expired; anything else is not_found. */
export function ownedJob(ctx: ToolContext, id: string, type: JobType): Promise<JobRecord> {
  const now = ctx.host.deps.now?.() ?? Date.now();
  return findJob(ctx.host.deps.store, { accountId: ctx.host.accountId, now }, id, type);
}

/**
 * Waits until the job ends, `maxWaitMs` pass or the call is cancelled, reporting progress
 * (pages finished of the total) as the runner's events and the store tell it; returns the job
 * as it then is.
 */
export function waitForJob(ctx: ToolContext, id: string, maxWaitMs: number): Promise<JobRecord> {
  const { store } = ctx.host.deps;
  const read = async () => (await store.jobs.get(id)) as JobRecord;
  const report = (job: { completed: number; total: number }) =>
    ctx.progress({
      progress: job.completed,
      total: job.total,
      message: `${job.completed} of ${job.total} pages`,
    });
  return new Promise<JobRecord>((resolve, reject) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      clearTimeout(timer);
      clearInterval(poll);
      ctx.signal.removeEventListener("abort", finish);
      read().then(resolve, reject);
    };
    const check = async () => {
      const job = await read();
      if (done) return;
      await report({ completed: finished(job), total: job.total });
      if (!isRunning(job)) finish();
    };
    // Subscribed before the first read, so an end between the two is not missed.
    const unsubscribe = ctx.host.runner.subscribe(id, (event) => {
      if (event.type === "done") finish();
      else if (event.type === "progress") void report(event);
    });
    const timer = setTimeout(finish, maxWaitMs);
    const poll = setInterval(() => void check().catch(() => {}), POLL_MS);
    ctx.signal.addEventListener("abort", finish, { once: true });
    check().catch((error) => {
      finish();
      reject(error);
    });
  });
}

type Item = Record<string, unknown> & { url: string };

/** The job's state and the window of its finished pages from startIndex, as the tools answer. */
export async function jobAnswer(
  ctx: ToolContext,
  job: JobRecord,
  options: {
    tool: string;
    noun: string;
    contentKey: "markdown" | "content";
    startIndex: number;
    maxLength: number;
  },
): Promise<ToolOutput> {
  const { store } = ctx.host.deps;
  const done = finished(job);
  const { items: raw } = await readResults(
    store,
    job,
    options.startIndex,
    Math.max(1, done - options.startIndex),
  );
  const items = raw.map(({ data }) => {
    const { links: _links, ...rest } = data as Item;
    return rest as Item;
  });
  const textOf = (item: Item) => String(item[options.contentKey] ?? "");
  const window = itemWindow(
    items,
    options.startIndex,
    options.maxLength,
    (item) => textOf(item).length + 200,
    done,
  );
  // A page alone longer than the budget is cut, saying so.
  const pages = window.items.map((item) =>
    textOf(item).length > options.maxLength
      ? { ...item, [options.contentKey]: cutWithNote(textOf(item), options.maxLength, item.url) }
      : item,
  );
  const structured: Record<string, unknown> = {
    jobId: job.id,
    status: job.status,
    total: job.total,
    completed: done,
    failed: job.failed,
    creditsUsed: job.creditsUsed,
    pages,
    page: window.page,
  };
  if (job.error) structured.error = job.error;
  const { deps } = ctx.host;
  const activity = jobActivity(job, (deps.now ?? Date.now)(), deps.config.jobStallMs);
  structured.lastProgressAt = activity.lastProgressAt;
  if (activity.warning) structured.warning = activity.warning;

  const lines = [
    `# ${options.noun} ${job.id}: ${job.status}, ${done} of ${job.total} pages finished` +
      `${job.failed ? ` (${job.failed} failed)` : ""}, ${job.creditsUsed} credits`,
  ];
  if (job.error) lines.push(`Error: ${job.error}`);
  if (activity.warning) lines.push(`Warning: ${activity.warning}`);
  const again = `${options.tool} with {"jobId": "${job.id}"`;
  const note = itemsNote(window.page, "pages", `${again}, "startIndex": …}`);
  if (note) lines.push(note);
  if (isRunning(job)) {
    lines.push(
      `The job is still running. Call ${again}, "startIndex": ${window.page.endIndex}} to wait for and read the next pages.`,
    );
  }
  for (const [i, item] of pages.entries()) {
    const error = item.error as { type: string; message: string } | undefined;
    const heading = `## ${options.startIndex + i + 1}. ${String(item.title || item.url)}`;
    if (error) lines.push("", heading, item.url, `Failed (${error.type}): ${error.message}`);
    else {
      lines.push("", heading, item.url, "", textOf(item));
      if (item.json !== undefined) lines.push("", "```json", JSON.stringify(item.json, null, 2), "```");
    }
  }
  return { text: lines.join("\n"), structured };
}

/** The job a call names (jobId) or starts (`start`, metered), waited for as asked, and its answer. */
export async function runJobTool<K extends "crawl" | "batch">(
  ctx: ToolContext,
  args: { jobId?: string; wait: boolean; maxWaitSeconds: number; startIndex: number; maxLength: number },
  options: {
    tool: string;
    type: K;
    noun: string;
    contentKey: "markdown" | "content";
    /** The job to start when the call names none, checked (validated) once the call is admitted. */
    input: () => JobInputs[K] | Promise<JobInputs[K]>;
  },
): Promise<ToolOutput> {
  let job: JobRecord;
  if (args.jobId) job = await ownedJob(ctx, args.jobId, options.type);
  else {
    job = await ctx.host.meter(options.type, async (grant) => {
      const now = ctx.host.deps.now?.() ?? Date.now();
      const started = await startJob(options.type, await options.input(), grant, {
        ...ctx.host.deps,
        runner: ctx.host.runner,
        now,
      });
      // The start is one request; each page is charged as it is fetched.
      return { body: started, credits: 0 };
    });
  }
  if (args.wait && isRunning(job)) job = await waitForJob(ctx, job.id, args.maxWaitSeconds * 1000);
  return jobAnswer(ctx, job, { ...options, startIndex: args.startIndex, maxLength: args.maxLength });
}

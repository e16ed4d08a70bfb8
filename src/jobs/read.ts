/**
 * The jobs read side every surface uses (native REST, Firecrawl routes, MCP tools, the CLI, the
 * dashboard): starting a job (store, then queue, in one call), finding a caller's job, its
 * progress, and a page of its results. A surface only reshapes what these answer.
 */
import { LOCAL_ACCOUNT_ID, type Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { AgentAsyncInput } from "../schemas/agent.ts";
import type { ExtractInput } from "../schemas/extract.ts";
import type { BatchInput, CrawlInput } from "../schemas/jobs.ts";
import type { LlmstxtInput } from "../schemas/llmstxt.ts";
import { type JobItem, type JobRecord, type JobType, type Store, TERMINAL_STATUSES } from "../store/types.ts";
import { submitAgent } from "./agent-job.ts";
import { submitExtract } from "./extract-job.ts";
import { submitLlmstxt } from "./llmstxt-job.ts";
import type { JobRunner } from "./runner.ts";
import { type JobOwner, submitBatch, submitCrawl } from "./submit.ts";
import type { SurfaceSubmit } from "./surface.ts";

/** The input each kind of job starts from. */
export interface JobInputs {
  crawl: CrawlInput;
  batch: BatchInput;
  agent: AgentAsyncInput | Omit<AgentAsyncInput, "llmApiKey">;
  extract: ExtractInput;
  llmstxt: LlmstxtInput;
}

/** What starting a job needs: where it is kept and what runs it (this process's runner, or the queue). */
export interface JobStartDeps {
  store: Store;
  config: Config;
  runner: Pick<JobRunner, "submit">;
  now: number;
}

const SUBMIT: {
  [K in JobType]: (
    input: JobInputs[K],
    owner: JobOwner,
    deps: { store: Store; config: Config; now: number },
    extra?: SurfaceSubmit,
  ) => Promise<JobRecord>;
} = {
  crawl: submitCrawl,
  batch: submitBatch,
  agent: submitAgent,
  extract: submitExtract,
  llmstxt: submitLlmstxt,
};

/**
 * Checks and stores a job of `type`, then hands it to the runner: the job exists (and survives a
 * restart) before anything runs it. Another surface (`extra`) says where the job came from.
 * Throws what the kind's submit throws (invalid_request, invalid_url, forbidden_url).
 */
export async function startJob<K extends JobType>(
  type: K,
  input: JobInputs[K],
  owner: JobOwner,
  deps: JobStartDeps,
  extra?: SurfaceSubmit,
): Promise<JobRecord> {
  const job = await SUBMIT[type](input, owner, deps, extra);
  deps.runner.submit(job.id);
  return job;
}

/** The owner of the jobs `principal` starts: its account and key; the local account without one. */
export function jobOwner(principal: Pick<Principal, "account" | "key"> | null | undefined): JobOwner {
  return principal
    ? { accountId: principal.account.id, keyId: principal.key?.id ?? null }
    : { accountId: LOCAL_ACCOUNT_ID, keyId: null };
}

/** Who asks for a job, and when. */
export interface JobCaller {
  accountId: string;
  now: number;
}

/**
 * The job `id` of one of `types`, when `caller`'s account owns it and it has not expired; every
 * other case (unknown, another account's, another type, expired) is the same not_found, so an id
 * never tells a caller whether someone else's job exists.
 * Throws SiphonError not_found.
 */
export async function findJob(
  store: Store,
  caller: JobCaller,
  id: string,
  types: JobType | readonly JobType[],
): Promise<JobRecord> {
  const wanted: readonly JobType[] = typeof types === "string" ? [types] : types;
  const job = await store.jobs.get(id);
  if (
    !job ||
    !wanted.includes(job.type) ||
    job.accountId !== caller.accountId ||
    (job.expiresAt !== null && job.expiresAt < caller.now)
  ) {
    throw new SiphonError("not_found", `No ${wanted.join(" or ")} job ${id}`, {
      hint: "Check the job id; job results are kept 24 h after the job ends.",
    });
  }
  return job;
}

/** Whether a job has ended (completed, failed or cancelled): its results no longer change. */
export const isEnded = (job: Pick<JobRecord, "status">) => TERMINAL_STATUSES.includes(job.status);

/** Items (pages) of a job finished so far, failed ones included. */
export const finishedCount = (job: Pick<JobRecord, "completed" | "failed">) => job.completed + job.failed;

/** A job's progress, as every surface reports it. */
export interface JobProgress {
  status: JobRecord["status"];
  /** Items in the job so far (a crawl finds more as it goes). */
  total: number;
  /** Items finished, failed ones included. */
  finished: number;
  failed: number;
  /** 0-100: items finished of the total; 100 once completed or failed (a cancelled job keeps its share). */
  percent: number;
  creditsUsed: number;
  ended: boolean;
}

/** The progress of `job` (JobProgress). */
export function jobProgress(job: JobRecord): JobProgress {
  const finished = finishedCount(job);
  const ended = isEnded(job);
  const percent =
    ended && job.status !== "cancelled" ? 100 : job.total ? Math.floor((finished / job.total) * 100) : 0;
  return {
    status: job.status,
    total: job.total,
    finished,
    failed: job.failed,
    percent,
    creditsUsed: job.creditsUsed,
    ended,
  };
}

/** A page of a job's results. */
export interface ResultsPage {
  /** Finished items from `skip` on, in the order they finished. */
  items: JobItem[];
  /**
   * The `skip` of the next page while the job holds more finished items than this page reached;
   * null otherwise (a running job may still finish more: read again from skip + items.length).
   */
  next: number | null;
}

/**
 * Up to `limit` of the job's finished items after the first `skip`, in the order they finished:
 * reading on from `skip + items.length` while the job runs never repeats or skips an item
 * (JobStore.results). `job` is the record read before the items, so `next` never points past
 * what exists.
 */
export async function readResults(
  store: Store,
  job: JobRecord,
  skip: number,
  limit: number,
): Promise<ResultsPage> {
  const items = await store.jobs.results(job.id, skip, limit);
  const reached = skip + items.length;
  return { items, next: reached < finishedCount(job) ? reached : null };
}

/** Every finished item of a job, in the order they finished. */
export function allResults(store: Store, job: JobRecord): Promise<JobItem[]> {
  return store.jobs.results(job.id, 0, Math.max(finishedCount(job), job.total, 1));
}

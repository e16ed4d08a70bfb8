import type { Config } from "../../config.ts";
import type { Engines } from "../../pipeline/engines.ts";
import type { JobRecord, JobStatus, Store } from "../../store/types.ts";
import type { PageView } from "../surface.ts";

/** Progress events of a job, for SSE (DECISIONS.md "Jobs"). */
export type JobEvent =
  | { type: "page"; url: string; title: string }
  | { type: "progress"; status: JobStatus; completed: number; total: number }
  | { type: "done"; status: JobStatus; completed: number; total: number };

/** What a job kind's run is given: its job, and the runner's services. */
export interface JobContext {
  job: JobRecord;
  /** True on the run that moved the job out of queued; false when it picks up a job a dead process left. */
  fresh: boolean;
  /** Aborted when the job is cancelled or the runner closes: stop, record nothing more. */
  signal: AbortSignal;
  config: Config;
  store: Store;
  engines: Engines;
  now: () => number;
  /** Sends an event to the job's followers (SSE). */
  emit(event: JobEvent): void;
  /** Sends a progress event with the job's stored counters, when someone follows it. */
  progress(): Promise<void>;
  /** Sends a page webhook (started, completed and failed are the runner's). */
  notify(event: "page", data: Record<string, unknown>): void;
  /** True when the job's account is past its weekly quota and must fetch HTTP-only (DECISIONS.md "Plans and limits"). */
  httpOnly(): Promise<boolean>;
  /**
   * Charges work the job did after its request (a page, an agent's run) to its account's week,
   * and logs its credits and LLM tokens under the job's key, so usage history counts them.
   */
  charge(credits: number, tokens?: number): Promise<void>;
  /** The page view of the surface that started the job, when another surface did and registered one. */
  pageView?: PageView;
  /** Warnings for the operator (a refused LLM call); never keys or bodies. */
  log(line: string): void;
  /**
   * Runs one page of a page job where the queue decides: here (`here` runs it in this process, as
   * without a queue) or on whichever worker takes it from the queue; resolves once the page is
   * finished (or given up on this run: it stays pending, to be sent again). Absent: the kind runs
   * its pages here. Never rejects.
   */
  dispatch?: (url: string, depth: number, here: () => Promise<void>) => Promise<void>;
}

/** How a run ended; the runner records it, notifies and tells followers. */
export interface JobEnd {
  status: "completed" | "failed";
  error?: string;
  /** Extra fields of the completed webhook, beside jobId, total and completed. */
  completed?: Record<string, unknown>;
  /** The job's result, stored as it ends (a job whose result is made of its pages: llms.txt). */
  result?: unknown;
}

/**
 * One type of job: how to run its unit of work. The runner owns everything around it (status
 * transitions, resume after a restart, cancel, retention, events and webhooks), so a new kind
 * (extraction, watch, hosted workers) brings only this.
 */
export interface JobKind {
  /**
   * Runs (or, when `ctx.fresh` is false, resumes or re-runs) the job. Answers null when the
   * signal aborted it; throws only on failures the kind did not expect (the job then fails).
   */
  run(ctx: JobContext): Promise<JobEnd | null>;
  /**
   * The input as kept once the job has ended, whatever the end. The runner erases the secrets
   * every job type may carry (src/jobs/secrets.ts) in any case; this is for a kind's own.
   */
  endedInput?(input: unknown): unknown;
}

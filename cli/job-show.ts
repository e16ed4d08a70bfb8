/**
 * One job as `siphon jobs ID` shows it: its state and progress, and its pages, read from the
 * local store through the core's read side (src/jobs/read.ts) or from a server's poll route.
 */
import { LOCAL_ACCOUNT_ID } from "../src/auth/principal.ts";
import type { Config } from "../src/config.ts";
import { SiphonError } from "../src/errors.ts";
import { findJob, jobProgress, readResults } from "../src/jobs/read.ts";
import { ID_PREFIX } from "../src/jobs/submit.ts";
import { openStore } from "../src/store/index.ts";
import type { JobRecord, JobType } from "../src/store/types.ts";
import { callApi, type Remote } from "./remote.ts";

/** What `siphon jobs ID` says about a job, whichever store or server holds it. */
export interface JobSummary {
  id: string;
  type: JobType;
  status: string;
  /** 0-100. */
  progress: number;
  total: number;
  /** Pages finished, failed ones included. */
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt?: string;
  expiresAt: string | null;
  error?: string;
}

/** Where a job is read: its state (read afresh on every call) and its pages after `skip`. */
export interface JobSource {
  summary(): Promise<JobSummary>;
  /** Every finished page after the first `skip`, in the order they finished. */
  pages(skip: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Each kind of job by the prefix of its id (src/jobs/submit.ts), with its poll route on a server. */
const POLL_PATHS: Record<JobType, string> = {
  crawl: "/v1/crawl",
  batch: "/v1/batch/scrape",
  extract: "/v1/extract",
  agent: "/v1/agent",
  llmstxt: "/v1/llmstxt",
};
const KINDS = (Object.entries(POLL_PATHS) as [JobType, string][]).map(([type, path]) => ({
  prefix: ID_PREFIX[type],
  type,
  path,
}));

/** The kind of job `id` names; an id of no kind is no job (not_found). */
function kindOf(id: string): (typeof KINDS)[number] {
  const kind = KINDS.find((k) => id.startsWith(k.prefix));
  if (!kind) {
    throw new SiphonError("not_found", `No job ${id}`, {
      hint: `Job ids start with ${Object.values(ID_PREFIX).join(", ")}; siphon jobs lists them.`,
    });
  }
  return kind;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The pages a read needs at most in one go: what the poll routes allow. */
const PAGE = 1000;

/** A job of the local store, as the local account (every CLI run's) owns it. */
async function localSource(id: string, config: Config): Promise<JobSource> {
  const { type } = kindOf(id);
  const store = await openStore(config);
  let job: JobRecord | undefined;
  const read = async () => {
    job = await findJob(store, { accountId: LOCAL_ACCOUNT_ID, now: Date.now() }, id, type);
    return job;
  };
  try {
    await read();
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    async summary() {
      const record = await read();
      const progress = jobProgress(record);
      return {
        id,
        type: record.type,
        status: record.status,
        progress: progress.percent,
        total: progress.total,
        completed: progress.finished,
        failed: progress.failed,
        creditsUsed: progress.creditsUsed,
        createdAt: iso(record.createdAt) ?? undefined,
        expiresAt: iso(record.expiresAt),
        ...(record.error ? { error: record.error } : {}),
      };
    },
    async pages(skip) {
      const record = job ?? (await read());
      const out: Record<string, unknown>[] = [];
      for (let at: number | null = skip; at !== null; ) {
        const page = await readResults(store, record, at, PAGE);
        out.push(...page.items.map((item) => item.data as Record<string, unknown>));
        at = page.next;
      }
      return out;
    },
    close: () => store.close(),
  };
}

/** A poll answer of a server's job route, as far as the summary reads it. */
interface Poll {
  status: string;
  progress?: number;
  total?: number;
  completed?: number;
  failed?: number;
  creditsUsed?: number;
  createdAt?: string;
  expiresAt?: string | null;
  error?: string;
  data?: Record<string, unknown>[];
  results?: Record<string, unknown>[];
  next?: string;
}

/** A job on a server, through the poll route of its kind. */
function remoteSource(id: string, remote: Remote): JobSource {
  const { type, path } = kindOf(id);
  const url = `${path}/${encodeURIComponent(id)}`;
  const paged = type === "crawl" || type === "batch";
  return {
    async summary() {
      const poll = await callApi<Poll>(remote, "GET", paged ? `${url}?skip=0&limit=1` : url);
      const total = poll.total ?? 0;
      return {
        id,
        type,
        status: poll.status,
        progress: poll.progress ?? (poll.status === "completed" ? 100 : 0),
        total,
        completed: poll.completed ?? 0,
        failed: poll.failed ?? 0,
        creditsUsed: poll.creditsUsed ?? 0,
        ...(poll.createdAt ? { createdAt: poll.createdAt } : {}),
        expiresAt: poll.expiresAt ?? null,
        ...(poll.error ? { error: poll.error } : {}),
      };
    },
    async pages(skip) {
      if (!paged) {
        // An extraction's poll carries every page's result at once; an agent job has none.
        const poll = await callApi<Poll>(remote, "GET", `${url}?limit=${PAGE}`);
        return (poll.results ?? []).slice(skip);
      }
      const out: Record<string, unknown>[] = [];
      for (let at = skip; ; ) {
        const poll = await callApi<Poll>(remote, "GET", `${url}?skip=${at}&limit=${PAGE}`);
        const data = poll.data ?? [];
        out.push(...data);
        at += data.length;
        if (!poll.next || data.length === 0) return out;
      }
    },
    close: async () => {},
  };
}

/**
 * The job `id` of the local store, or of the server when `remote` is given.
 * Throws SiphonError not_found for an id that names no job of the caller's (or has expired).
 */
export function openJob(id: string, remote: Remote | null, config: Config): Promise<JobSource> {
  return remote ? Promise.resolve(remoteSource(id, remote)) : localSource(id, config);
}

/** The summary as `siphon jobs ID` prints it: one "name  value" line each. */
export function summaryLines(job: JobSummary): string {
  const failed = job.failed ? ` (${job.failed} failed)` : "";
  const rows: [string, string][] = [
    ["id", job.id],
    ["type", job.type],
    ["status", job.status],
    ["progress", `${job.completed} of ${job.total} pages${failed}, ${job.progress}%`],
    ["credits", String(job.creditsUsed)],
  ];
  if (job.createdAt) rows.push(["created", job.createdAt]);
  rows.push(["expires", job.expiresAt ?? "24 h after it ends"]);
  if (job.error) rows.push(["error", job.error]);
  return `${rows.map(([k, v]) => `${k.padEnd(10)}${v}`).join("\n")}\n`;
}

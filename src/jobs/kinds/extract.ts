import { extractSummary, pagesOf } from "../extract-job.ts";
import { allResults } from "../read.ts";
import { runPages } from "./pages.ts";
import type { JobContext, JobEnd, JobKind } from "./types.ts";

/**
 * An extraction job: the page pool of a batch (5 at a time, per-host limits, every page's
 * result stored as it finishes, so a resumed job extracts only what was pending), each page
 * through extractUrl. Its completed webhook carries the merged data, so a receiver need not
 * poll.
 */
async function runExtractJob(ctx: JobContext): Promise<JobEnd | null> {
  const end = await runPages(ctx);
  if (end?.status !== "completed") return end;
  const job = await ctx.store.jobs.get(ctx.job.id);
  const items = job ? await allResults(ctx.store, job) : [];
  return { ...end, completed: extractSummary(pagesOf(ctx.job, items)) };
}

/** The kind of extraction jobs (their LLM key is erased by the runner when they end). */
export const extractKind: JobKind = { run: runExtractJob };

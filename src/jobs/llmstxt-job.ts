import type { Config } from "../config.ts";
import type { CrawlInput } from "../schemas/jobs.ts";
import type { LlmstxtInput, LlmstxtResult } from "../schemas/llmstxt.ts";
import type { JobRecord, Store } from "../store/types.ts";
import { createCrawlJob, type JobOwner } from "./submit.ts";
import type { SurfaceSubmit } from "./surface.ts";

/**
 * The crawl an llms.txt job runs: the site from its start URL within its limit, depth and paths,
 * its sitemaps included, each page's main content as markdown (the site's own twin when it has one).
 */
export function llmsCrawlInput(input: LlmstxtInput): CrawlInput {
  return {
    url: input.url,
    limit: input.limit,
    maxDepth: input.maxDepth,
    includePaths: input.includePaths,
    excludePaths: input.excludePaths,
    scrapeOptions: { onlyMainContent: true, formats: ["markdown"] },
  } as CrawlInput;
}

/**
 * Checks an llms.txt request as a crawl is checked (start URL rules and SSRF, path patterns) and
 * stores it queued as a job `llmstxt_<uuid>`: the job reads the site's own /llms.txt first, and
 * crawls only when there is none or `regenerate` asks. The LLM key stays with the job while it
 * runs and is erased when it ends. Throws SiphonError invalid_request, invalid_url, forbidden_url.
 */
export function submitLlmstxt(
  input: LlmstxtInput,
  owner: JobOwner,
  deps: { store: Store; config: Config; now: number },
  extra?: SurfaceSubmit,
): Promise<JobRecord> {
  return createCrawlJob("llmstxt", llmsCrawlInput(input), owner, deps, extra, input);
}

/**
 * GET /v1/llmstxt/:id (and the CLI, MCP): the job's state and counts; once completed the
 * result (llmsTxt, llmsFullTxt…), once failed its error. Never the input, so never a key.
 */
export function llmstxtJobView(job: JobRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    success: true,
    id: job.id,
    status: job.status,
    total: job.total,
    completed: job.completed,
    failed: job.failed,
    creditsUsed: job.creditsUsed,
    createdAt: new Date(job.createdAt).toISOString(),
    expiresAt: job.expiresAt === null ? null : new Date(job.expiresAt).toISOString(),
  };
  if (job.status === "completed" && job.result) Object.assign(view, job.result as LlmstxtResult);
  if (job.error) view.error = job.error;
  return view;
}

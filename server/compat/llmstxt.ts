import { Type as T } from "@sinclair/typebox";
import { jobOwner, startJob } from "../../src/jobs/read.ts";
import { LlmstxtBody, type LlmstxtResult } from "../../src/schemas/llmstxt.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { JobRecord } from "../../src/store/types.ts";
import type { Guard } from "../guard.ts";
import { compatMetered, readFirecrawlBody } from "./http.ts";
import { expiresAt, type JobDeps } from "./job-view.ts";

/** Firecrawl's v1 llmstxt body: the SDK's generateLLMsText(url, {maxUrls, showFullText, cache}). */
const FirecrawlLlmstxtBody = T.Object({
  url: T.String(),
  maxUrls: T.Integer({ minimum: 1, maximum: 100, default: 10 }),
  showFullText: T.Boolean({ default: false }),
  cache: T.Boolean({ default: true }),
});

/**
 * Starts Firecrawl's v1 llmstxt generation as siphon's llms.txt job (the site's own llms.txt
 * when it publishes one, else written from up to maxUrls pages): 200 `{success, id}`.
 */
export function startFirecrawlLlmstxt(
  raw: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const body = validate(
    FirecrawlLlmstxtBody,
    readFirecrawlBody(raw, {
      accepted: ["url", "maxUrls", "showFullText", "cache"],
      ignored: ["__experimental_stream"],
    }),
  );
  const input = validate(LlmstxtBody, { url: body.url, limit: body.maxUrls });
  return compatMetered(guard, request, set, "llmstxt", async (admission) => {
    const job = await startJob(
      "llmstxt",
      input,
      jobOwner(admission?.principal),
      { ...deps, now: guard.now() },
      { surface: { name: "firecrawl" } },
    );
    return { body: { success: true as const, id: job.id }, credits: 0 };
  });
}

/**
 * Firecrawl's poll of a generation: `{success, status: processing|completed|failed, data:
 * {llmstxt, llmsfulltxt}, expiresAt, error?}` (queued is processing; cancelled is failed).
 * llmsfulltxt is always given (Firecrawl's showFullText only shortens the answer).
 */
export function firecrawlLlmstxtPoll(guard: Guard, job: JobRecord): Record<string, unknown> {
  const status =
    job.status === "completed"
      ? "completed"
      : job.status === "failed" || job.status === "cancelled"
        ? "failed"
        : "processing";
  const result = job.status === "completed" ? (job.result as LlmstxtResult | null) : null;
  const data: Record<string, unknown> = { llmstxt: result?.llmsTxt ?? "" };
  if (result?.llmsFullTxt) data.llmsfulltxt = result.llmsFullTxt;
  const answer: Record<string, unknown> = {
    success: true,
    status,
    data,
    expiresAt: expiresAt(guard, job),
  };
  if (job.status === "failed") answer.error = job.error ?? "The generation failed";
  if (job.status === "cancelled") answer.error = "The generation was cancelled";
  return answer;
}

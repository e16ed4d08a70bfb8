import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import { llmstxtJobView } from "../../src/jobs/llmstxt-job.ts";
import { isEnded, startJob } from "../../src/jobs/read.ts";
import { LlmstxtBody, LlmstxtResult } from "../../src/schemas/llmstxt.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { JobRecord } from "../../src/store/types.ts";
import type { ToolDef } from "../types.ts";
import { MCP_CRAWL_MAX_DEPTH, MCP_CRAWL_MAX_PAGES } from "./crawl.ts";
import { ownedJob, waitForJob } from "./jobs.ts";

const p = LlmstxtBody.properties;
const DEFAULT_WAIT_SECONDS = 50;
const DEFAULT_LENGTH = 40_000;

export const LlmstxtToolInput = T.Object(
  {
    url: T.Optional(T.String({ description: "The site's start URL; or give jobId to read an earlier job" })),
    jobId: T.Optional(
      T.String({
        pattern: "^llmstxt_",
        maxLength: 100,
        description:
          "The id (llmstxt_…) of a job an earlier siphon_llmstxt call started: its state and files",
      }),
    ),
    limit: T.Integer({
      minimum: 1,
      maximum: MCP_CRAWL_MAX_PAGES,
      default: 30,
      description: `Most pages read, 1 to ${MCP_CRAWL_MAX_PAGES} (default 30)`,
    }),
    maxDepth: T.Integer({
      minimum: 1,
      maximum: MCP_CRAWL_MAX_DEPTH,
      default: 2,
      description: `Most link hops from the start page, 1 to ${MCP_CRAWL_MAX_DEPTH} (default 2)`,
    }),
    includePaths: p.includePaths,
    excludePaths: p.excludePaths,
    regenerate: p.regenerate,
    llmProvider: p.llmProvider,
    llmApiKey: p.llmApiKey,
    llmModel: p.llmModel,
    llmApiBase: p.llmApiBase,
    full: T.Boolean({
      default: false,
      description: "true: return llms-full.txt (every page's markdown) instead of llms.txt",
    }),
    wait: T.Boolean({ default: true, description: "true: wait for the job; false: return its id at once" }),
    maxWaitSeconds: T.Integer({
      minimum: 1,
      maximum: 600,
      default: DEFAULT_WAIT_SECONDS,
      description: `Most seconds to wait (default ${DEFAULT_WAIT_SECONDS}); a job still running then is returned with its jobId`,
    }),
    maxLength: T.Integer({
      minimum: 1000,
      maximum: 1_000_000,
      default: DEFAULT_LENGTH,
      description: `Most characters of the file returned (default ${DEFAULT_LENGTH}); the rest is cut with a note`,
    }),
  },
  { additionalProperties: false },
);
type LlmstxtToolInput = Static<typeof LlmstxtToolInput>;

const LlmstxtOutput = T.Object({
  jobId: T.String(),
  status: T.String(),
  total: T.Integer(),
  completed: T.Integer(),
  ...T.Partial(T.Omit(LlmstxtResult, ["llmsFullTxt"])).properties,
  llmsFullTxt: T.Optional(T.Union([T.String(), T.Null()])),
  error: T.Optional(T.String()),
});

export const llmstxtTool: ToolDef<LlmstxtToolInput> = {
  name: "siphon_llmstxt",
  description:
    "Write llms.txt for a website (its name, a one-line summary, and sections of links with a short " +
    "description each), or with full: true llms-full.txt (every page's markdown under its title and URL). " +
    "A site that publishes its own /llms.txt gets it back as it is unless regenerate is true. Otherwise it " +
    `crawls the site (at most ${MCP_CRAWL_MAX_PAGES} pages). Use it to give a model a map of a site. It waits ` +
    "for the job (wait: false returns the jobId to read later). Costs 1 credit per page read.",
  input: LlmstxtToolInput,
  output: LlmstxtOutput,
  annotations: {
    title: "Write llms.txt for a website",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { jobId, wait, maxWaitSeconds, maxLength, full, ...request } = args;
    if (jobId && request.url) {
      throw new SiphonError("invalid_request", "Give url to start a job or jobId to read one, not both");
    }
    if (!jobId && !request.url) throw new SiphonError("invalid_request", "url is required (or jobId)");
    let job: JobRecord;
    if (jobId) job = await ownedJob(ctx, jobId, "llmstxt");
    else {
      job = await ctx.host.meter("llmstxt", async (grant) => {
        const input = validate(LlmstxtBody, request);
        const now = ctx.host.deps.now?.() ?? Date.now();
        const started = await startJob("llmstxt", input, grant, {
          ...ctx.host.deps,
          runner: ctx.host.runner,
          now,
        });
        return { body: started, credits: 0 };
      });
    }
    if (wait && !isEnded(job)) job = await waitForJob(ctx, job.id, maxWaitSeconds * 1000);
    const { success: _s, id, llmsFullTxt, ...view } = llmstxtJobView(job) as Record<string, unknown>;
    const structured: Record<string, unknown> = { jobId: id, ...view };
    if (full) structured.llmsFullTxt = llmsFullTxt ?? null;
    const head = `# llms.txt job ${job.id}: ${job.status}, ${job.completed} of ${job.total} pages`;
    if (job.status !== "completed") {
      const more = isEnded(job)
        ? (job.error ?? "")
        : `Still running: call siphon_llmstxt with {"jobId": "${job.id}"} to wait for it.`;
      return { text: `${head}\n${more}`.trim(), structured };
    }
    const file = full ? llmsFullTxt : view.llmsTxt;
    if (full && typeof file !== "string") {
      return { text: `${head}\nThe site publishes llms.txt but no llms-full.txt.`, structured };
    }
    const source =
      view.source === "site" ? `the site's own ${view.existing}` : `written from ${view.pages} pages`;
    const text = String(file ?? "");
    const body =
      text.length <= maxLength
        ? text
        : `${text.slice(0, maxLength)}\n\n[Cut at ${maxLength} of ${text.length} characters: call again with {"jobId": "${job.id}", "maxLength": ${text.length}} for all of it.]`;
    return { text: `${head} (${source})\n\n${body}`, structured };
  },
};

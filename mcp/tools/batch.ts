import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { BatchBody } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { ToolDef } from "../types.ts";
import { JobOutput, jobWaitFields, runJobTool } from "./jobs.ts";

/** SPEC "MCP tools": a batch through MCP reads at most 50 URLs. */
export const MCP_BATCH_MAX_URLS = 50;

const p = BatchBody.properties;

export const BatchToolInput = T.Object(
  {
    urls: T.Optional(
      T.Array(T.String({ minLength: 1, maxLength: 2048 }), {
        minItems: 1,
        maxItems: MCP_BATCH_MAX_URLS,
        description: `The pages to read, 1 to ${MCP_BATCH_MAX_URLS}; or give jobId to read an earlier batch`,
      }),
    ),
    formats: T.Array(StringEnum(["markdown", "text", "html", "rawHtml", "links", "images"]), {
      default: ["markdown"],
      maxItems: 6,
      description:
        "Outputs of each page: markdown (default), text or html (the first is content), rawHtml, links, images",
    }),
    maxConcurrency: T.Integer({
      minimum: 1,
      maximum: p.maxConcurrency.maximum as number,
      default: p.maxConcurrency.default as number,
      description: "Most pages read at once, 1 to 5 (default 5)",
    }),
    maxTokens: p.maxTokens,
    extract: p.extract,
    llmProvider: p.llmProvider,
    llmApiKey: p.llmApiKey,
    llmModel: p.llmModel,
    llmApiBase: p.llmApiBase,
    // Every page option of POST /v1/batch/scrape, as siphon_fetch takes them for one page.
    render: p.render,
    // `wait` is the tool's (wait for the job): the page's own wait goes by Firecrawl's name.
    waitFor: T.Optional({
      ...p.wait,
      description: "ms to wait after each rendered page is ready (the batch's wait)",
    }),
    onlyMainContent: p.onlyMainContent,
    includeTags: p.includeTags,
    excludeTags: p.excludeTags,
    images: p.images,
    location: p.location,
    languages: p.languages,
    actions: p.actions,
    stealth: p.stealth,
    headers: p.headers,
    cookies: p.cookies,
    maxAge: p.maxAge,
    storeInCache: p.storeInCache,
    siteMarkdown: p.siteMarkdown,
    timeout: p.timeout,
    ...jobWaitFields("siphon_batch", "batch_"),
  },
  { additionalProperties: false },
);
type BatchToolInput = Static<typeof BatchToolInput>;

export const batchTool: ToolDef<BatchToolInput> = {
  name: "siphon_batch",
  description:
    `Read a list of known URLs (up to ${MCP_BATCH_MAX_URLS}) in parallel and get each page's content, as ` +
    "siphon_fetch would. Use it instead of many siphon_fetch calls; a URL that fails is reported in its place " +
    "and the others still come back. extract (with your LLM fields for a prompt) adds structured JSON per page; " +
    "the page options (onlyMainContent, include/excludeTags, render, waitFor, actions, stealth, headers, cookies, " +
    "location, languages, maxAge, timeout) apply to every page. " +
    "It waits for the batch (with progress) and returns the pages within maxLength characters; the answer " +
    "names the jobId and startIndex for the rest. wait: false returns the jobId at once. 1 credit per page.",
  input: BatchToolInput,
  output: JobOutput,
  annotations: {
    title: "Read many URLs",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { jobId, wait, maxWaitSeconds, startIndex, maxLength, waitFor, ...rest } = args;
    const batch = waitFor === undefined ? rest : { ...rest, wait: waitFor };
    if (jobId && batch.urls) {
      throw new SiphonError("invalid_request", "Give urls to start a batch or jobId to read one, not both");
    }
    if (!jobId && !batch.urls) {
      throw new SiphonError("invalid_request", "urls is required (or jobId to read an earlier batch)");
    }
    return runJobTool(
      ctx,
      { jobId, wait, maxWaitSeconds, startIndex, maxLength },
      {
        tool: "siphon_batch",
        type: "batch",
        noun: "Batch",
        contentKey: "content",
        input: () => validate(BatchBody, batch),
      },
    );
  },
};

import { Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import { jobOwner, startJob } from "../../src/jobs/read.ts";
import { AgentAsyncBody, type AgentResponse, MAX_PROMPT_CHARS } from "../../src/schemas/agent.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { LlmFieldsOptional } from "../../src/schemas/llm.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { JobRecord } from "../../src/store/types.ts";
import { serviceLlm } from "../../src/summary/index.ts";
import type { Guard } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { type BodyFields, compatMetered, compatPlugin, offOnly, readFirecrawlBody } from "./http.ts";
import { callerJob, expiresAt, type JobDeps, workStatus } from "./job-view.ts";
import { FirecrawlWebhook, toWebhook } from "./webhook.ts";

/** POST /v2/agent. */
export const FirecrawlAgentBody = T.Object(
  {
    prompt: T.String({ minLength: 1, maxLength: MAX_PROMPT_CHARS }),
    urls: T.Optional(
      T.Array(T.String({ minLength: 1, maxLength: 2048 }), {
        minItems: 1,
        maxItems: 20,
        description: "Pages to start from instead of searching the web",
      }),
    ),
    schema: T.Optional(
      T.Object({}, { additionalProperties: true, description: "A JSON Schema the data matches" }),
    ),
    maxCredits: T.Optional(T.Integer({ minimum: 1, description: "Stop fetching past this many credits" })),
    model: T.Optional(
      StringEnum(["spark-1-mini", "spark-1-pro"], {
        description: "spark-1-mini: siphon's basic depth; spark-1-pro: its thorough depth",
      }),
    ),
    effort: T.Optional(StringEnum(["low", "medium", "high"], { description: "high: thorough depth" })),
    webhook: T.Optional(FirecrawlWebhook),
    ...LlmFieldsOptional,
  },
  { additionalProperties: false },
);

const absent = (value: unknown) => value === undefined || value === null;

const AGENT_FIELDS: BodyFields = {
  accepted: Object.keys(FirecrawlAgentBody.properties),
  ignored: ["auditMetadata"],
  unsupported: {
    strictConstrainToURLs: offOnly,
    threadId: absent,
    mode: (value) => absent(value) || value === "extract",
    exchange: absent,
    threatProtection: absent,
  },
};

const NO_LLM_HINT =
  "Ask the operator to set SIPHON_LLM_PROVIDER and SIPHON_LLM_API_KEY, or send siphon's llmProvider and llmApiKey in the body.";

/** The async agent body validated without the LLM key, for a job on the operator's LLM. */
const ServiceAgentBody = T.Omit(AgentAsyncBody, ["llmApiKey"]);

/**
 * A Firecrawl agent request as siphon's agent job. Firecrawl runs its own model; siphon runs the
 * request's LLM (its own llmProvider, llmApiKey, llmModel, llmApiBase) or else the operator's
 * (SIPHON_LLM_*); with neither it refuses (400), never pretends.
 */
function toAgent(raw: unknown, deps: JobDeps) {
  const body = validate(FirecrawlAgentBody, readFirecrawlBody(raw, AGENT_FIELDS));
  const thorough = body.effort === "high" || (body.effort === undefined && body.model === "spark-1-pro");
  const fields = {
    prompt: body.prompt,
    urls: body.urls,
    outputSchema: body.schema,
    maxCredits: body.maxCredits,
    depth: thorough ? "thorough" : "basic",
  };
  const own = body.llmProvider !== undefined || body.llmApiKey !== undefined;
  const webhook = toWebhook(body.webhook, "agent");
  if (own) {
    const llm = {
      llmProvider: body.llmProvider,
      llmApiKey: body.llmApiKey,
      llmModel: body.llmModel,
      llmApiBase: body.llmApiBase,
    };
    const input = validate(AgentAsyncBody, JSON.parse(JSON.stringify({ ...fields, ...llm })));
    return { input, surface: { name: "firecrawl" as const }, webhook };
  }
  if (!serviceLlm(deps.config)) {
    throw new SiphonError("invalid_request", "The agent needs an LLM, and this server has none", {
      hint: NO_LLM_HINT,
    });
  }
  const input = validate(ServiceAgentBody, JSON.parse(JSON.stringify(fields)));
  return { input, surface: { name: "firecrawl" as const, serviceLlm: true }, webhook };
}

/** Starts the agent from a Firecrawl request: 200 `{success, id}`; its pages are charged when it completes. */
function startAgent(
  raw: unknown,
  deps: JobDeps,
  guard: Guard,
  request: Request,
  set: { headers: Record<string, string | number> },
) {
  const agent = toAgent(raw, deps);
  return compatMetered(guard, request, set, "agent", async (admission) => {
    const job = await startJob(
      "agent",
      agent.input,
      jobOwner(admission?.principal),
      { ...deps, now: guard.now() },
      { surface: agent.surface, webhook: agent.webhook },
    );
    return { body: { success: true as const, id: job.id }, credits: 0 };
  });
}

/**
 * Firecrawl's agent poll: `{success, id, status: processing|completed|failed|cancelled, data
 * (once completed: the answer as JSON, matching schema when given), sources, creditsUsed,
 * expiresAt, error?}`.
 */
export function agentPoll(guard: Guard, job: JobRecord) {
  const body: Record<string, unknown> = {
    success: true,
    id: job.id,
    status: workStatus(job.status),
    creditsUsed: job.creditsUsed,
    expiresAt: expiresAt(guard, job),
  };
  if (job.status === "completed" && job.result) {
    const result = job.result as AgentResponse;
    body.data = result.data;
    body.sources = result.sourcesDetailed;
    if (result.warning) body.warning = result.warning;
  }
  if (job.error) body.error = job.error;
  return body;
}

/** POST /v2/agent, GET /v2/agent/:id and DELETE /v2/agent/:id over siphon's agent jobs. */
export function agentRoutes(deps: JobDeps, guard: Guard) {
  return compatPlugin("compat:agent")
    .post("/v2/agent", ({ body, set, request }) => startAgent(body, deps, guard, request, set), {
      detail: {
        summary: "Start the research agent (Firecrawl v2)",
        description:
          "siphon's agent as a job: 200 {success, id}; poll GET /v2/agent/:id. prompt, urls (start pages instead of a web search), schema, maxCredits, effort (high: thorough) or model (spark-1-pro: thorough, spark-1-mini: basic), webhook (agent.started, .completed with the result, .failed). Firecrawl runs its own model; siphon runs the caller's LLM (siphon's llmProvider, llmApiKey, llmModel, llmApiBase in the body) or the operator's (SIPHON_LLM_*), and refuses with a 400 when there is neither. Refused (400 not_implemented): strictConstrainToURLs, threadId, mode chat, exchange. Credits: 1 per page the agent fetched.",
        requestBody: jsonRequestBody(FirecrawlAgentBody),
      } as never,
    })
    .get(
      "/v2/agent/:id",
      async ({ params, request }) => agentPoll(guard, await callerJob(guard, request, params.id, "agent")),
      {
        detail: {
          summary: "Poll the agent (Firecrawl v2)",
          description:
            "{success, id, status: processing|completed|failed|cancelled, data (once completed), sources, creditsUsed, expiresAt, error?}. Not metered.",
        },
      },
    )
    .delete(
      "/v2/agent/:id",
      async ({ params, request }) => {
        await callerJob(guard, request, params.id, "agent");
        return { success: true as const, status: await deps.runner.cancel(params.id) };
      },
      { detail: { summary: "Cancel the agent (Firecrawl v2): {success, status}" } },
    );
}

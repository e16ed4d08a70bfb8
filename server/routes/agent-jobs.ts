import { Type as T } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { agentJobView } from "../../src/jobs/agent-job.ts";
import { jobOwner, startJob } from "../../src/jobs/read.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { AgentAsyncBody, AgentResponse } from "../../src/schemas/agent.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, identify, metered } from "../guard.ts";
import { callerJob } from "../job-http.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import { SEARCH_KEY_HEADER, withSearchKeyHeader } from "../search-key.ts";

const PATH = "/v1/agent";

const Started = T.Object({ success: T.Literal(true), id: T.String(), url: T.String() });
const Status = StringEnum(["queued", "processing", "completed", "failed", "cancelled"]);

/** The poll answer: the job's state, plus the Agent response's fields once completed. */
const AgentJob = T.Object({
  success: T.Literal(true),
  id: T.String({ description: "job_<uuid>" }),
  status: Status,
  createdAt: T.String(),
  expiresAt: T.Union([T.String(), T.Null()], { description: "24 h after the job ended; null before" }),
  creditsUsed: T.Integer(),
  error: T.Optional(T.String({ description: "Why the job failed" })),
  ...T.Partial(T.Omit(AgentResponse, ["success", "creditsUsed"])).properties,
});

const startDescription =
  "Starts the research agent as a job and answers at once: 202 {success, id: job_<uuid>, url} (url is the " +
  "poll URL). The body is POST /v1/agent's (stream does not apply) plus an optional webhook {url, events?, " +
  "secret?, metadata?} receiving started {jobId, type}, completed {jobId, total, completed, result: the Agent " +
  "response} and failed {jobId, error}, signed like crawl webhooks. A bad outputSchema or webhook target is " +
  "a 400/403 here, before the job exists. The LLM and search keys are kept with the job while it runs, so a " +
  "server that dies mid-run runs it again when it restarts; they are erased from the stored job when it " +
  "ends and never shown by polls, lists, webhooks or logs. Credits: 1 per page the agent fetched from its " +
  "site, charged when the job completes; starting is one request in the burst window.";

/** POST /v1/agent/async, GET /v1/agent/:id and DELETE /v1/agent/:id: the agent as a job. */
export function agentJobRoutes(deps: FetchDeps, guard: Guard, runner: JobRunner) {
  return new Elysia({ name: "routes:agent-jobs" })
    .post(
      `${PATH}/async`,
      ({ body, set, request }) => {
        const input = validate(AgentAsyncBody, withSearchKeyHeader(body, request));
        return metered(guard, request, set, "agent", async (admission) => {
          const owner = jobOwner(admission?.principal ?? (await identify(guard, request)));
          const job = await startJob("agent", input, owner, { ...deps, runner, now: guard.now() });
          set.status = 202;
          const self = new URL(request.url);
          return { body: { success: true, id: job.id, url: `${self.origin}${PATH}/${job.id}` }, credits: 0 };
        });
      },
      {
        detail: {
          summary: "Start the research agent as an async job",
          description: startDescription,
          parameters: [SEARCH_KEY_HEADER],
          requestBody: jsonRequestBody(AgentAsyncBody),
          responses: {
            ...responses(Started, [400, 401, 403, 429]),
            202: { description: "Accepted", content: { "application/json": { schema: Started } } },
          },
        } as never,
      },
    )
    .get(
      `${PATH}/:id`,
      async ({ params, request }) => agentJobView(await callerJob(guard, request, params.id, "agent")),
      {
        detail: {
          summary: "Poll an agent job",
          description:
            "status queued, processing, completed (with the Agent response's fields: data, answer, sources, " +
            "sourcesDetailed, pagesVisited, creditsUsed, tokensUsed, warning?), failed (with error) or " +
            "cancelled. 404 for an unknown job, another account's, or one that ended over 24 h ago. Not metered.",
          responses: responses(AgentJob, [401, 404]),
        } as never,
      },
    )
    .delete(
      `${PATH}/:id`,
      async ({ params, request }) => {
        await callerJob(guard, request, params.id, "agent");
        return { success: true, status: await runner.cancel(params.id) };
      },
      {
        detail: {
          summary: "Cancel an agent job; a job already ended keeps its status",
          responses: responses(T.Object({ success: T.Literal(true), status: Status }), [401, 404]),
        } as never,
      },
    );
}

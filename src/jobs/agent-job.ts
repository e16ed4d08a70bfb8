import type { Config } from "../config.ts";
import { checkJsonSchema } from "../llm/index.ts";
import type { AgentAsyncInput, AgentInput, AgentResponse } from "../schemas/agent.ts";
import type { JobRecord, Store } from "../store/types.ts";
import { type JobOwner, newJob } from "./submit.ts";
import type { SurfaceSubmit } from "./surface.ts";
import { checkWebhookTarget } from "./webhooks.ts";

/**
 * Checks an async agent request as far as it can be checked before running (output schema,
 * webhook target) and stores it queued as a job `job_<uuid>` of one unit of work. The LLM and
 * search keys are kept in the stored input, because a job the server was running when it died
 * is run again when it restarts; the runner erases them when the job ends, whatever the end.
 * Another surface (`extra`) gives its own webhook, and may leave the LLM fields out for the
 * operator's LLM (`serviceLlm`), read when the job runs.
 * Throws SiphonError invalid_request, invalid_url or forbidden_url.
 */
export async function submitAgent(
  input: AgentAsyncInput | Omit<AgentAsyncInput, "llmApiKey">,
  owner: JobOwner,
  deps: { store: Store; config: Config; now: number },
  extra?: SurfaceSubmit,
): Promise<JobRecord> {
  const schema = input.outputSchema ?? input.schema;
  if (schema) await checkJsonSchema(schema);
  const webhook = extra ? extra.webhook : input.webhook;
  if (webhook) checkWebhookTarget(webhook.url, deps.config);
  const { webhook: _webhook, ...rest } = input;
  // A job has no one to stream to: it keeps the whole response.
  const stored = { ...rest, stream: false, ...(extra ? { surface: extra.surface } : {}) } as AgentInput;
  const job = newJob("agent", owner, stored, webhook, deps.now);
  await deps.store.jobs.create({ ...job, total: 1 }, []);
  return (await deps.store.jobs.get(job.id)) as JobRecord;
}

/**
 * GET /v1/agent/:id (and `siphon agent status`): the job's state; once completed the Agent
 * response's fields, once failed its error. Never the input, so never a key.
 */
export function agentJobView(job: JobRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    success: true,
    id: job.id,
    status: job.status,
    createdAt: new Date(job.createdAt).toISOString(),
    expiresAt: job.expiresAt === null ? null : new Date(job.expiresAt).toISOString(),
    creditsUsed: job.creditsUsed,
  };
  if (job.status === "completed" && job.result) {
    const { success: _success, ...response } = job.result as AgentResponse;
    Object.assign(view, response, { creditsUsed: job.creditsUsed });
  }
  if (job.error) view.error = job.error;
  return view;
}

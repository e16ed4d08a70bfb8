import { runAgent } from "../../agent/index.ts";
import type { Config } from "../../config.ts";
import { toSiphonError } from "../../errors.ts";
import { usedTokens } from "../../pipeline/credits.ts";
import type { AgentInput, AgentResponse } from "../../schemas/agent.ts";
import { serviceLlm } from "../../summary/index.ts";
import { scrubSecrets } from "../secrets.ts";
import { type JobSurface, surfaceOf } from "../surface.ts";
import type { JobContext, JobEnd, JobKind } from "./types.ts";

/** The completed webhook's extra field: the Agent response, so a receiver need not poll. */
function completedData(response: AgentResponse): Record<string, unknown> {
  const { success: _success, ...result } = response;
  return { result };
}

/**
 * The agent's input as it runs: a job another surface started without naming an LLM runs on the
 * operator's (SIPHON_LLM_*), read now and never stored, its base URL trusted as configuration.
 */
function runInput(
  input: AgentInput,
  surface: JobSurface | undefined,
  config: Config,
): { input: AgentInput; trusted: boolean } {
  const service = surface?.serviceLlm ? serviceLlm(config) : undefined;
  if (!service) return { input, trusted: false };
  const llm = {
    llmProvider: service.provider,
    llmApiKey: service.apiKey,
    llmModel: service.model,
    llmApiBase: service.apiBase,
  };
  return { input: { ...input, ...JSON.parse(JSON.stringify(llm)) }, trusted: true };
}

/**
 * One agent run: the whole research is the unit of work. A job a dead process left
 * processing is run again from the start (the agent keeps no partial state), unless its
 * result was already kept, in which case it only completes. Credits: 1 per page the agent
 * fetched from its site, charged to the job's account when the result is kept.
 */
async function runAgentJob(ctx: JobContext): Promise<JobEnd | null> {
  const { job, signal } = ctx;
  if (job.result !== null)
    return { status: "completed", completed: completedData(job.result as AgentResponse) };
  const input = job.input as AgentInput;
  let run = { input, trusted: false };
  try {
    run = runInput(input, surfaceOf(job), ctx.config);
    const outcome = await runAgent(run.input, {
      config: ctx.config,
      store: ctx.store,
      engines: ctx.engines,
      signal,
      now: ctx.now,
      httpOnly: await ctx.httpOnly(),
      // The caller is remote: an llmApiBase passes the same SSRF rules as every fetch.
      apiBasePolicy: run.trusted ? "trust" : "guard",
      llmLog: ctx.log,
    });
    if (signal.aborted) return null;
    const kept = await ctx.store.jobs.setResult(job.id, outcome.response, outcome.pagesFetched, ctx.now());
    // Cancelled while the answer was written: the job ended without it.
    if (!kept) return null;
    const tokens = usedTokens(outcome.response.tokensUsed);
    if (outcome.pagesFetched || tokens) await ctx.charge(outcome.pagesFetched, tokens);
    return { status: "completed", completed: completedData(outcome.response) };
  } catch (raw) {
    if (signal.aborted) return null;
    // run.input holds the operator's key too when the job runs on the service's LLM.
    return { status: "failed", error: scrubSecrets(toSiphonError(raw).message, run.input) };
  }
}

/** The kind of agent jobs (the runner erases their keys when they end, as every job's). */
export const agentKind: JobKind = { run: runAgentJob };

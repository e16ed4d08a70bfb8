import type { GatherDeps } from "../answer/sources.ts";
import type { LlmDeps } from "../llm/index.ts";
import type { AgentEvent, AgentResponse } from "../schemas/agent.ts";

/** What the agent needs: the fetch pipeline, how to treat llmApiBase, and a listener for its events. */
export interface AgentDeps extends GatherDeps {
  apiBasePolicy?: LlmDeps["apiBasePolicy"];
  llmLog?: LlmDeps["log"];
  /** Every step, chunk and the done event, as they happen (SSE, CLI progress, job progress). */
  onEvent?: (event: AgentEvent) => void;
}

/** A finished agent run and what the transport meters. */
export interface AgentOutcome {
  response: AgentResponse;
  /** Pages fetched from their sites: the credits (cache hits are free). */
  pagesFetched: number;
  degraded?: string;
}

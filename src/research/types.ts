import type { FetchDeps } from "../pipeline/fetch-page.ts";
import type { ResearchProgress } from "../schemas/research.ts";
import type { ResearchLlmDeps } from "./llm.ts";

/** What researching needs: the fetch pipeline, the LLM settings, and an optional progress listener. */
export interface ResearchDeps extends FetchDeps, ResearchLlmDeps {
  onProgress?: (event: ResearchProgress) => void;
}

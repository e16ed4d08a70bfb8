import type { JobType } from "../../store/types.ts";
import { pagesKind } from "./pages.ts";
import type { JobKind } from "./types.ts";

/**
 * Every job type's kind, loaded when a job of that type first runs (a crawl never loads the
 * agent). Typed by JobType, so a type without a kind is a compile error.
 */
export const JOB_KINDS: Record<JobType, () => Promise<JobKind>> = {
  crawl: async () => pagesKind,
  batch: async () => pagesKind,
  agent: () => import("./agent.ts").then((m) => m.agentKind),
  extract: () => import("./extract.ts").then((m) => m.extractKind),
  llmstxt: () => import("./llmstxt.ts").then((m) => m.llmstxtKind),
};

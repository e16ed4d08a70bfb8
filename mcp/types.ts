import type { TObject } from "@sinclair/typebox";
import type { JobRunner } from "../src/jobs/runner.ts";
import type { ExtractDeps } from "../src/structured/inline.ts";

/** What a metered call may do: whose it is, and whether it runs HTTP-only (past the weekly quota). */
export interface Grant {
  accountId: string;
  /** The API key of the call (its jobs' pages are logged under it); none when keyless. */
  keyId?: string | null;
  httpOnly: boolean;
}

/** A metered call's answer, and what it costs (as the REST routes report it to `metered`). */
export interface Metered<T> {
  body: T;
  credits: number;
  degraded?: string;
  /** LLM tokens the call used (the request log keeps them). */
  tokens?: number;
}

/**
 * Where the tools run: the pipeline's deps, the job runner, and the transport's
 * metering. The HTTP endpoint meters each call like the REST route it mirrors
 * (burst window, weekly quota, credits; a 429 is thrown as rate_limited); the
 * stdio server runs as the local account, unmetered, as the CLI does.
 */
export interface ToolHost {
  deps: ExtractDeps;
  runner: JobRunner;
  /** The caller's account: owner of the jobs it starts, and the only one whose jobs it may read. */
  accountId: string;
  /** The caller's key for a keyed search provider when a call gives none (HTTP: the x-search-api-key header). */
  searchApiKey?: string;
  /** Runs `run` as one metered request of `route`; throws SiphonError (rate_limited) when refused. */
  meter<T>(route: string, run: (grant: Grant) => Promise<Metered<T>>): Promise<T>;
  /** Unexpected failures, for the operator's log (never shown to the caller). */
  onInternalError?: (error: unknown) => void;
}

/** A progress report of a long call (crawl, batch, agent), sent as notifications/progress. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** What one tool call gets besides its arguments. */
export interface ToolContext {
  host: ToolHost;
  /** Aborted when the caller goes away or cancels the call. */
  signal: AbortSignal;
  /** Reports progress; a no-op when the client asked for none (no progressToken). */
  progress(report: Progress): Promise<void>;
}

/** An image the answer carries as its own content block (screenshots). */
export interface ToolImage {
  data: string;
  mimeType: string;
}

/** A tool's answer: markdown for the model first, the same data structured (matching the output schema). */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
  images?: ToolImage[];
}

/** MCP tool annotations (hints for clients: none changes anything, all of them read the web). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * One MCP tool, defined once and served by both transports: its input schema
 * (validated here before `run`), its output schema (what `structured` matches)
 * and its handler, which throws SiphonError for the caller's mistakes and the
 * web's failures (they become isError results).
 */
export interface ToolDef<I = unknown> {
  name: string;
  description: string;
  input: TObject;
  output: TObject;
  annotations: ToolAnnotations;
  run(args: I, ctx: ToolContext): Promise<ToolOutput>;
}

import { defineCommand } from "citty";
import { type Config, loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { deepResearch, deepResearchStream, type ResearchDeps, research } from "../../src/research/index.ts";
import {
  DeepResearchBody,
  type DeepResearchEvent,
  type DeepResearchInput,
  type DeepResearchResponse,
  ResearchBody,
  type ResearchCitation,
  type ResearchInput,
  type ResearchLlmInput,
  type ResearchProgress,
  type ResearchResponse,
} from "../../src/schemas/research.ts";
import { validate } from "../../src/schemas/validate.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { keyFromEnv, llmArgs, llmKeyOf, searchArgs } from "../llm-flags.ts";
import { log, printTextStream, setQuiet, writeStdout } from "../output.ts";
import { callApi, type Remote, remoteArgs, remoteOf, streamApi } from "../remote.ts";
import { many } from "../strict-args.ts";

const args = {
  query: many({
    type: "positional",
    required: true,
    description: "The research question (quote it, or give several words)",
  }),
  depth: {
    type: "string",
    description: "quick (default: one search, one report) or deep (POST /v1/research's depth)",
    valueHint: "quick|deep",
  },
  deep: {
    type: "boolean",
    description: "Deep research (POST /v1/deep-research): sub-questions, rounds, gap checks",
  },
  rounds: { type: "string", description: "Deep research: search rounds, 1 to 5 (default 3)", valueHint: "n" },
  stream: {
    type: "boolean",
    description: "Deep research: print progress on stderr and the report as it is written",
  },
  sources: {
    type: "string",
    description: "Most pages to fetch: 1 to 10 quick (default 5), 5 to 30 with --deep (default 20)",
    valueHint: "n",
  },
  ...llmArgs,
  ...searchArgs,
  json: { type: "boolean", description: "Print the whole response as JSON when it is complete" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

const NO_LLM_HINT =
  "Pass --llm-key (or set OPENAI_API_KEY; ANTHROPIC_API_KEY or GEMINI_API_KEY with --llm), or set SIPHON_LLM_PROVIDER and SIPHON_LLM_API_KEY for siphon's own LLM.";

/**
 * Whose LLM runs. Yours when a --llm* flag names one (the key from --llm-key, else the vendor's
 * variable). Otherwise siphon's: SIPHON_LLM_* here, the server's with --api-url; here without
 * SIPHON_LLM_PROVIDER, an OPENAI_API_KEY in the environment is used as yours.
 */
function llmFor(a: Args, config: Config, remote: Remote | null): ResearchLlmInput | undefined {
  const named = [a.llm, a["llm-key"], a["llm-model"], a["llm-base"]].some((v) => v !== undefined);
  if (named) {
    const vendor = (a.llm as string | undefined) ?? "openai";
    const key =
      a["llm-base"] === undefined
        ? llmKeyOf(vendor, a["llm-key"], process.env, "llm.apiKey")
        : ((a["llm-key"] as string | undefined) ?? keyFromEnv(vendor));
    return defined({
      provider: vendor,
      apiKey: key,
      model: a["llm-model"],
      apiBase: a["llm-base"],
    }) as ResearchLlmInput;
  }
  if (remote || config.llmProvider) return undefined;
  const key = keyFromEnv("openai");
  if (key) return { provider: "openai", apiKey: key };
  throw new SiphonError(
    "invalid_request",
    "llm is required: no LLM key given and SIPHON_LLM_PROVIDER is not set",
    {
      hint: NO_LLM_HINT,
    },
  );
}

/** Whether the flags ask for POST /v1/deep-research rather than POST /v1/research. */
function wantsDeep(a: Args): boolean {
  return a.deep === true || a.stream === true || a.rounds !== undefined;
}

/** One line per step on stderr: always when streaming, else only on a terminal. */
function progressPrinter(always: boolean) {
  return (event: ResearchProgress): void => {
    if (!always && !process.stderr.isTTY) return;
    log.info(`${event.type} (round ${event.round}): ${event.message}`);
  };
}

/** The cited sources after the report: [n] in the text is line [n] here. */
function sourceList(citations: ResearchCitation[]): string {
  if (citations.length === 0) return "";
  const lines = citations.map((c) => `[${c.index}] ${c.title || c.url}\n    ${c.url}`);
  return `\nSources:\n${lines.join("\n")}\n`;
}

async function printReport(report: string, citations: ResearchCitation[]): Promise<void> {
  await writeStdout(`${report}\n${sourceList(citations)}`);
}

function searchHeaders(input: { searchApiKey?: string }): Record<string, string> {
  return input.searchApiKey ? { "x-search-api-key": input.searchApiKey } : {};
}

/** Runs research here or on a server and prints the report (or JSON). */
async function runResearch(input: ResearchInput, remote: Remote | null, json: boolean) {
  let response: ResearchResponse;
  if (remote) {
    const { searchApiKey: _key, ...body } = input;
    response = await callApi<ResearchResponse>(remote, "POST", "/v1/research", body, searchHeaders(input));
  } else {
    const outcome = await locally((deps) => research(input, deps), progressPrinter(false));
    if (outcome.degraded) log.warn(outcome.degraded);
    response = outcome.response;
  }
  if (json) await writeStdout(`${JSON.stringify(response, null, 2)}\n`);
  else await printReport(response.report, response.citations);
}

async function runDeep(input: DeepResearchInput, remote: Remote | null, json: boolean) {
  const { searchApiKey: _key, ...body } = input;
  const progress = progressPrinter(input.stream);
  if (remote && input.stream) {
    return printTextStream<DeepResearchEvent>(
      streamApi(remote, "/v1/deep-research", body, searchHeaders(input)),
      progress,
    ).then(async (done) => writeStdout(sourceList(done.citations)));
  }
  if (remote) {
    const response = await callApi<DeepResearchResponse>(
      remote,
      "POST",
      "/v1/deep-research",
      body,
      searchHeaders(input),
    );
    if (json) return writeStdout(`${JSON.stringify(response, null, 2)}\n`);
    return printReport(response.report, response.citations);
  }
  if (input.stream) {
    return locally(async (deps) => {
      const outcome = await deepResearchStream(input, deps);
      const done = await printTextStream<DeepResearchEvent>(outcome.events, progress);
      await writeStdout(sourceList(done.citations));
      const degraded = outcome.degraded();
      if (degraded) log.warn(degraded);
    }, progress);
  }
  const outcome = await locally((deps) => deepResearch(input, deps), progress);
  if (outcome.degraded) log.warn(outcome.degraded);
  if (json) return writeStdout(`${JSON.stringify(outcome.response, null, 2)}\n`);
  return printReport(outcome.response.report, outcome.response.citations);
}

/** Runs `work` on the local pipeline, reporting progress, then closes the pipeline. */
async function locally<T>(
  work: (deps: ResearchDeps) => Promise<T>,
  progress: (event: ResearchProgress) => void,
): Promise<T> {
  const ctx = await openContext();
  // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
  const deps: ResearchDeps = { ...ctx, apiBasePolicy: "trust", onProgress: progress };
  try {
    return await work(deps);
  } finally {
    await ctx.close();
  }
}

export default defineCommand({
  meta: {
    name: "research",
    description:
      "Research a question from the web into a cited report (--deep: sub-questions, rounds, gap checks)",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    const json = a.json === true;
    const config = loadConfig();
    const remote = remoteOf(a, config);
    const llm = llmFor(a, config, remote);
    const query = a._.join(" ");
    const search = { searchProvider: a.provider, searchApiKey: a["search-key"] };
    if (wantsDeep(a)) {
      if (a.depth !== undefined) {
        throw new SiphonError("invalid_request", "--depth is for siphon research without --deep", {
          hint: "Use --deep (with --rounds, --stream) or --depth quick|deep, not both.",
        });
      }
      const input = validate(
        DeepResearchBody,
        defined({
          question: query,
          llm,
          maxRounds: numberFlag(a.rounds, "rounds"),
          maxSources: numberFlag(a.sources, "sources"),
          stream: a.stream === true && !json,
          ...search,
        }),
      );
      await runDeep(input, remote, json);
      return 0;
    }
    const input = validate(
      ResearchBody,
      defined({ query, depth: a.depth, llm, maxSources: numberFlag(a.sources, "sources"), ...search }),
    );
    await runResearch(input, remote, json);
    return 0;
  },
});

import { existsSync, readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { agentJobView } from "../../src/jobs/agent-job.ts";
import { findJob, isEnded } from "../../src/jobs/read.ts";
import {
  AgentAsyncBody,
  AgentBody,
  type AgentEvent,
  type AgentInput,
  type AgentResponse,
} from "../../src/schemas/agent.ts";
import { splitList } from "../../src/schemas/common.ts";
import { validate } from "../../src/schemas/validate.ts";
import { openStore } from "../../src/store/index.ts";
import type { JobStatus } from "../../src/store/types.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { requireWith } from "../flag-rules.ts";
import { llmArgs, llmKeyOf, searchArgs } from "../llm-flags.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, type Remote, remoteArgs, remoteOf, streamApi } from "../remote.ts";
import { many } from "../strict-args.ts";

const args = {
  prompt: many({
    type: "positional",
    required: true,
    description: 'The research task (quote it); or "status ID" to poll an async job',
  }),
  ...llmArgs,
  urls: {
    type: "string",
    description: "Comma-separated pages to start from instead of searching",
    valueHint: "list",
  },
  depth: { type: "string", description: "basic (default) or thorough", valueHint: "depth" },
  topic: {
    type: "string",
    description: "general (default), news, technical or academic",
    valueHint: "topic",
  },
  "max-sources": { type: "string", description: "Most pages read, 1 to 20", valueHint: "n" },
  "max-credits": { type: "string", description: "Stop fetching at this many credits", valueHint: "n" },
  schema: {
    type: "string",
    description: "JSON Schema of the answer (outputSchema): a file, or the JSON itself",
    valueHint: "file|json",
  },
  ...searchArgs,
  stream: {
    type: "boolean",
    description: "With --json: every event (step, chunk, done) as a JSON line as it happens",
  },
  async: {
    type: "boolean",
    description: "Start a job on the server (--api-url) and print its id; follow it with `agent status ID`",
  },
  wait: { type: "boolean", description: "status: poll until the job has ended" },
  json: { type: "boolean", description: "Print the Agent response (status: the poll answer) as JSON" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** What `agent status ID` reads; the task's flags mean nothing there. */
const STATUS_FLAGS = new Set(["prompt", "wait", "json", "quiet", "q", "api-url", "api-key"]);

/** --schema: inline JSON when it looks like an object, else a file holding it. */
function schemaFlag(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "string") return undefined;
  const inline = value.trimStart().startsWith("{");
  if (!inline && !existsSync(value)) {
    throw new SiphonError("invalid_request", `--schema: no file ${value}`, {
      hint: "Give a JSON Schema file, or the schema itself as JSON.",
    });
  }
  try {
    return JSON.parse(inline ? value : readFileSync(value, "utf8"));
  } catch (error) {
    throw new SiphonError("invalid_request", `--schema is not valid JSON: ${(error as Error).message}`);
  }
}

/** Maps flags to the body of POST /v1/agent (or /v1/agent/async); the shared schema validates it. */
function bodyOf(prompt: string, a: Args): Record<string, unknown> {
  return defined({
    prompt,
    llmProvider: a.llm,
    llmApiKey: llmKeyOf(a.llm, a["llm-key"]),
    llmModel: a["llm-model"],
    llmApiBase: a["llm-base"],
    urls: splitList(a.urls as string | undefined),
    depth: a.depth,
    topic: a.topic,
    maxSources: numberFlag(a["max-sources"], "max-sources"),
    maxCredits: numberFlag(a["max-credits"], "max-credits"),
    outputSchema: schemaFlag(a.schema),
    searchProvider: a.provider,
    searchApiKey: a["search-key"],
  });
}

/** Prints the events of a run as they come: steps on a terminal's stderr, chunks on stdout. */
class EventPrinter {
  private out = Promise.resolve();
  private text = "";
  constructor(private readonly jsonLines: boolean) {}

  write(text: string): void {
    this.out = this.out.then(() => writeStdout(text));
  }

  on(event: AgentEvent): void {
    if (this.jsonLines) this.write(`${JSON.stringify(event)}\n`);
    else if (event.type === "step") {
      if (!process.stderr.isTTY) return;
      if (event.action === "searching") log.info(`Searching: ${event.query}`);
      else if (event.action === "fetching") log.info(`Fetching ${event.url}`);
      else log.info(event.summary ?? "Analyzing");
    } else if (event.type === "chunk") {
      this.text += event.text;
      this.write(event.text);
    }
  }

  /** After the run: the answer when nothing streamed it (structured output), then the sources. */
  async end(response: Pick<AgentResponse, "answer" | "data" | "sourcesDetailed">): Promise<void> {
    if (!this.jsonLines) {
      if (!this.text) this.write(this.structured(response));
      else if (!this.text.endsWith("\n")) this.write("\n");
      this.write(sourceList(response.sourcesDetailed ?? []));
    }
    await this.out;
  }

  private structured(response: Pick<AgentResponse, "answer" | "data">): string {
    const text = response.answer || JSON.stringify(response.data, null, 2);
    return text.endsWith("\n") ? text : `${text}\n`;
  }
}

/** The numbered sources after the answer: [n] in the text is line n here. */
function sourceList(sources: { url: string; title: string }[]): string {
  if (!sources.length) return "";
  const lines = sources.map((s, i) => `[${i + 1}] ${s.title || s.url}\n    ${s.url}`);
  return `\nSources:\n${lines.join("\n")}\n`;
}

const searchHeaders = (input: AgentInput): Record<string, string> =>
  input.searchApiKey ? { "x-search-api-key": input.searchApiKey } : {};

/** Runs the agent here or on a server; prints the answer as it is written, or JSON. */
async function runNow(input: AgentInput, remote: Remote | null, json: boolean, stream: boolean) {
  const printer = new EventPrinter(json && stream);
  if (remote) {
    const { searchApiKey: _key, ...body } = input;
    if (json && !stream) {
      const response = await callApi<AgentResponse>(remote, "POST", "/v1/agent", body, searchHeaders(input));
      return writeStdout(`${JSON.stringify(response, null, 2)}\n`);
    }
    for await (const raw of streamApi(remote, "/v1/agent", { ...body, stream: true }, searchHeaders(input))) {
      const event = raw as AgentEvent;
      printer.on(event);
      if (event.type === "error") throw new SiphonError(event.error.type as never, event.error.message);
      if (event.type === "done") {
        return printer.end({
          answer: event.answer,
          data: event.data ?? {},
          sourcesDetailed: event.sourcesDetailed ?? event.sources.map((url) => ({ url, title: "" })),
        });
      }
    }
    throw new SiphonError("internal_error", "The agent's stream ended without its done event");
  }
  const { runAgent } = await import("../../src/agent/index.ts");
  const ctx = await openContext();
  try {
    // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
    const outcome = await runAgent(input, {
      ...ctx,
      apiBasePolicy: "trust",
      onEvent: (event) => printer.on(event),
    });
    if (outcome.degraded) log.warn(outcome.degraded);
    if (json && !stream) return writeStdout(`${JSON.stringify(outcome.response, null, 2)}\n`);
    await printer.end(outcome.response);
  } finally {
    await ctx.close();
  }
}

/**
 * --async: a job outlives this process only on a server, so it needs one.
 * @throws SiphonError invalid_request without --api-url / SIPHON_API_URL
 */
async function startJob(body: Record<string, unknown>, remote: Remote | null, json: boolean) {
  if (!remote) {
    throw new SiphonError("invalid_request", "--async needs a server: this process would end with the job", {
      hint: "Start `siphon serve` and pass --api-url http://127.0.0.1:3000 (or set SIPHON_API_URL); without --async the agent runs here.",
    });
  }
  const input = validate(AgentAsyncBody, body);
  const { searchApiKey: _key, ...rest } = input;
  const started = await callApi<{ id: string; url: string }>(
    remote,
    "POST",
    "/v1/agent/async",
    rest,
    input.searchApiKey ? { "x-search-api-key": input.searchApiKey } : {},
  );
  await writeStdout(json ? `${JSON.stringify(started)}\n` : `${started.id}\n`);
}

/** One poll of an agent job: on the server, or in the local store `siphon serve` shares with this CLI. */
async function pollJob(id: string, remote: Remote | null, config: Config): Promise<Record<string, unknown>> {
  if (remote) return callApi(remote, "GET", `/v1/agent/${encodeURIComponent(id)}`);
  const store = await openStore(config);
  try {
    const job = await findJob(store, { accountId: LOCAL_ACCOUNT_ID, now: Date.now() }, id, "agent").catch(
      (error) => {
        if (!(error instanceof SiphonError) || error.type !== "not_found") throw error;
        throw new SiphonError("not_found", `No agent job ${id} in ${config.home}`, {
          hint: "Pass --api-url for a job on another server; results are kept 24 h after the job ends.",
        });
      },
    );
    return agentJobView(job);
  } finally {
    await store.close();
  }
}

/** `agent status ID [--wait]`: prints the job's state, or once completed its answer; exit 5 when it failed. */
async function status(id: string, a: Args, remote: Remote | null, config: Config): Promise<number> {
  let view = await pollJob(id, remote, config);
  while (a.wait && !isEnded(view as { status: JobStatus })) {
    if (process.stderr.isTTY) process.stderr.write(`\r${view.status} `);
    await Bun.sleep(500);
    view = await pollJob(id, remote, config);
  }
  if (process.stderr.isTTY && a.wait) process.stderr.write("\n");
  if (a.json) await writeStdout(`${JSON.stringify(view, null, 2)}\n`);
  else if (view.status === "completed") {
    await new EventPrinter(false).end(view as unknown as AgentResponse);
  } else await writeStdout(`${view.status}\n`);
  if (view.status === "failed") {
    log.error(`${id} failed: ${view.error}`);
    return 5;
  }
  return 0;
}

export default defineCommand({
  meta: {
    name: "agent",
    description:
      "Research a task on the web with an LLM: prints the answer as it is written, then its sources; --async starts a job on a server",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    const json = a.json === true;
    const config = loadConfig();
    const remote = remoteOf(a, config);
    if (a._[0] === "status" && a._.length === 2) {
      const other = Object.keys(args).find((name) => !STATUS_FLAGS.has(name) && a[name] !== undefined);
      if (other)
        throw new SiphonError("invalid_request", `--${other} is for running a task, not for agent status`);
      return status(a._[1] as string, a, remote, config);
    }
    requireWith(
      a,
      "stream",
      "json",
      "it prints every event as a JSON line; without --json the answer is printed as it is written",
    );
    if (a.wait)
      throw new SiphonError("invalid_request", "--wait is for agent status ID: it waits for that job to end");
    const body = bodyOf(a._.join(" "), a);
    if (a.async) {
      await startJob(body, remote, json);
      return 0;
    }
    await runNow(validate(AgentBody, body), remote, json, a.stream === true);
    return 0;
  },
});

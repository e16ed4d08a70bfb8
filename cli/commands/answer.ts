import { defineCommand } from "citty";
import { type AnswerDeps, answer, answerStream, type ProgressEvent } from "../../src/answer/index.ts";
import { loadConfig } from "../../src/config.ts";
import type { AnswerEvent, AnswerInput, AnswerResponse, Citation } from "../../src/schemas/answer.ts";
import { AnswerBody } from "../../src/schemas/answer.ts";
import { validate } from "../../src/schemas/validate.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { llmArgs, llmKeyOf, searchArgs } from "../llm-flags.ts";
import { log, printTextStream, setQuiet, writeStdout } from "../output.ts";
import { callApi, type Remote, remoteArgs, remoteOf, streamApi } from "../remote.ts";
import { many } from "../strict-args.ts";

const args = {
  question: many({
    type: "positional",
    required: true,
    description: "The question (quote it, or give several words)",
  }),
  ...llmArgs,
  ...searchArgs,
  sources: { type: "string", description: "Pages to fetch and cite, 1 to 10 (default 5)", valueHint: "n" },
  json: { type: "boolean", description: "Print the Answer response as JSON when it is complete" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** Maps flags to the AnswerBody shape; the shared schema then validates it. */
function inputFor(question: string, a: Args, stream: boolean): AnswerInput {
  const vendor = a.llm ?? "openai";
  const key = llmKeyOf(vendor, a["llm-key"]);
  return validate(
    AnswerBody,
    defined({
      question,
      llmProvider: vendor,
      llmApiKey: key,
      llmModel: a["llm-model"],
      llmApiBase: a["llm-base"],
      searchProvider: a.provider,
      searchApiKey: a["search-key"],
      maxSources: numberFlag(a.sources, "sources"),
      stream,
    }),
  );
}

/** One progress line per step on a terminal's stderr; nothing when stderr is a pipe. */
function progress(event: ProgressEvent): void {
  if (!process.stderr.isTTY) return;
  if (event.action === "searching") log.info(`Searching: ${event.query}`);
  else if (event.action === "fetching") log.info(`Fetching ${event.url}`);
  else log.info(`${event.summary}; asking the model`);
}

/** The numbered sources after the answer: [n] in the text is line n here. */
function sourceList(citations: Citation[]): string {
  const lines = citations.map((c, i) => `[${i + 1}] ${c.title || c.url}\n    ${c.url}`);
  return `\nSources:\n${lines.join("\n")}\n`;
}

function searchHeaders(input: AnswerInput): Record<string, string> {
  return input.searchApiKey ? { "x-search-api-key": input.searchApiKey } : {};
}

/** Runs the answer here or on a server, as JSON (whole) or streamed text. */
async function run(input: AnswerInput, remote: Remote | null, json: boolean): Promise<void> {
  const { searchApiKey: _key, ...body } = input;
  if (remote && json) {
    const response = await callApi<AnswerResponse>(remote, "POST", "/v1/answer", body, searchHeaders(input));
    await writeStdout(`${JSON.stringify(response, null, 2)}\n`);
    return;
  }
  if (remote) {
    const done = await printTextStream<AnswerEvent>(
      streamApi(remote, "/v1/answer", body, searchHeaders(input)),
    );
    await writeStdout(sourceList(done.citations));
    return;
  }
  const ctx = await openContext();
  // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
  const deps: AnswerDeps = { ...ctx, apiBasePolicy: "trust", onProgress: progress };
  try {
    if (json) {
      const outcome = await answer(input, deps);
      if (outcome.degraded) log.warn(outcome.degraded);
      await writeStdout(`${JSON.stringify(outcome.response, null, 2)}\n`);
      return;
    }
    const outcome = await answerStream(input, deps);
    if (outcome.degraded) log.warn(outcome.degraded);
    const done = await printTextStream<AnswerEvent>(outcome.events);
    await writeStdout(sourceList(done.citations));
  } finally {
    await ctx.close();
  }
}

export default defineCommand({
  meta: {
    name: "answer",
    description:
      "Answer a question from the web with an LLM; prints the answer as it comes, then its numbered sources",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    const json = a.json === true;
    const input = inputFor(a._.join(" "), a, !json);
    await run(input, remoteOf(a, loadConfig()), json);
    return 0;
  },
});

import { defineCommand } from "citty";
import { ask } from "../../src/ask/index.ts";
import { loadConfig } from "../../src/config.ts";
import { AskBody, type AskInput, type AskResponse } from "../../src/schemas/ask.ts";
import { openContext } from "../context.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";
import { many } from "../strict-args.ts";

/** POST /v1/ask's fields (the key travels in a header to a server). */
const askFlags = schemaFlags(AskBody, {
  sources: true,
  provider: true,
  searchApiKey: {
    name: "search-key",
    description: "Brave Search API key (else SIPHON_BRAVE_API_KEY)",
    valueHint: "key",
  },
});

const args = {
  question: many({
    type: "positional",
    required: true,
    description: "The question (quote it, or give several words)",
  }),
  ...askFlags.args,
  json: { type: "boolean", description: "Print the Ask response as JSON" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** The readable form: the answer, its confidence, then the sources best first. */
function render(response: AskResponse): string {
  const parts: string[] = [];
  if (response.answer !== null) {
    parts.push(`${response.answer}\n`, `Confidence: ${response.confidence.toFixed(2)}\n`);
  }
  if (response.sources.length) {
    const lines = response.sources.map((s, i) =>
      [
        `${i + 1}. ${s.title || s.url}`,
        `   ${s.url}`,
        `   confidence ${s.confidence.toFixed(2)} · ${s.authority} · ${s.freshness}`,
      ].join("\n"),
    );
    parts.push(`Sources:\n${lines.join("\n")}\n`);
  }
  return parts.join("\n");
}

/** Asks a siphon server: POST /v1/ask, the key in a header as for search. */
function askRemote(input: AskInput, remote: NonNullable<ReturnType<typeof remoteOf>>): Promise<AskResponse> {
  const { searchApiKey, ...body } = input;
  const headers: Record<string, string> = searchApiKey ? { "x-search-api-key": searchApiKey } : {};
  return callApi<AskResponse>(remote, "POST", "/v1/ask", body, headers);
}

export default defineCommand({
  meta: {
    name: "ask",
    description: "Answer a question with the best passage from the web (BM25, no language model)",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    // Unquoted words are one question: `siphon ask what wheel does a tide mill use`.
    const input = validateFlags(AskBody, { question: a._.join(" "), ...askFlags.read(a) }, [askFlags]);
    const remote = remoteOf(a, loadConfig());
    let response: AskResponse;
    if (remote) response = await askRemote(input, remote);
    else {
      const ctx = await openContext();
      try {
        const outcome = await ask(input, ctx);
        if (outcome.degraded) log.warn(outcome.degraded);
        log.debug(`${outcome.provider}: ${outcome.pagesFetched} page(s) fetched`);
        response = outcome.response;
      } finally {
        await ctx.close();
      }
    }
    if (response.answer === null) {
      log.warn(
        response.sources.length
          ? "No passage of the pages found has the question's words; rephrase it with the words a page would use"
          : "The search found no pages for this question",
      );
    }
    await writeStdout(a.json ? `${JSON.stringify(response, null, 2)}\n` : render(response));
    return 0;
  },
});

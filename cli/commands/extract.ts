import { existsSync, readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { ExtractBody, type ExtractInput, type ExtractResponse } from "../../src/schemas/extract.ts";
import { validate } from "../../src/schemas/validate.ts";
import { extractUrl, extractUrlAuto } from "../../src/structured/fetch.ts";
import { extractRequest } from "../../src/structured/index.ts";
import { defined } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { llmArgs, llmKeyOf } from "../llm-flags.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";

const args = {
  url: { type: "positional", required: true, description: "The page" },
  schema: {
    type: "string",
    description: "JSON Schema of the result: a file, or JSON",
    valueHint: "file|json",
  },
  prompt: { type: "string", description: "What to extract, in words (needs --llm)", valueHint: "text" },
  selectors: {
    type: "string",
    description: 'Fields by CSS selector, no LLM: \'{"name":"h1","images":["img@src"]}\' (a file or JSON)',
    valueHint: "file|json",
  },
  ...llmArgs,
  json: {
    type: "boolean",
    description: "Print the whole Extract response (data, method, sources, tokensUsed)",
  },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** A flag that holds JSON, or names a file holding it. */
function jsonFlag(value: unknown, name: string): unknown {
  if (typeof value !== "string") return undefined;
  const text = !value.trim().startsWith("{") && existsSync(value) ? readFileSync(value, "utf8") : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SiphonError(
      "invalid_request",
      `--${name} is neither JSON nor a readable JSON file: ${(error as Error).message}`,
    );
  }
}

/** The request body for the flags; the LLM only when a --llm flag asks for one. */
function inputFor(url: string, a: Args): ExtractInput {
  const wantsLlm = a.llm !== undefined || a["llm-key"] !== undefined || a["llm-base"] !== undefined;
  return validate(
    ExtractBody,
    defined({
      url,
      schema: jsonFlag(a.schema, "schema"),
      prompt: a.prompt,
      selectors: jsonFlag(a.selectors, "selectors"),
      llmProvider: wantsLlm ? (a.llm ?? "openai") : undefined,
      llmApiKey: wantsLlm ? llmKeyOf(a.llm, a["llm-key"]) : undefined,
      llmModel: a["llm-model"],
      llmApiBase: a["llm-base"],
    }),
  );
}

export default defineCommand({
  meta: {
    name: "extract",
    description:
      "Extract structured data from a page as JSON: with --schema/--prompt and --llm, with --schema alone (the page's structured data), with --selectors, or with nothing (everything found)",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { url: string };
    setQuiet(a.quiet === true);
    const input = inputFor(a.url, a);
    const auto = !input.schema && !input.prompt && !input.selectors;
    const remote = remoteOf(a, loadConfig());
    let response: ExtractResponse;
    if (remote) {
      response = auto
        ? await callApi<ExtractResponse>(remote, "GET", `/v1/extract/auto?url=${encodeURIComponent(a.url)}`)
        : await callApi<ExtractResponse>(remote, "POST", "/v1/extract", input);
    } else {
      const request = auto ? undefined : await extractRequest(input, input);
      const ctx = await openContext();
      try {
        // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
        const deps = { ...ctx, apiBasePolicy: "trust" as const };
        const outcome = request ? await extractUrl(a.url, request, deps) : await extractUrlAuto(a.url, deps);
        if (outcome.degraded) log.warn(outcome.degraded);
        response = { success: true, ...outcome.result };
      } finally {
        await ctx.close();
      }
    }
    if (response.tokensUsed)
      log.debug(`tokens: ${response.tokensUsed.input} in, ${response.tokensUsed.output} out`);
    await writeStdout(`${JSON.stringify(a.json ? response : response.data, null, 2)}\n`);
    return 0;
  },
});

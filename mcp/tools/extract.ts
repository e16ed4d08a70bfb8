import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import { ExtractResult } from "../../src/schemas/extract.ts";
import { extractFields } from "../../src/schemas/extract-spec.ts";
import { LlmFieldsOptional } from "../../src/schemas/llm.ts";
import { extractUrl, extractUrlAuto } from "../../src/structured/fetch.ts";
import { extractRequest } from "../../src/structured/index.ts";
import type { ToolDef } from "../types.ts";
import { jsonBlock } from "./render.ts";

export const ExtractToolInput = T.Object(
  {
    url: T.String({ minLength: 1, maxLength: 2048, description: "The page to extract from" }),
    ...extractFields,
    ...LlmFieldsOptional,
  },
  { additionalProperties: false },
);
type ExtractToolInput = Static<typeof ExtractToolInput>;

export const ExtractToolOutput = T.Composite([ExtractResult, T.Object({ degraded: T.Optional(T.String()) })]);

export const extractTool: ToolDef<ExtractToolInput> = {
  name: "siphon_extract",
  description:
    "Get structured JSON out of one web page. Four ways: selectors {field: CSS selector} read the page " +
    'directly ("h1", "img@src", ["li.tag"] for all matches); a JSON Schema alone is filled from the page\'s own ' +
    "structured data (JSON-LD, microdata, OpenGraph, tables), null where nothing was found; a schema and/or a " +
    "prompt with your llmProvider and llmApiKey uses that model; and with none of schema, prompt and " +
    "selectors you get everything structured on the page, grouped by type (products, articles, events, " +
    "tables, prices, dates). method and sources say how each field was found.",
  input: ExtractToolInput,
  output: ExtractToolOutput,
  annotations: {
    title: "Extract structured data",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { url } = args;
    const auto = !args.schema && !args.prompt && !args.selectors;
    if (auto && (args.llmProvider || args.llmApiKey || args.llmModel || args.llmApiBase)) {
      throw new SiphonError("invalid_request", "The LLM fields need a schema or a prompt to work from", {
        hint: "Add a schema and/or a prompt, or leave the LLM fields out to get everything structured on the page.",
      });
    }
    const request = auto ? undefined : await extractRequest(args, args);
    const outcome = await ctx.host.meter("extract", async (grant) => {
      const deps = { ...ctx.host.deps, signal: ctx.signal, httpOnly: grant.httpOnly };
      const extracted = request ? await extractUrl(url, request, deps) : await extractUrlAuto(url, deps);
      return { body: extracted, credits: extracted.credits, degraded: extracted.degraded };
    });
    const { result } = outcome;
    const structured: Record<string, unknown> = { ...result };
    if (outcome.degraded) structured.degraded = outcome.degraded;
    const lines = [
      `# Extracted from ${result.url}`,
      `method: ${result.method}${auto ? " (everything structured on the page, by type)" : ""}`,
    ];
    if (result.tokensUsed)
      lines.push(`LLM tokens: ${result.tokensUsed.input} in, ${result.tokensUsed.output} out`);
    if (outcome.degraded) lines.push(`Note: ${outcome.degraded}`);
    lines.push("", jsonBlock(result.data));
    if (result.sources && Object.keys(result.sources).length) {
      lines.push(
        "",
        "Sources:",
        ...Object.entries(result.sources).map(([field, source]) => `- ${field}: ${source}`),
      );
    }
    return { text: lines.join("\n"), structured };
  },
};

import { type Static, Type as T } from "@sinclair/typebox";
import { fromBase64, parseDocument } from "../../src/pipeline/parse.ts";
import { FetchResult } from "../../src/schemas/fetch.ts";
import { ParseBody, ParseOptions } from "../../src/schemas/parse.ts";
import { validate } from "../../src/schemas/validate.ts";
import { TextPage, textPaging, textWindow } from "../paging.ts";
import type { ToolDef } from "../types.ts";
import { jsonBlock, partNote } from "./render.ts";

const p = ParseBody.properties;

export const ParseToolInput = T.Object(
  {
    filename: p.filename,
    data: p.data,
    contentType: p.contentType,
    url: p.url,
    format: p.format,
    onlyMainContent: T.Optional(T.Boolean({ description: "Only the main content (default false)" })),
    extract: p.extract,
    llmProvider: p.llmProvider,
    llmApiKey: p.llmApiKey,
    llmModel: p.llmModel,
    llmApiBase: p.llmApiBase,
    ...textPaging(),
  },
  { additionalProperties: false },
);
type ParseToolInput = Static<typeof ParseToolInput>;

export const ParseToolOutput = T.Composite(
  [T.Omit(FetchResult, ["screenshot", "actions"]), T.Object({ page: TextPage })],
  { description: "The Fetch result of the document; content holds the part named by page" },
);

export const parseTool: ToolDef<ParseToolInput> = {
  name: "siphon_parse",
  description:
    "Read a document you have as bytes (HTML, PDF, DOCX, JSON, XML or text, base64 in data, its name in " +
    "filename) as siphon_fetch reads a page: clean markdown with title, metadata and links; extract fills a " +
    "JSON Schema (with your llmProvider and llmApiKey, or from the document's structured data). Nothing is " +
    "fetched: use siphon_fetch for a URL. One credit.",
  input: ParseToolInput,
  output: ParseToolOutput,
  annotations: {
    title: "Read a document",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    // Extraction may call the caller's LLM.
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { data, startIndex, maxLength, ...options } = args;
    const body = fromBase64(data);
    const outcome = await ctx.host.meter("parse", async (grant) => {
      const read = await parseDocument(
        { options: validate(ParseOptions, options), body, accountId: grant.accountId },
        { ...ctx.host.deps, signal: ctx.signal },
      );
      return { body: read, credits: read.credits, tokens: read.tokens };
    });
    const { screenshot: _s, actions: _a, ...result } = outcome.result;
    const { parts, page } = textWindow([result.content], startIndex, maxLength);
    const content = parts[0] ?? "";
    const lines = [
      `# ${result.title || args.filename}`,
      `${args.filename} · ${result.contentType} · ${result.tokens} tokens`,
    ];
    const note = partNote(page, "siphon_parse");
    if (note) lines.push(note);
    lines.push("", content);
    if (result.json !== undefined && page.startIndex === 0)
      lines.push("", "## Extracted JSON", jsonBlock(result.json));
    return { text: lines.join("\n"), structured: { ...result, content, page } };
  },
};

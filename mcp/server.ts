import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import pkg from "../package.json";
import { toSiphonError } from "../src/errors.ts";
import { validate } from "../src/schemas/validate.ts";
import { type CallResult, errorResult, toolResult } from "./results.ts";
import { TOOLS } from "./tools/index.ts";
import type { Progress, ToolDef, ToolHost } from "./types.ts";

/** What the server tells every client at initialize: which tool for which job. */
export const INSTRUCTIONS = [
  "siphon turns web pages into clean, model-ready markdown.",
  "siphon_fetch reads one URL (use it first for a known page; render/stealth for JavaScript apps or blocked sites).",
  "siphon_search finds pages for a query (scrapeResults adds their content).",
  "siphon_map lists a site's URLs without reading them; siphon_crawl reads up to 100 pages of a site;",
  "siphon_batch reads a known list of up to 50 URLs; siphon_extract returns structured JSON from a page;",
  "siphon_agent researches a question with your own LLM key and answers with citations.",
  "Long answers come in parts: call again with the nextStartIndex the answer gives.",
].join(" ");

/**
 * The tools as tools/list describes them: JSON Schemas straight from the typebox models (the
 * same ones that validate the calls), computed once per process since each HTTP request builds
 * its own server.
 */
let listed: Tool[] | undefined;
export function listTools(): Tool[] {
  listed ??= TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    // JSON round trip: typebox's symbols out, plain JSON Schema in.
    inputSchema: JSON.parse(JSON.stringify(tool.input)),
    outputSchema: JSON.parse(JSON.stringify(tool.output)),
    annotations: tool.annotations,
  }));
  return listed;
}

const byName = new Map<string, ToolDef>(TOOLS.map((tool) => [tool.name, tool as ToolDef]));

/**
 * Runs one call: arguments checked against the tool's schema (defaults applied), then the
 * handler. Every failure, bad arguments included, is an isError result whose text says what to
 * do; unexpected ones are reported to the host and shown only as internal_error.
 */
export async function callTool(
  tool: ToolDef,
  args: unknown,
  host: ToolHost,
  signal: AbortSignal,
  progress: (report: Progress) => Promise<void>,
): Promise<CallResult> {
  try {
    const input = validate(tool.input, args ?? {});
    return toolResult(await tool.run(input, { host, signal, progress }));
  } catch (raw) {
    const error = toSiphonError(raw);
    if (error.type === "internal_error") host.onInternalError?.(raw);
    return errorResult(error);
  }
}

/**
 * An MCP server with siphon's tools, for one transport: the stdio server keeps one for its
 * life; the HTTP endpoint builds one per request (stateless). The low-level Server takes JSON
 * Schema as it is, so the tools' schemas are the typebox request models the REST API and the
 * OpenAPI document use, not a second copy in zod (McpServer's registerTool wants zod).
 */
export function createMcpServer(host: ToolHost): Server {
  const server = new Server(
    { name: "siphon", title: "siphon", version: pkg.version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; siphon's tools are ${[...byName.keys()].join(", ")}`,
      );
    }
    const token = request.params._meta?.progressToken;
    let last = -1;
    const progress = async (report: Progress) => {
      // Progress must grow with every notification; a report that does not is dropped.
      if (token === undefined || report.progress <= last) return;
      last = report.progress;
      await extra
        .sendNotification({ method: "notifications/progress", params: { progressToken: token, ...report } })
        .catch(() => {});
    };
    const signal = host.deps.signal ? AbortSignal.any([extra.signal, host.deps.signal]) : extra.signal;
    return callTool(tool, request.params.arguments, host, signal, progress);
  });
  return server;
}

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import { serverCard } from "../../mcp/card.ts";
import { createMcpServer } from "../../mcp/server.ts";
import type { ToolHost } from "../../mcp/types.ts";
import { SiphonError } from "../../src/errors.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { type Guard, identify, metered } from "../guard.ts";

export interface McpRouteDeps extends FetchDeps {
  runner: JobRunner;
  log?: (line: string) => void;
  onInternalError?: (error: unknown, requestId: string) => void;
}

type Headers = Record<string, string | number>;

/** Whether a message (or batch) asks for progress: only then is the answer a stream (SSE). */
function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) =>
      (m as { params?: { _meta?: { progressToken?: unknown } } })?.params?._meta?.progressToken !== undefined,
  );
}

/** A format-B answer with a status the error table has no type for (405). */

const description =
  "The hosted MCP server over Streamable HTTP, stateless: each POST carries JSON-RPC messages and is " +
  "authenticated (Authorization: Bearer sph_live_… or X-API-Key, in every auth mode) and handled on its own, " +
  "by a new server. Send Accept: application/json, text/event-stream. Answers are JSON, or a server-sent " +
  "event stream when a request asks for progress (_meta.progressToken). Tools: siphon_fetch, siphon_search, " +
  "siphon_crawl, siphon_map, siphon_extract, siphon_batch, siphon_agent; each call is metered as the REST " +
  "route it mirrors (same credits, burst window and quota), and a failure, a 429 included, is a tool result " +
  "with isError. Usage headers (X-Credits-Used, X-RateLimit-*, Retry-After) come with JSON answers.";

/** POST/GET/DELETE /mcp and the server card. */
export function mcpRoutes(deps: McpRouteDeps, guard: Guard, version: string) {
  const { runner, log, onInternalError, ...fetchDeps } = deps;
  return new Elysia({ name: "routes:mcp" })
    .post(
      "/mcp",
      async ({ body, request, set }) => {
        // POST /mcp always needs a key (DECISIONS.md), except where auth is off altogether.
        const principal = await identify(guard, request, !guard.off);
        if (body === undefined || body === null || typeof body !== "object") {
          throw new SiphonError("invalid_request", "POST /mcp takes a JSON-RPC message or a batch of them", {
            hint: 'e.g. {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          });
        }
        const requestId = String(set.headers["x-request-id"] ?? "");
        // Usage headers of the metered call, copied onto a JSON answer (a stream has sent its headers).
        const usage: Headers = {};
        const host: ToolHost = {
          deps: { ...fetchDeps, signal: request.signal, llmLog: log },
          runner,
          accountId: principal.account.id,
          searchApiKey: request.headers.get("x-search-api-key") ?? undefined,
          meter: async (route, run) => {
            try {
              return await metered(guard, request, { headers: usage }, `mcp:${route}`, (admission) =>
                run({
                  accountId: admission?.principal.account.id ?? principal.account.id,
                  keyId: (admission?.principal ?? principal).key?.id ?? null,
                  httpOnly: admission?.softLimited ?? false,
                }),
              );
            } catch (error) {
              if (error instanceof SiphonError) Object.assign(usage, error.headers);
              throw error;
            }
          },
          onInternalError: (error) => onInternalError?.(error, requestId),
        };
        const stream = wantsProgress(body);
        const server = createMcpServer(host);
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: !stream,
        });
        await server.connect(transport);
        const response = await transport.handleRequest(request, { parsedBody: body });
        if (!stream) {
          for (const [name, value] of Object.entries(usage)) response.headers.set(name, String(value));
          // A JSON answer is complete: nothing more goes through this server.
          await server.close();
        }
        return response;
      },
      { detail: { summary: "MCP endpoint (Streamable HTTP, stateless)", description } },
    )
    .get(
      "/mcp",
      () => {
        throw new SiphonError(
          "method_not_allowed",
          "GET /mcp opens no event stream: this MCP server is stateless; POST JSON-RPC messages instead",
          { headers: { allow: "POST, DELETE" } },
        );
      },
      { detail: { summary: "Not supported: 405 (the MCP server is stateless and opens no stream)" } },
    )
    .delete("/mcp", () => ({ success: true }), {
      detail: { summary: "Ends an MCP session: there are none (stateless), so 200 and nothing happens" },
    })
    .get(
      "/.well-known/mcp/server-card.json",
      ({ request }) => serverCard(new URL(request.url).origin, version),
      {
        detail: {
          summary: "MCP server card",
          description:
            "Discovery: the MCP endpoint, its auth (a bearer key), protocol version and the tools with their input and output schemas (SEP-1649). No key needed.",
        },
      },
    );
}

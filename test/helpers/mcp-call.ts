import type { TestApp } from "./app.ts";

/** What a tools/call answers over POST /mcp. */
export interface McpToolResult {
  isError?: boolean;
  structuredContent: Record<string, unknown>;
  content: { type?: string; text?: string }[];
}

/** Calls one MCP tool on the app's HTTP endpoint (JSON-RPC, stateless) with `key`; the tool's result. */
export async function mcpCall(
  app: TestApp,
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<McpToolResult> {
  const response = await app.request("/mcp", {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  return ((await response.json()) as { result: McpToolResult }).result;
}

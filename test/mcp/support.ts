/** What the MCP tests share: the fake LLM's scripted agent, and reading a tool result. */
import type { FakeLlmRequest, FakeReply } from "../helpers/fake-llm.ts";

/** The LLM key the fake vendor accepts. */
export const LLM_KEY = "sk-mcp-3f1e5d7c9b0a2e4c6d8fSECRET";

export const AGENT_ANSWER =
  "The council approved a solar farm [1].\n\nKEY FINDINGS:\n- Solar farm approved [1]";

/**
 * A model that searches once, reads `page`, finishes and writes AGENT_ANSWER; structured
 * extraction (response_format) gets `json`.
 */
export function agentScript(page: string, json: Record<string, unknown> = {}) {
  return (req: FakeLlmRequest): FakeReply => {
    if (!req.tools.length) {
      if (req.body?.response_format) return { json };
      return { text: AGENT_ANSWER };
    }
    const turns = req.messages.filter((m) => m.role === "assistant").length;
    const calls = [
      [{ name: "search_web", arguments: { query: "riverside solar farm" } }],
      [{ name: "fetch_page", arguments: { urls: [page] } }],
    ][turns] ?? [{ name: "finish", arguments: {} }];
    return { toolCalls: calls };
  };
}

/** A tools/call result as the SDK client returns it. */
export interface ToolResult {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The text of a result's first block. */
export function textOf(result: unknown): string {
  const first = (result as ToolResult).content[0];
  return first?.type === "text" ? (first.text ?? "") : "";
}

/** The structured content of a successful result; throws with the text of a failed one. */
export function structuredOf<T = Record<string, unknown>>(result: unknown): T {
  const r = result as ToolResult;
  if (r.isError) throw new Error(`tool failed: ${textOf(r)}`);
  return r.structuredContent as T;
}

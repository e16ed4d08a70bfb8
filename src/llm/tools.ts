import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { SiphonError } from "../errors.ts";
import { openCall } from "./client.ts";
import { estimateTokens } from "./complete.ts";
import { malformed } from "./errors.ts";
import type { LlmTarget } from "./providers.ts";
import type { LlmDeps, Usage } from "./types.ts";

/** A function the model may call: name, what it does, and a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One call the model asked for; `arguments` is parsed JSON, or null when the model sent invalid JSON. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | null;
  /** The arguments as sent (to hand back to the model in the conversation). */
  raw: string;
}

/** A message of a tool conversation: chat messages plus the assistant's calls and the tools' answers. */
export type ToolMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string };

export interface ToolTurnInput {
  llm: LlmTarget;
  messages: ToolMessage[];
  tools: ToolSpec[];
  maxTokens?: number;
}

/** One turn of the model: its text, the tools it wants called, and the tokens it used. */
export interface ToolTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: string | null;
}

function wire(message: ToolMessage): ChatCompletionMessageParam {
  if (message.role === "tool") {
    return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
  if (message.role === "assistant" && message.toolCalls?.length) {
    return {
      role: "assistant",
      content: message.content || null,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: "function" as const,
        function: { name: call.name, arguments: call.raw },
      })),
    };
  }
  return { role: message.role, content: message.content } as ChatCompletionMessageParam;
}

function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(raw || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Whether an error says the model or server cannot call tools (Ollama: "does not support tools",
 * vLLM: "tool choice requires --enable-auto-tool-choice"), so the caller can plan without them.
 */
export function isNoToolSupport(error: unknown): boolean {
  return (
    error instanceof SiphonError &&
    error.type === "invalid_request" &&
    /\btools?\b|function[ _]call/i.test(error.message) &&
    !/api key|401|llmModel/i.test(error.message)
  );
}

/**
 * One turn of a conversation with tools (OpenAI's `tools` and `tool_calls`, which Anthropic's and
 * Google's compatibility layers and most OpenAI-compatible servers speak). The model either
 * answers with text or asks for tool calls; running them and the next turn is the caller's loop.
 *
 * @throws SiphonError as `complete` does; isNoToolSupport(error) is true when the server refuses
 *   tools themselves
 */
export async function completeWithTools(input: ToolTurnInput, deps: LlmDeps): Promise<ToolTurn> {
  if (input.messages.length === 0) {
    throw new SiphonError("invalid_request", "An LLM call needs at least one message");
  }
  const call = await openCall(input.llm, deps);
  const tools: ChatCompletionTool[] = input.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  try {
    const response = (await call.client.chat.completions.create(
      {
        model: call.target.model,
        messages: input.messages.map(wire),
        tools,
        ...(input.maxTokens === undefined ? {} : { max_completion_tokens: input.maxTokens }),
      },
      { signal: call.signal },
    )) as ChatCompletion | null;
    const choice = response && typeof response === "object" ? response.choices?.[0] : undefined;
    if (!choice?.message) throw malformed(call.target, "no choices[0].message in the answer");
    const text = typeof choice.message.content === "string" ? choice.message.content : "";
    const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((tc) =>
      tc.type === "function"
        ? [
            {
              id: tc.id,
              name: tc.function.name,
              raw: tc.function.arguments,
              arguments: parseArguments(tc.function.arguments),
            },
          ]
        : [],
    );
    const reported = response?.usage;
    const usage: Usage =
      typeof reported?.prompt_tokens === "number" && typeof reported.completion_tokens === "number"
        ? { input: reported.prompt_tokens, output: reported.completion_tokens, estimated: false }
        : {
            input: input.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0),
            output: estimateTokens(text) + toolCalls.reduce((sum, c) => sum + estimateTokens(c.raw), 0),
            estimated: true,
          };
    return { text, toolCalls, usage, finishReason: choice.finish_reason ?? null };
  } catch (error) {
    throw call.fail(error);
  } finally {
    call.finish();
  }
}

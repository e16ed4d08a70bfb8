import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import { SiphonError } from "../errors.ts";
import { type LlmCall, openCall } from "./client.ts";
import { malformed, scrubSecret } from "./errors.ts";
import type { ResolvedTarget } from "./providers.ts";
import type { ChatMessage, CompletionInput, CompletionResult, LlmDeps, Usage } from "./types.ts";

/** Request fields beyond the conversation (response_format for structured output). */
export type ExtraParams = Pick<ChatCompletionCreateParamsNonStreaming, "response_format">;

/** siphon's token rule (the Fetch result's `tokens`): a token is about four characters. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function estimatedUsage(messages: ChatMessage[], output: string): Usage {
  const input = messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
  return { input, output: estimateTokens(output), estimated: true };
}

function usageOf(
  usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined,
  messages: ChatMessage[],
  text: string,
): Usage {
  const input = usage?.prompt_tokens;
  const output = usage?.completion_tokens;
  if (typeof input === "number" && typeof output === "number") return { input, output, estimated: false };
  return estimatedUsage(messages, text);
}

function checkInput(input: CompletionInput): void {
  if (!Array.isArray(input.messages) || input.messages.length === 0) {
    throw new SiphonError("invalid_request", "An LLM call needs at least one message");
  }
}

function params(target: ResolvedTarget, input: CompletionInput, extra: ExtraParams) {
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: target.model,
    messages: input.messages.map(({ role, content }) => ({ role, content })),
    ...extra,
  };
  // max_completion_tokens, not the deprecated max_tokens: reasoning models refuse the latter;
  // Anthropic's and Google's layers take it, and servers that do not know it ignore it.
  if (input.maxTokens !== undefined) body.max_completion_tokens = input.maxTokens;
  if (input.temperature !== undefined) body.temperature = input.temperature;
  return body;
}

function readCompletion(call: LlmCall, input: CompletionInput, response: unknown): CompletionResult {
  const { target } = call;
  const completion = response as ChatCompletion | string | null;
  if (!completion || typeof completion !== "object") {
    // Never quoted: a base URL that is not an LLM may answer with anything, secrets included.
    throw malformed(target, "not a JSON chat completion");
  }
  const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!choice || typeof choice.message !== "object" || choice.message === null) {
    throw malformed(target, "no choices[0].message in the answer");
  }
  const { content, refusal } = choice.message;
  if (typeof refusal === "string" && refusal && !content) {
    throw new SiphonError(
      "answer_failed",
      `${target.provider} declined to answer: ${scrubSecret(refusal, target.apiKey)}`,
      { hint: "Rephrase the request or try another model." },
    );
  }
  if (content !== null && content !== undefined && typeof content !== "string") {
    throw malformed(target, "choices[0].message.content is not text");
  }
  const text = content ?? "";
  return {
    text,
    usage: usageOf(completion.usage, input.messages, text),
    provider: target.provider,
    model: target.model,
    finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
  };
}

/** Runs one non-streamed completion on an open call; used by `complete` and structured output. */
export async function runCompletion(
  call: LlmCall,
  input: CompletionInput,
  extra: ExtraParams = {},
): Promise<CompletionResult> {
  try {
    const response = await call.client.chat.completions.create(params(call.target, input, extra), {
      signal: call.signal,
    });
    return readCompletion(call, input, response);
  } catch (error) {
    throw call.fail(error);
  } finally {
    call.finish();
  }
}

/**
 * Asks the model once and returns its whole answer with token usage.
 *
 * @throws SiphonError as described in ./errors.ts (bad key, unknown model, 429, 5xx, timeout,
 *   unreachable base URL, malformed answer); the caller's signal's reason when it aborts
 */
export async function complete(input: CompletionInput, deps: LlmDeps): Promise<CompletionResult> {
  checkInput(input);
  const call = await openCall(input.llm, deps);
  return runCompletion(call, input);
}

/**
 * A streamed answer: iterate it for text chunks as they arrive (once), then read `done` for the
 * whole text and the usage. Leaving the loop early (break, a thrown error) or calling `abort()`
 * closes the upstream HTTP request.
 */
export interface CompletionStream extends AsyncIterable<string> {
  provider: CompletionResult["provider"];
  model: string;
  /**
   * Settles when the stream ends: the full text, usage and finish reason; rejects with the
   * error the iteration threw, or an AbortError when the stream was left or aborted early.
   */
  readonly done: Promise<CompletionResult>;
  /** Stops the stream and its upstream request. */
  abort(): void;
}

/**
 * Starts a streamed completion and returns once the server has accepted it (status 200), so a
 * bad key, unknown model or rate limit throws here, before the caller has sent anything of its
 * own (an SSE route can still answer with a proper HTTP error). Usage is asked for with
 * `stream_options: {include_usage: true}`; a server that leaves the final usage chunk out gets
 * an estimate (`usage.estimated: true`).
 *
 * A stream that is neither iterated nor aborted holds its connection until the timeout.
 *
 * @throws SiphonError like `complete`, for failures before the first byte; failures during the
 *   stream are thrown by the iteration and reject `done`
 */
export async function completeStream(input: CompletionInput, deps: LlmDeps): Promise<CompletionStream> {
  checkInput(input);
  const call = await openCall(input.llm, deps);
  const body: ChatCompletionCreateParamsStreaming = {
    ...params(call.target, input, {}),
    stream: true,
    stream_options: { include_usage: true },
  };
  let upstream: AsyncIterable<ChatCompletionChunk>;
  try {
    upstream = await call.client.chat.completions.create(body, { signal: call.signal });
  } catch (error) {
    call.finish();
    throw call.fail(error);
  }

  let settle!: { resolve(result: CompletionResult): void; reject(error: unknown): void };
  const done = new Promise<CompletionResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody has to await `done`; a stream abandoned by a client that left must not crash the process.
  done.catch(() => {});
  let started = false;

  async function* chunks(): AsyncGenerator<string> {
    let text = "";
    let usage: ChatCompletionChunk["usage"];
    let finishReason: string | null = null;
    let finished = false;
    try {
      for await (const chunk of upstream) {
        if (!chunk || typeof chunk !== "object")
          throw malformed(call.target, "a stream event that is not JSON");
        if (chunk.usage) usage = chunk.usage;
        const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        const piece = choice?.delta?.content;
        if (typeof piece === "string" && piece !== "") {
          text += piece;
          yield piece;
        }
      }
      // The SDK ends the iteration quietly when its signal aborts; a cut-short answer is not an answer.
      if (call.signal.aborted)
        throw call.signal.reason ?? new DOMException("The LLM call was aborted", "AbortError");
      finished = true;
      settle.resolve({
        text,
        usage: usageOf(usage, input.messages, text),
        provider: call.target.provider,
        model: call.target.model,
        finishReason,
      });
    } catch (error) {
      const out = call.fail(error);
      settle.reject(out);
      throw out;
    } finally {
      call.finish();
      if (!finished) {
        // Left early (break or return): the SDK's iterator has aborted the request already;
        // abort again in case the loop never reached it.
        call.abort();
        settle.reject(new DOMException("The stream was closed before it ended", "AbortError"));
      }
    }
  }

  return {
    provider: call.target.provider,
    model: call.target.model,
    done,
    abort() {
      call.abort();
      if (!started) {
        call.finish();
        settle.reject(new DOMException("The stream was aborted", "AbortError"));
      }
    },
    [Symbol.asyncIterator]() {
      if (started) throw new Error("A completion stream can be iterated only once");
      started = true;
      return chunks();
    },
  };
}

/**
 * A fake OpenAI-compatible LLM server on 127.0.0.1 (port 0), speaking the real wire format of
 * POST {base}/chat/completions: plain answers, SSE streams (`data: {chunk}` lines,
 * choices[].delta.content, a final usage chunk when `stream_options.include_usage` is set,
 * `data: [DONE]`), `usage` fields, `response_format` json_schema, and OpenAI's error JSON
 * (`{"error": {message, type, param, code}}`) for a bad key (401), an unknown model (404),
 * rate limits and quota (429) and server errors.
 *
 * It is mounted at three base paths, one per vendor, so tests run the production code path
 * with SIPHON_<VENDOR>_BASE_URL pointing here (`fake.env()`), and records every request
 * (headers including Authorization, parsed body) so tests can assert what was sent.
 *
 * What it answers is a function of the request (`reply`), settable per test:
 *
 *   fake.reply = (req) => ({ text: "Tide mills use a waterwheel [1][3]." });
 *   fake.reply = (req) => fakeErrors.rateLimited(30);
 *   fake.reply = () => ({ chunks: ["a", "b"], chunkDelayMs: 200 });   // a slow stream
 */

/** Base path of each vendor mount, shaped like the vendors' real ones. */
export const FAKE_LLM_MOUNTS = {
  openai: "/openai/v1",
  anthropic: "/anthropic/v1",
  google: "/google/v1beta/openai",
} as const;

export type FakeMount = keyof typeof FAKE_LLM_MOUNTS;

/** A chat message as received. */
export interface FakeMessage {
  role: string;
  /** Text; "" for an assistant message that only calls tools (null on the wire). */
  content: string;
  /** On an assistant message: the tool calls it made. */
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  /** On a tool message: the call it answers. */
  tool_call_id?: string;
}

/** One request the fake received. */
export interface FakeLlmRequest {
  /** Which vendor mount it came in on; null for a path outside every mount. */
  mount: FakeMount | null;
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The Authorization header as sent, or null. */
  authorization: string | null;
  /** The parsed JSON body (null when it was not JSON). */
  body: Record<string, unknown> | null;
  model: string | undefined;
  messages: FakeMessage[];
  stream: boolean;
  /** Names of the tools the request offered (`tools[].function.name`), [] when none. */
  tools: string[];
  /** True once the client closed the connection before the answer was complete. */
  closedByClient: boolean;
}

/** What the fake answers to one request. Every field is optional. */
export interface FakeReply {
  /** The answer text (default "This is the fake answer."). */
  text?: string;
  /** Answer this value as JSON text (structured output). */
  json?: unknown;
  /** Stream pieces; default: the text cut into words. */
  chunks?: string[];
  /** Usage to report; null leaves `usage` out (plain) or the usage chunk out (stream). */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** finish_reason of the answer (default "stop"). */
  finishReason?: string;
  /** A refusal instead of content (OpenAI structured outputs). */
  refusal?: string;
  /** Answer with this status and `errorBody` (JSON) or `rawBody` instead of a completion. */
  status?: number;
  errorBody?: unknown;
  /** A body sent as is (malformed answers). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (tests of timeouts). */
  delayMs?: number;
  /** Wait this long between stream chunks (slow streams). */
  chunkDelayMs?: number;
  /** Send an SSE error event after this many chunks instead of finishing the stream. */
  streamErrorAfter?: number;
  /**
   * Answer with these tool calls (OpenAI's `message.tool_calls`, finish_reason "tool_calls") instead
   * of text; `arguments` is sent JSON-encoded unless it is a string already (to test bad JSON).
   */
  toolCalls?: { name: string; arguments: unknown; id?: string }[];
}

export type FakeReplyFn = (request: FakeLlmRequest) => FakeReply | Promise<FakeReply>;

export interface FakeLlmOptions {
  /** Keys accepted as `Authorization: Bearer <key>`; default ["test-key"]; [] accepts anything (a keyless server). */
  keys?: string[];
  /** When set, any other model gets 404 model_not_found. */
  models?: string[];
  /** The 401 message echoes the key "masked" (as OpenAI does) or in "full" (to test scrubbing). */
  keyEcho?: "masked" | "full";
  reply?: FakeReplyFn;
}

export interface FakeLlm {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The base URL of a vendor mount (what SIPHON_<VENDOR>_BASE_URL is set to). */
  baseUrl(mount: FakeMount): string;
  /** SIPHON_OPENAI_BASE_URL, SIPHON_ANTHROPIC_BASE_URL and SIPHON_GOOGLE_BASE_URL for this fake. */
  env(): Record<string, string>;
  /** Every request received, in order. */
  requests: FakeLlmRequest[];
  /** What to answer; replace it per test. */
  reply: FakeReplyFn;
  /** Resolves once a request has been closed by its client (within `timeoutMs`). */
  waitForClientClose(timeoutMs?: number): Promise<FakeLlmRequest>;
  stop(): Promise<void>;
}

const DEFAULT_TEXT = "This is the fake answer.";

/** OpenAI-shaped error replies. */
export const fakeErrors = {
  badKey(key: string, echo: "masked" | "full" = "masked"): FakeReply {
    const shown = echo === "full" ? key : maskKey(key);
    return errorReply(401, {
      message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    });
  },
  forbidden(): FakeReply {
    return errorReply(403, {
      message: "Country, region, or territory not supported",
      type: "request_forbidden",
      param: null,
      code: "unsupported_country_region_territory",
    });
  },
  modelNotFound(model: string): FakeReply {
    return errorReply(404, {
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      type: "invalid_request_error",
      param: null,
      code: "model_not_found",
    });
  },
  rateLimited(retryAfterSeconds = 20): FakeReply {
    return {
      ...errorReply(429, {
        message: "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      }),
      headers: { "retry-after": String(retryAfterSeconds) },
    };
  },
  quota(): FakeReply {
    return errorReply(429, {
      message: "You exceeded your current quota, please check your plan and billing details.",
      type: "insufficient_quota",
      param: null,
      code: "insufficient_quota",
    });
  },
  serverError(status = 500): FakeReply {
    return errorReply(status, {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      param: null,
      code: null,
    });
  },
  /** A 200 that is not a chat completion (a proxy's HTML page). */
  malformed(): FakeReply {
    return {
      status: 200,
      rawBody: "<html><body>502 Bad Gateway</body></html>",
      headers: { "content-type": "text/html" },
    };
  },
};

function errorReply(status: number, error: Record<string, unknown>): FakeReply {
  return { status, errorBody: { error } };
}

/** How OpenAI shows a key in its 401: the first 3 and last 4 characters around asterisks. */
export function maskKey(key: string): string {
  if (key.length <= 8) return "*".repeat(key.length);
  return `${key.slice(0, 3)}${"*".repeat(Math.max(4, key.length - 7))}${key.slice(-4)}`;
}

/** A value that matches a (simple) JSON Schema: what the fake answers to json_schema requests. */
export function sampleFor(schema: unknown): unknown {
  if (!schema || typeof schema !== "object") return null;
  const s = schema as Record<string, unknown>;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[key])) return sampleFor(s[key][0]);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type ?? (s.properties ? "object" : undefined)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries((s.properties as Record<string, unknown>) ?? {})) {
        out[name] = sampleFor(child);
      }
      return out;
    }
    case "array": {
      const count = Math.max(1, Number(s.minItems ?? 1));
      return Array.from({ length: count }, () => sampleFor(s.items));
    }
    case "string":
      return "example";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return true;
    default:
      return null;
  }
}

function mountOf(path: string): { mount: FakeMount | null; rest: string } {
  for (const [mount, base] of Object.entries(FAKE_LLM_MOUNTS) as [FakeMount, string][]) {
    if (path === base || path.startsWith(`${base}/`)) return { mount, rest: path.slice(base.length) };
  }
  return { mount: null, rest: path };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": `req_${crypto.randomUUID()}`, ...headers },
  });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

function defaultUsage(): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return { prompt_tokens: 21, completion_tokens: 5, total_tokens: 26 };
}

/** Starts the fake; stop it with `stop()`. */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const keys = options.keys ?? ["test-key"];
  const requests: FakeLlmRequest[] = [];
  const closeWaiters: ((request: FakeLlmRequest) => void)[] = [];

  function markClosed(record: FakeLlmRequest): void {
    if (record.closedByClient) return;
    record.closedByClient = true;
    for (const waiter of closeWaiters.splice(0)) waiter(record);
  }

  const fake: FakeLlm = {
    origin: "",
    baseUrl: (mount) => `${fake.origin}${FAKE_LLM_MOUNTS[mount]}`,
    env: () => ({
      SIPHON_OPENAI_BASE_URL: fake.baseUrl("openai"),
      SIPHON_ANTHROPIC_BASE_URL: fake.baseUrl("anthropic"),
      SIPHON_GOOGLE_BASE_URL: fake.baseUrl("google"),
    }),
    requests,
    reply: options.reply ?? (() => ({})),
    waitForClientClose(timeoutMs = 3000) {
      const closed = requests.find((r) => r.closedByClient);
      if (closed) return Promise.resolve(closed);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no client closed its connection")), timeoutMs);
        closeWaiters.push((record) => {
          clearTimeout(timer);
          resolve(record);
        });
      });
    },
    async stop() {
      await server.stop(true);
    },
  };

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const { mount, rest } = mountOf(url.pathname);
    const text = await req.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const record: FakeLlmRequest = {
      mount,
      method: req.method,
      path: url.pathname,
      headers,
      authorization: req.headers.get("authorization"),
      body,
      model: typeof body?.model === "string" ? body.model : undefined,
      messages: Array.isArray(body?.messages)
        ? (body.messages as FakeMessage[]).map((m) => ({ ...m, content: m.content ?? "" }))
        : [],
      stream: body?.stream === true,
      tools: Array.isArray(body?.tools)
        ? (body.tools as { function?: { name?: string } }[]).map((t) => t.function?.name ?? "")
        : [],
      closedByClient: false,
    };
    requests.push(record);
    req.signal.addEventListener("abort", () => markClosed(record));

    if (!mount || rest !== "/chat/completions" || req.method !== "POST") {
      return json(404, {
        error: {
          message: `Invalid URL (${req.method} ${url.pathname})`,
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      });
    }
    const key = record.authorization?.replace(/^Bearer\s+/i, "") ?? "";
    if (keys.length > 0 && !keys.includes(key)) {
      return send(fakeErrors.badKey(key, options.keyEcho), record, req);
    }
    if (options.models && record.model && !options.models.includes(record.model)) {
      return send(fakeErrors.modelNotFound(record.model), record, req);
    }
    return send(await fake.reply(record), record, req);
  }

  async function send(reply: FakeReply, record: FakeLlmRequest, req: Request): Promise<Response> {
    if (reply.delayMs) await sleep(reply.delayMs, req.signal);
    if (reply.rawBody !== undefined) {
      return new Response(reply.rawBody, { status: reply.status ?? 200, headers: reply.headers });
    }
    if (reply.status && reply.status !== 200) return json(reply.status, reply.errorBody ?? {}, reply.headers);

    const format = record.body?.response_format as
      | { type?: string; json_schema?: { schema?: unknown } }
      | undefined;
    const content =
      reply.json !== undefined
        ? JSON.stringify(reply.json)
        : reply.text !== undefined
          ? reply.text
          : format?.type === "json_schema"
            ? JSON.stringify(sampleFor(format.json_schema?.schema))
            : DEFAULT_TEXT;
    const usage = reply.usage === null ? null : { ...defaultUsage(), ...reply.usage };
    if (usage && reply.usage) usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = `chatcmpl-${crypto.randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const model = record.model ?? "unknown";

    if (!record.stream) {
      const completion: Record<string, unknown> = {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: reply.toolCalls
              ? {
                  role: "assistant",
                  content: null,
                  refusal: null,
                  tool_calls: reply.toolCalls.map((call, index) => ({
                    id: call.id ?? `call_${index}_${crypto.randomUUID().slice(0, 8)}`,
                    type: "function",
                    function: {
                      name: call.name,
                      arguments:
                        typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
                    },
                  })),
                }
              : reply.refusal
                ? { role: "assistant", content: null, refusal: reply.refusal }
                : { role: "assistant", content, refusal: null },
            logprobs: null,
            finish_reason: reply.finishReason ?? (reply.toolCalls ? "tool_calls" : "stop"),
          },
        ],
      };
      if (usage) completion.usage = usage;
      return json(200, completion, reply.headers);
    }

    const includeUsage = (record.body?.stream_options as { include_usage?: boolean } | undefined)
      ?.include_usage;
    const pieces = reply.chunks ?? content.match(/\S+\s*/g) ?? [content];
    const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      frame({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      });
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const write = (text: string) => {
          if (record.closedByClient) return false;
          try {
            controller.enqueue(encoder.encode(text));
            return true;
          } catch {
            markClosed(record);
            return false;
          }
        };
        if (!write(chunk({ role: "assistant", content: "" }, null))) return;
        for (const [index, piece] of pieces.entries()) {
          if (reply.streamErrorAfter !== undefined && index === reply.streamErrorAfter) {
            write(
              frame({
                error: {
                  message: "The server had an error while streaming.",
                  type: "server_error",
                  param: null,
                  code: null,
                },
              }),
            );
            controller.close();
            return;
          }
          if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs, req.signal);
          if (!write(chunk({ content: piece }, null))) return;
        }
        write(chunk({}, reply.finishReason ?? "stop"));
        if (includeUsage && usage) {
          write(frame({ id, object: "chat.completion.chunk", created, model, choices: [], usage }));
        }
        write("data: [DONE]\n\n");
        try {
          controller.close();
        } catch {
          // Closed by the client already.
        }
      },
      cancel() {
        markClosed(record);
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...reply.headers },
    });
  }

  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle, idleTimeout: 60 });
  fake.origin = `http://127.0.0.1:${server.port}`;
  return fake;
}

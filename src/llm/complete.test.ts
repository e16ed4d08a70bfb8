import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { FAKE_LLM_MOUNTS, type FakeLlm, fakeErrors, startFakeLlm } from "../../test/helpers/fake-llm.ts";
import { type Config, loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { complete, completeStream } from "./complete.ts";
import { LLM_PROVIDER_NAMES, type LlmProviderName } from "./providers.ts";
import type { LlmDeps } from "./types.ts";

const KEY = "sk-test-0123456789abcdefSECRET";
const messages = [
  { role: "system" as const, content: "Answer briefly." },
  { role: "user" as const, content: "How does a tide mill work?" },
];

let fake: FakeLlm;
let config: Config;
let logs: string[];

function configWith(env: Record<string, string> = {}): Config {
  return loadConfig({ ...fake.env(), ...env }, { home: "/nonexistent/siphon-llm-test" });
}

function deps(extra: Partial<LlmDeps> = {}): LlmDeps {
  return { config, log: (line) => logs.push(line), ...extra };
}

async function failure(promise: Promise<unknown>): Promise<SiphonError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected a SiphonError");
}

/** The key must not be anywhere a person or a log could see it. */
function expectNoKey(error: SiphonError): void {
  for (const text of [error.message, error.hint ?? "", JSON.stringify(error), ...logs]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, 8));
    expect(text).not.toContain(KEY.slice(-6));
  }
  expect(error.cause).toBeUndefined();
}

beforeAll(async () => {
  fake = await startFakeLlm({ keys: [KEY] });
  config = configWith();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.reply = () => ({});
  logs = [];
});

const DEFAULT_MODELS: Record<LlmProviderName, string> = {
  openai: "gpt-6-luna",
  anthropic: "claude-haiku-5-5",
  google: "gemini-3.8-flash",
};

describe.each(LLM_PROVIDER_NAMES)("%s", (provider) => {
  test("hits its own base URL with its default model and the caller's key", async () => {
    const result = await complete({ llm: { provider, apiKey: KEY }, messages }, deps());
    expect(result.text).toBe("This is the fake answer.");
    expect(result.provider).toBe(provider);
    expect(result.model).toBe(DEFAULT_MODELS[provider]);
    const [request] = fake.requests;
    expect(request!.mount).toBe(provider);
    expect(request!.path).toBe(`${FAKE_LLM_MOUNTS[provider]}/chat/completions`);
    expect(request!.model).toBe(DEFAULT_MODELS[provider]);
    expect(request!.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.messages).toEqual(messages);
    expect(request!.stream).toBe(false);
  });

  test("takes a model per request", async () => {
    const result = await complete({ llm: { provider, apiKey: KEY, model: "my-model-7b" }, messages }, deps());
    expect(result.model).toBe("my-model-7b");
    expect(fake.requests[0]!.model).toBe("my-model-7b");
    expect(fake.requests[0]!.mount).toBe(provider);
  });

  test("takes a base URL per request (llmApiBase), for any OpenAI-compatible server", async () => {
    const other = fake.baseUrl(provider === "openai" ? "google" : "openai");
    // Loopback is where a local Ollama listens; trusted here as siphon on one's own machine would be.
    await complete(
      { llm: { provider, apiKey: KEY, apiBase: `${other}/` }, messages },
      deps({ apiBasePolicy: "trust" }),
    );
    const last = fake.requests.at(-1)!;
    expect(last.mount).toBe(provider === "openai" ? "google" : "openai");
    expect(last.model).toBe(DEFAULT_MODELS[provider]);
  });

  test("names the provider in errors", async () => {
    fake.reply = () => fakeErrors.serverError(503);
    const error = await failure(complete({ llm: { provider, apiKey: KEY }, messages }, deps()));
    expect(error.type).toBe("answer_failed");
    expect(error.message).toStartWith(`${provider} failed with HTTP 503`);
  });
});

describe("plain completion", () => {
  test("returns the usage the API reports", async () => {
    fake.reply = () => ({
      text: "Water turns a wheel.",
      usage: { prompt_tokens: 120, completion_tokens: 9 },
    });
    const result = await complete({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    expect(result.text).toBe("Water turns a wheel.");
    expect(result.usage).toEqual({ input: 120, output: 9, estimated: false });
    expect(result.finishReason).toBe("stop");
  });

  test("estimates usage at four characters a token when the server reports none", async () => {
    fake.reply = () => ({ text: "12345678", usage: null });
    const result = await complete({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    const input = Math.ceil(messages[0]!.content.length / 4) + Math.ceil(messages[1]!.content.length / 4);
    expect(result.usage).toEqual({ input, output: 2, estimated: true });
  });

  test("sends max_completion_tokens and temperature only when asked", async () => {
    await complete({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    expect(fake.requests[0]!.body).not.toHaveProperty("temperature");
    expect(fake.requests[0]!.body).not.toHaveProperty("max_completion_tokens");
    await complete(
      { llm: { provider: "openai", apiKey: KEY }, messages, maxTokens: 50, temperature: 0.2 },
      deps(),
    );
    expect(fake.requests[1]!.body).toMatchObject({ max_completion_tokens: 50, temperature: 0.2 });
  });

  test("refuses an empty conversation before calling anyone", async () => {
    const error = await failure(complete({ llm: { provider: "openai", apiKey: KEY }, messages: [] }, deps()));
    expect(error.type).toBe("invalid_request");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("streamed completion", () => {
  test("yields the text in chunks and the API's usage at the end", async () => {
    fake.reply = () => ({
      chunks: ["Tide ", "mills ", "grind."],
      usage: { prompt_tokens: 30, completion_tokens: 3 },
    });
    const stream = await completeStream({ llm: { provider: "anthropic", apiKey: KEY }, messages }, deps());
    const pieces: string[] = [];
    for await (const piece of stream) pieces.push(piece);
    expect(pieces).toEqual(["Tide ", "mills ", "grind."]);
    const result = await stream.done;
    expect(result).toMatchObject({ text: "Tide mills grind.", provider: "anthropic", finishReason: "stop" });
    expect(result.usage).toEqual({ input: 30, output: 3, estimated: false });
    const request = fake.requests[0]!;
    expect(request.stream).toBe(true);
    expect(request.body?.stream_options).toEqual({ include_usage: true });
    expect(request.mount).toBe("anthropic");
  });

  test("estimates usage when the stream carries no usage chunk", async () => {
    fake.reply = () => ({ chunks: ["abcd", "efgh"], usage: null });
    const stream = await completeStream({ llm: { provider: "google", apiKey: KEY }, messages }, deps());
    for await (const _ of stream) {
      // drain
    }
    const { usage } = await stream.done;
    expect(usage.estimated).toBe(true);
    expect(usage.output).toBe(2);
  });

  test("throws a bad key before the stream starts, so a route can still answer with an HTTP error", async () => {
    const error = await failure(
      completeStream({ llm: { provider: "openai", apiKey: "sk-wrong-key-1234567890" }, messages }, deps()),
    );
    expect(error.type).toBe("invalid_request");
    expect(error.message).toBe("openai rejected the API key (401); check llmApiKey");
  });

  test("an error event in the middle of the stream ends the iteration with answer_failed", async () => {
    fake.reply = () => ({ chunks: ["one ", "two ", "three"], streamErrorAfter: 2 });
    const stream = await completeStream({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    const pieces: string[] = [];
    const error = await failure(
      (async () => {
        for await (const piece of stream) pieces.push(piece);
      })(),
    );
    expect(pieces).toEqual(["one ", "two "]);
    expect(error.type).toBe("answer_failed");
    expect(error.message).toContain("openai stopped answering with an error");
    expect(await failure(stream.done)).toBe(error);
  });

  test("leaving the loop early closes the upstream connection", async () => {
    fake.reply = () => ({ chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), chunkDelayMs: 30 });
    const stream = await completeStream({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    let seen = 0;
    for await (const _ of stream) {
      if (++seen === 2) break;
    }
    const closed = await fake.waitForClientClose(2000);
    expect(closed.stream).toBe(true);
    await expect(stream.done).rejects.toThrow(/closed before it ended/);
  });

  test("the caller's AbortSignal (a client that disconnected) closes the upstream connection", async () => {
    fake.reply = () => ({ chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), chunkDelayMs: 30 });
    const controller = new AbortController();
    const stream = await completeStream(
      { llm: { provider: "google", apiKey: KEY }, messages },
      deps({ signal: controller.signal }),
    );
    const reason = new DOMException("client went away", "AbortError");
    let seen = 0;
    const thrown = await (async () => {
      try {
        for await (const _ of stream) {
          if (++seen === 1) controller.abort(reason);
        }
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBe(reason);
    await fake.waitForClientClose(2000);
    expect(fake.requests[0]!.closedByClient).toBe(true);
  });

  test("abort() before iterating closes the upstream connection", async () => {
    fake.reply = () => ({ chunks: ["a ", "b "], chunkDelayMs: 500 });
    const stream = await completeStream({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    stream.abort();
    await fake.waitForClientClose(2000);
    await expect(stream.done).rejects.toThrow(/aborted/);
  });
});

describe("timeouts", () => {
  test("a server that does not answer within SIPHON_LLM_TIMEOUT_MS is a timeout naming the provider", async () => {
    fake.reply = () => ({ delayMs: 3000 });
    const started = Date.now();
    const error = await failure(
      complete(
        { llm: { provider: "anthropic", apiKey: KEY }, messages },
        deps({ config: configWith({ SIPHON_LLM_TIMEOUT_MS: "200" }) }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.type).toBe("timeout");
    expect(error.message).toBe('anthropic did not finish answering within 200 ms (model "claude-haiku-5-5")');
    expect(error.hint).toContain("SIPHON_LLM_TIMEOUT_MS");
  });

  test("the timeout covers the whole stream, not only its start", async () => {
    fake.reply = () => ({ chunks: ["a ", "b ", "c ", "d "], chunkDelayMs: 150 });
    const stream = await completeStream(
      { llm: { provider: "openai", apiKey: KEY }, messages },
      deps({ config: configWith({ SIPHON_LLM_TIMEOUT_MS: "250" }) }),
    );
    const error = await failure(
      (async () => {
        for await (const _ of stream) {
          // drain
        }
      })(),
    );
    expect(error.type).toBe("timeout");
    await fake.waitForClientClose(2000);
  });
});

describe("vendor failures", () => {
  const call = (provider: LlmProviderName = "openai", extra: { apiKey?: string; model?: string } = {}) =>
    failure(complete({ llm: { provider, apiKey: KEY, ...extra }, messages }, deps()));

  test("401: names the provider, says to check llmApiKey, and never shows the key", async () => {
    const error = await failure(
      complete({ llm: { provider: "google", apiKey: `${KEY}x` }, messages }, deps()),
    );
    expect(error.type).toBe("invalid_request");
    expect(error.status).toBe(400);
    expect(error.message).toBe("google rejected the API key (401); check llmApiKey");
    expectNoKey(error);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("llm google");
  });

  test("401 whose message echoes the whole key: the key is scrubbed from message and log", async () => {
    const echoing = await startFakeLlm({ keys: ["other"], keyEcho: "full" });
    try {
      fake.reply = () => ({});
      const error = await failure(
        complete(
          { llm: { provider: "openai", apiKey: KEY, apiBase: echoing.baseUrl("openai") }, messages },
          deps({ apiBasePolicy: "trust" }),
        ),
      );
      expect(error.message).toContain("openai rejected the API key");
      expectNoKey(error);
    } finally {
      await echoing.stop();
    }
  });

  test("vendor text that quotes the key (4xx, 5xx, a malformed answer) is scrubbed", async () => {
    const replies = [
      () => ({
        status: 400,
        errorBody: { error: { message: `Invalid header value Bearer ${KEY}`, type: "x" } },
      }),
      () => ({ status: 502, errorBody: { error: { message: `upstream saw key=${KEY}` } } }),
    ];
    for (const reply of replies) {
      fake.reply = reply;
      const error = await call("openai");
      expect(error.message).toContain("[redacted]");
      expectNoKey(error);
    }
  });

  test("a body that is not an LLM's answer is never quoted (200 text, error pages, other JSON)", async () => {
    const replies = [
      () => ({
        status: 200,
        rawBody: `<html><body>Qzv-internal-page ${KEY}</body></html>`,
        headers: { "content-type": "text/html" },
      }),
      () => ({ status: 200, rawBody: "Qzv-internal-page", headers: { "content-type": "text/plain" } }),
      () => ({
        status: 500,
        rawBody: "<html><body>Qzv-internal-page stack trace</body></html>",
        headers: { "content-type": "text/html" },
      }),
      () => ({ status: 400, errorBody: { detail: "Qzv-internal-page config dump" } }),
    ];
    for (const reply of replies) {
      fake.reply = reply as typeof fake.reply;
      const error = await call("openai");
      expect(error.message).not.toContain("Qzv-internal-page");
      expect(error.hint ?? "").not.toContain("Qzv-internal-page");
      expectNoKey(error);
    }
  });

  test("403: names the provider and what the vendor said", async () => {
    fake.reply = () => fakeErrors.forbidden();
    const error = await call("anthropic");
    expect(error.type).toBe("invalid_request");
    expect(error.message).toContain(
      "anthropic refused the request (403): Country, region, or territory not supported",
    );
    expectNoKey(error);
  });

  test("404 model_not_found: says which model and to check llmModel", async () => {
    fake.reply = (request) => fakeErrors.modelNotFound(request.model!);
    const error = await call("openai", { model: "gpt-nope" });
    expect(error.type).toBe("invalid_request");
    expect(error.message).toBe('openai does not know model "gpt-nope" (404); check llmModel');
    expectNoKey(error);
  });

  test("404 at a wrong base URL: says to check llmApiBase", async () => {
    const error = await failure(
      complete(
        { llm: { provider: "openai", apiKey: KEY, apiBase: `${fake.origin}/wrong` }, messages },
        deps({ apiBasePolicy: "trust" }),
      ),
    );
    expect(error.type).toBe("invalid_request");
    expect(error.message).toContain(
      `openai has no chat completions endpoint at ${fake.origin}/wrong/chat/completions (404)`,
    );
    expect(error.message).toContain("check llmApiBase");
  });

  test("429 rate limit: rate_limited with the vendor's Retry-After", async () => {
    fake.reply = () => fakeErrors.rateLimited(17);
    const error = await call("google");
    expect(error.type).toBe("rate_limited");
    expect(error.status).toBe(429);
    expect(error.message).toStartWith("google rate-limited the request (429)");
    expect(error.message).toContain("wait 17 s and retry");
    expect(error.headers["Retry-After"]).toBe("17");
    expectNoKey(error);
  });

  test("429 quota: says to check the key's plan and billing", async () => {
    fake.reply = () => fakeErrors.quota();
    const error = await call("openai");
    expect(error.type).toBe("rate_limited");
    expect(error.message).toStartWith("openai says the key's quota is used up (429)");
    expect(error.message).toContain("check the plan and billing of llmApiKey");
  });

  test("5xx: answer_failed, retry later", async () => {
    fake.reply = () => fakeErrors.serverError(500);
    const error = await call("anthropic");
    expect(error.type).toBe("answer_failed");
    expect(error.message).toContain("anthropic failed with HTTP 500");
    expect(error.message).toContain("retry later");
    expectNoKey(error);
  });

  test("an answer that is not a chat completion: answer_failed naming the base URL", async () => {
    fake.reply = () => fakeErrors.malformed();
    const error = await call("google");
    expect(error.type).toBe("answer_failed");
    expect(error.message).toContain(`google at ${fake.baseUrl("google")} sent an answer siphon cannot read`);
    expect(error.message).toContain("SIPHON_GOOGLE_BASE_URL");
    expectNoKey(error);
  });

  test("JSON without choices: answer_failed", async () => {
    fake.reply = () => ({
      status: 200,
      rawBody: JSON.stringify({ hello: "world" }),
      headers: { "content-type": "application/json" },
    });
    const error = await call("openai");
    expect(error.type).toBe("answer_failed");
    expect(error.message).toContain("no choices[0].message");
  });

  test("nothing listening: network_error naming the provider and the base URL setting", async () => {
    const closed = await startFakeLlm();
    const base = closed.baseUrl("anthropic");
    await closed.stop();
    const error = await failure(
      complete(
        { llm: { provider: "anthropic", apiKey: KEY }, messages },
        deps({ config: configWith({ SIPHON_ANTHROPIC_BASE_URL: base }) }),
      ),
    );
    expect(error.type).toBe("network_error");
    expect(error.message).toStartWith(`Could not reach anthropic at ${base}`);
    expect(error.message).toContain("SIPHON_ANTHROPIC_BASE_URL");
    expectNoKey(error);
  });

  test("a refusal is answer_failed with the vendor's words", async () => {
    fake.reply = () => ({ refusal: "I can't help with that." });
    const error = await call("openai");
    expect(error.type).toBe("answer_failed");
    expect(error.message).toBe("openai declined to answer: I can't help with that.");
  });
});

describe("keys and base URLs", () => {
  test("a keyless local server gets a placeholder key (the SDK needs one)", async () => {
    const keyless = await startFakeLlm({ keys: [] });
    try {
      const result = await complete(
        { llm: { provider: "openai", apiBase: keyless.baseUrl("openai"), model: "llama3.2" }, messages },
        deps({ apiBasePolicy: "trust" }),
      );
      expect(result.text).toBe("This is the fake answer.");
      expect(keyless.requests[0]!.authorization).toBe("Bearer siphon-no-key");
      expect(keyless.requests[0]!.model).toBe("llama3.2");
    } finally {
      await keyless.stop();
    }
  });

  test("llmApiBase is held to the SSRF rules unless trusted", async () => {
    const error = await failure(
      complete(
        { llm: { provider: "openai", apiKey: KEY, apiBase: fake.baseUrl("openai") }, messages },
        deps(),
      ),
    );
    expect(error.type).toBe("forbidden_url");
    expect(error.message).toStartWith(`llmApiBase ${fake.baseUrl("openai")}:`);
    expect(fake.requests).toHaveLength(0);

    const port = new URL(fake.origin).port;
    const allowed = configWith({ SIPHON_SSRF_ALLOW: `127.0.0.1:${port}` });
    await complete(
      { llm: { provider: "openai", apiKey: KEY, apiBase: fake.baseUrl("openai") }, messages },
      deps({ config: allowed }),
    );
    expect(fake.requests).toHaveLength(1);
  });

  test("the configured base URLs are trusted: the operator chose them", async () => {
    await complete({ llm: { provider: "openai", apiKey: KEY }, messages }, deps());
    expect(fake.requests).toHaveLength(1);
  });

  test("the SDK reads nothing from OPENAI_* environment variables", async () => {
    const leaks = {
      OPENAI_ORG_ID: "org-leak",
      OPENAI_PROJECT_ID: "proj-leak",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    };
    Object.assign(process.env, leaks);
    try {
      await complete({ llm: { provider: "anthropic", apiKey: KEY }, messages }, deps());
    } finally {
      for (const name of Object.keys(leaks)) delete process.env[name];
    }
    const headers = fake.requests[0]!.headers;
    expect(headers["openai-organization"]).toBeUndefined();
    expect(headers["openai-project"]).toBeUndefined();
    expect(fake.requests[0]!.mount).toBe("anthropic");
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type FakeLlm, maskKey, sampleFor, startFakeLlm } from "./fake-llm.ts";

let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm({ keys: ["k1"], models: ["m1"] });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.reply = () => ({});
});

function post(path: string, body: unknown, key = "k1") {
  return fetch(`${fake.origin}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("the fake OpenAI-compatible server speaks the wire format", () => {
  test("a plain completion: chat.completion with choices[0].message and usage", async () => {
    fake.reply = () => ({ text: "hi there", usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const response = await post("/google/v1beta/openai/chat/completions", {
      model: "m1",
      messages: [{ role: "user", content: "x" }],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "m1",
      choices: [{ index: 0, message: { role: "assistant", content: "hi there" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(fake.requests[0]).toMatchObject({
      mount: "google",
      authorization: "Bearer k1",
      model: "m1",
      stream: false,
    });
  });

  test("a stream: data: lines of chat.completion.chunk, a usage chunk when asked, then [DONE]", async () => {
    fake.reply = () => ({ chunks: ["a", "b"] });
    const response = await post("/anthropic/v1/chat/completions", {
      model: "m1",
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const lines = (await response.text()).split("\n\n").filter(Boolean);
    expect(lines.every((line) => line.startsWith("data: "))).toBe(true);
    expect(lines.at(-1)).toBe("data: [DONE]");
    const events = lines.slice(0, -1).map((line) => JSON.parse(line.slice(6)));
    expect(events.map((e) => e.object)).toEqual(Array(5).fill("chat.completion.chunk"));
    expect(events.map((e) => e.choices[0]?.delta?.content ?? null)).toEqual(["", "a", "b", null, null]);
    expect(events[3].choices[0].finish_reason).toBe("stop");
    expect(events[4]).toMatchObject({ choices: [], usage: { prompt_tokens: 21, completion_tokens: 5 } });
  });

  test("no usage chunk unless stream_options.include_usage is set", async () => {
    const response = await post("/openai/v1/chat/completions", { model: "m1", messages: [], stream: true });
    expect(await response.text()).not.toContain('"usage"');
  });

  test("a bad key: 401 with OpenAI's error object, the key masked", async () => {
    const response = await post(
      "/openai/v1/chat/completions",
      { model: "m1", messages: [] },
      "sk-wrong-1234567890",
    );
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key", param: null });
    expect(body.error.message).toContain(maskKey("sk-wrong-1234567890"));
    expect(body.error.message).not.toContain("sk-wrong-1234567890");
  });

  test("an unknown model: 404 model_not_found; an unknown path: 404 Invalid URL", async () => {
    const model = await post("/openai/v1/chat/completions", { model: "m2", messages: [] });
    expect(model.status).toBe(404);
    expect((await model.json()).error.code).toBe("model_not_found");
    const path = await post("/openai/v2/chat/completions", { model: "m1", messages: [] });
    expect(path.status).toBe(404);
    expect((await path.json()).error.message).toBe("Invalid URL (POST /openai/v2/chat/completions)");
  });

  test("sampleFor makes values that match simple schemas", () => {
    expect(
      sampleFor({
        type: "object",
        properties: { a: { type: "array", items: { type: "number" }, minItems: 2 }, b: { enum: ["x", "y"] } },
      }),
    ).toEqual({ a: [1, 1], b: "x" });
  });
});

import { describe, expect, test } from "bun:test";
import { createSealer, keyFromText, mapWebhook, openInput, randomKey, sealInput } from "./sealing.ts";

const input = () => ({
  urls: ["https://a.example/"],
  llmApiKey: "sk-top-secret-1234",
  scrapeOptions: { formats: ["markdown"], llmApiKey: "sk-page-secret-5678" },
  extract: { schema: { properties: { llmApiKey: { type: "string" } } } },
});

describe("sealing a job's secrets", () => {
  test("sealed input holds no key, opens back to the same input, and leaves the caller's object alone", () => {
    const sealer = createSealer(randomKey());
    const original = input();
    const sealed = sealInput(original, sealer);
    expect(JSON.stringify(sealed)).not.toContain("secret");
    expect((sealed as { llmApiKey: string }).llmApiKey).toStartWith("sealed:v1:");
    expect(original).toEqual(input());
    expect(openInput(sealed, sealer)).toEqual({ input: input(), lost: false });
  });

  test("the same key sealed twice gives two different texts (a fresh IV each time)", () => {
    const sealer = createSealer(randomKey());
    expect(sealer.seal("sk-x")).not.toBe(sealer.seal("sk-x"));
  });

  test("another key cannot open it: the secret is lost, never guessed", () => {
    const sealed = sealInput(input(), createSealer(randomKey()));
    const { input: opened, lost } = openInput(sealed, createSealer(randomKey()));
    expect(lost).toBe(true);
    expect(opened).toEqual({
      urls: ["https://a.example/"],
      scrapeOptions: { formats: ["markdown"] },
      extract: { schema: { properties: { llmApiKey: { type: "string" } } } },
    });
  });

  test("a damaged sealed text is lost; a plain one (stored before sealing existed) opens as it is", () => {
    const sealer = createSealer(randomKey());
    const sealed = sealer.seal("sk-x");
    expect(sealer.open(`${sealed.slice(0, -4)}AAAA`)).toBeNull();
    expect(sealer.open("sealed:v1:")).toBeNull();
    expect(sealer.open("sk-plain")).toBe("sk-plain");
  });

  test("SIPHON_JOB_SECRET_KEY: two processes with the same setting open each other's secrets", () => {
    const a = createSealer(keyFromText("a passphrase the operator chose"));
    const b = createSealer(keyFromText("a passphrase the operator chose"));
    expect(b.open(a.seal("sk-shared"))).toBe("sk-shared");
  });

  test("a webhook's secret and header values are sealed and opened; its URL and events are not", () => {
    const sealer = createSealer(randomKey());
    const hook = {
      url: "https://h.example/x",
      events: ["completed"],
      secret: "whsec",
      headers: { "x-token": "t0k" },
    };
    const sealed = mapWebhook(hook, (value) => sealer.seal(value)) as typeof hook;
    expect(sealed.url).toBe(hook.url);
    expect(sealed.events).toEqual(["completed"]);
    expect(sealed.secret).toStartWith("sealed:v1:");
    expect(sealed.headers["x-token"]).toStartWith("sealed:v1:");
    expect(mapWebhook(sealed, (value) => sealer.open(value))).toEqual(hook);
    const elsewhere = createSealer(randomKey());
    expect(mapWebhook(sealed, (value) => elsewhere.open(value))).toEqual({
      url: hook.url,
      events: ["completed"],
      headers: {},
    });
  });

  test("a sealer that adopts a new key seals with it and still opens what its earlier keys sealed", () => {
    const first = randomKey();
    const second = randomKey();
    const sealer = createSealer(first);
    const before = sealer.seal("sk-before");
    sealer.adopt(second);
    const after = sealer.seal("sk-after");
    expect(sealer.open(before)).toBe("sk-before");
    expect(sealer.open(after)).toBe("sk-after");
    expect(createSealer(second).open(after)).toBe("sk-after");
    expect(createSealer(second).open(before)).toBeNull();
    sealer.adopt(first);
    expect(createSealer(first).open(sealer.seal("sk-again"))).toBe("sk-again");
  });
});

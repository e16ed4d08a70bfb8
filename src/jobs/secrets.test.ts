import { describe, expect, test } from "bun:test";
import { scrubSecrets, secretsOf, withoutSecrets } from "./secrets.ts";

/** A fresh input each time, so no test sees what another did to one. */
const input = () => ({
  urls: ["https://a.example/"],
  llmProvider: "openai",
  llmApiKey: "sk-top",
  searchApiKey: "brave-key",
  scrapeOptions: { formats: ["markdown"], llmApiKey: "sk-page" },
  extract: { schema: { properties: { llmApiKey: { type: "string" } } } },
});

describe("a job's secrets", () => {
  test("withoutSecrets erases the LLM and search keys, at the top and in scrapeOptions, and nothing else", () => {
    expect(withoutSecrets(input())).toEqual({
      urls: ["https://a.example/"],
      llmProvider: "openai",
      scrapeOptions: { formats: ["markdown"] },
      // A schema property that happens to be called llmApiKey is the caller's data, not a secret.
      extract: { schema: { properties: { llmApiKey: { type: "string" } } } },
    });
  });

  test("the input given is left as it was; inputs without secrets or objects pass through", () => {
    const given = input();
    withoutSecrets(given);
    expect(given).toEqual(input());
    expect(withoutSecrets({ url: "u", scrapeOptions: null })).toEqual({ url: "u", scrapeOptions: null });
    expect(withoutSecrets(null)).toBeNull();
    expect(withoutSecrets(["x"])).toEqual(["x"]);
  });

  test("the per-page key of a job another surface started (surface.pages.fetch) is a secret too", () => {
    const surfaced = {
      url: "u",
      surface: { name: "firecrawl", pages: { fetch: { llmApiKey: "sk-fc", wait: 0 } } },
    };
    expect(withoutSecrets(surfaced)).toEqual({
      url: "u",
      surface: { name: "firecrawl", pages: { fetch: { wait: 0 } } },
    });
    expect(secretsOf(surfaced)).toEqual(["sk-fc"]);
    expect(surfaced.surface.pages.fetch.llmApiKey).toBe("sk-fc");
  });

  test("secretsOf finds every key; scrubSecrets replaces each in a message", () => {
    expect(secretsOf(input()).sort()).toEqual(["brave-key", "sk-page", "sk-top"]);
    const message = scrubSecrets("bad key sk-top, also sk-page and brave-key", input());
    for (const secret of secretsOf(input())) expect(message).not.toContain(secret);
    expect(message).toStartWith("bad key ");
  });
});

import { describe, expect, test } from "bun:test";
import { FetchBody } from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import { curlCommand, demoCurlCommand, fetchBodyOf, shellQuote, siphonCommand } from "./commands.ts";

const input = (body: Record<string, unknown>) => validate(FetchBody, body);
const local = { origin: "http://127.0.0.1:3000", keyNeeded: false };
const hosted = { origin: "https://api.example.com", keyNeeded: true };

describe("the playground's equivalent commands", () => {
  test("only the options that differ from the defaults are sent", () => {
    expect(fetchBodyOf(input({ url: "https://example.com/" }))).toEqual({ url: "https://example.com/" });
    expect(
      fetchBodyOf(
        input({ url: "https://e.com/", onlyMainContent: true, wait: 500, includeTags: ["article"] }),
      ),
    ).toEqual({ url: "https://e.com/", onlyMainContent: true, wait: 500, includeTags: ["article"] });
  });

  test("curl: the key from the environment only where the server needs one", () => {
    const fetch = input({ url: "https://example.com/a?b=1&c=2", render: true });
    expect(curlCommand(fetch, local)).toBe(
      `curl -s http://127.0.0.1:3000/v1/fetch -d '{"url":"https://example.com/a?b=1&c=2","render":true}'`,
    );
    expect(curlCommand(fetch, hosted)).toBe(
      `curl -s https://api.example.com/v1/fetch -H "Authorization: Bearer $SIPHON_API_KEY" -d '{"url":"https://example.com/a?b=1&c=2","render":true}'`,
    );
  });

  test("siphon: the same options as flags, and the server to call when it needs a key", () => {
    const fetch = input({
      url: "https://example.com/it's",
      onlyMainContent: true,
      stealth: true,
      excludeTags: [".ads", "nav"],
      maxAge: 0,
      storeInCache: false,
      location: "de",
    });
    expect(siphonCommand(fetch, local)).toBe(
      `siphon fetch 'https://example.com/it'\\''s' --only-main-content --stealth --exclude-tags .ads,nav --location de --no-cache`,
    );
    expect(siphonCommand(input({ url: "https://e.com/" }), hosted)).toBe(
      "siphon fetch https://e.com/ --api-url https://api.example.com",
    );
  });

  test("quoting survives whatever a URL or selector holds", () => {
    expect(shellQuote("plain-word_1.2/x")).toBe("plain-word_1.2/x");
    expect(shellQuote("$(rm -rf ~)")).toBe("'$(rm -rf ~)'");
    expect(shellQuote("a'b")).toBe("'a'\\''b'");
    expect(demoCurlCommand("http://localhost:3000")).toBe(
      `curl -s http://localhost:3000/v1/demo -d '{"kind":"fetch"}'`,
    );
  });
});

import { describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { FetchBody } from "./fetch.ts";
import { validate } from "./validate.ts";

const URL = "https://example.com/a";

/** The message validate throws for `body`, or undefined when it accepts it. */
function refusal(schema: typeof FetchBody, body: unknown): string | undefined {
  try {
    validate(schema, body);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SiphonError);
    return (error as SiphonError).message;
  }
}

describe("validate", () => {
  test("a schema's first check and its compiled checks refuse the same bodies with the same message", () => {
    const bad: unknown[] = [
      {},
      { url: 5 },
      { url: URL, timeout: 5 },
      { url: URL, format: "pdf" },
      { url: URL, bogus: 1 },
      { url: URL, maxAge: -1 },
      { url: URL, onlyMainContent: "yes" },
      { url: URL, includeTags: "p" },
    ];
    for (const body of bad) {
      // A schema of its own each time, so that the first check is this one.
      const schema = { ...FetchBody };
      const first = refusal(schema, body);
      expect(first).toBeString();
      expect(refusal(schema, body)).toBe(first as string);
      expect(refusal(schema, body)).toBe(first as string);
    }
  });

  test("a good body passes the first check and the compiled ones, defaults applied alike", () => {
    const schema = { ...FetchBody };
    const first = validate(schema, { url: URL });
    const second = validate(schema, { url: URL });
    expect(first.url).toBe(URL);
    expect(second).toEqual(first);
  });
});

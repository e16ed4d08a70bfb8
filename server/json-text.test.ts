import { describe, expect, test } from "bun:test";
import { templatedJson } from "./json-text.ts";

const text = (body: string | Uint8Array) =>
  typeof body === "string" ? body : new TextDecoder().decode(body);

/** A fetch result's shape: strings with characters JSON escapes, nested objects, a number that varies. */
function result(elapsed: number) {
  return {
    url: "https://example.com/a",
    title: 'Quotes "and" \\ backslashes',
    content: "Line one\nLine two\t— accents é and emoji 🦊 and a \u0001 control",
    metadata: { description: null, author: "Ann" },
    links: ["https://example.com/b"],
    elapsed,
    contentType: "html",
    optional: undefined,
    quality: 0.5,
  };
}

describe("templatedJson", () => {
  test("gives JSON.stringify's bytes, the first time and from the kept text, whatever the number", () => {
    const base = result(0);
    for (const elapsed of [0, 0, 0, 7, 7, 0, 123456, 1.5, 0]) {
      const body = { ...base, elapsed };
      expect(text(templatedJson(body, "elapsed", base.links).body)).toBe(JSON.stringify(body));
    }
  });

  test("another value in any field, another order or a missing field is serialised in full", () => {
    const base = result(0);
    const anchor = base.links;
    for (let i = 0; i < 3; i++) templatedJson({ ...base }, "elapsed", anchor);
    const changed = [
      { ...base, title: "Another title" },
      { ...base, metadata: { description: null, author: "Ann" } },
      { ...base, optional: "now set" },
      Object.fromEntries([["elapsed", 0], ...Object.entries(base).filter(([k]) => k !== "elapsed")]),
      (({ quality, ...rest }) => rest)(base),
      { ...base, extra: 1 },
      { ...base, elapsed: Number.NaN },
    ];
    for (const body of changed) {
      expect(text(templatedJson(body, "elapsed", anchor).body)).toBe(JSON.stringify(body));
      // And the kept text does not stay the old one's.
      expect(text(templatedJson({ ...base }, "elapsed", anchor).body)).toBe(JSON.stringify(base));
    }
  });

  test("a body without the varying field, or with it first or last, comes out as JSON.stringify's", () => {
    const cases = [{ a: 1, b: "x" }, { elapsed: 3, a: 1 }, { a: 1, elapsed: 3 }, { elapsed: 3 }];
    for (const body of cases) {
      const anchor = {};
      for (let i = 0; i < 4; i++)
        expect(text(templatedJson({ ...body }, "elapsed", anchor).body)).toBe(JSON.stringify(body));
    }
  });
});

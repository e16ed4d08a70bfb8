import { describe, expect, test } from "bun:test";
import { queryInput } from "./query-input.ts";

describe("queryInput", () => {
  const counted = () => {
    const calls: Record<string, unknown>[] = [];
    const read = queryInput((query) => {
      calls.push(query);
      if (query.bad !== undefined) throw new Error("bad query");
      return { url: String(query.url), n: calls.length };
    });
    return { read, calls };
  };

  test("a query is validated once; each URL answers its own query's value", () => {
    const { read, calls } = counted();
    const a = read("http://h/v1/fetch?url=a");
    expect(a.url).toBe("a");
    expect(read("http://h/v1/fetch?url=a")).toBe(a);
    const b = read("http://h/v1/fetch?url=b");
    expect(b.url).toBe("b");
    // Back to the first: remembered, not validated again, and not the last URL's value.
    expect(read("http://h/v1/fetch?url=a")).toBe(a);
    // Another host with the same query shares its value (validation reads the query only).
    expect(read("http://other/v1/fetch?url=b")).toBe(b);
    expect(calls.length).toBe(2);
  });

  test("a query that fails validation throws every time and is never remembered", () => {
    const { read, calls } = counted();
    expect(() => read("http://h/v1/fetch?bad=1")).toThrow("bad query");
    expect(() => read("http://h/v1/fetch?bad=1")).toThrow("bad query");
    expect(calls.length).toBe(2);
    expect(read("http://h/v1/fetch?url=c").url).toBe("c");
  });

  test("what is remembered is frozen", () => {
    const { read } = counted();
    read("http://h/v1/fetch?url=d");
    expect(Object.isFrozen(read("http://h/v1/fetch?url=d"))).toBe(true);
  });
});

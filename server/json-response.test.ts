import { describe, expect, test } from "bun:test";
import { jsonResponse } from "./json-response.ts";

describe("jsonResponse", () => {
  test("each response carries exactly its own headers, whatever the one before carried", async () => {
    const first = jsonResponse({ a: 1 }, 200, { "x-a": "1", "x-b": 2, "x-c": "same" });
    const second = jsonResponse({ a: 2 }, 201, { "x-a": "9", "x-b": 2, "x-c": "same" });
    const other = jsonResponse([1], 200, { "x-a": "1", "x-d": "4" });
    const third = jsonResponse({ a: 3 }, 200, { "x-a": "1", "x-b": 3, "x-c": "changed" });
    const fourth = jsonResponse({ a: 4 }, 200, { "x-a": 1, "x-b": "3", "x-c": "changed" });
    const headers = (r: Response) =>
      Object.fromEntries([...r.headers].filter(([name]) => name.startsWith("x-")));
    expect(headers(first)).toEqual({ "x-a": "1", "x-b": "2", "x-c": "same" });
    expect(headers(second)).toEqual({ "x-a": "9", "x-b": "2", "x-c": "same" });
    expect(headers(other)).toEqual({ "x-a": "1", "x-d": "4" });
    expect(headers(third)).toEqual({ "x-a": "1", "x-b": "3", "x-c": "changed" });
    expect(headers(fourth)).toEqual({ "x-a": "1", "x-b": "3", "x-c": "changed" });
    expect(second.status).toBe(201);
    expect(second.headers.get("content-type")).toContain("application/json");
    expect(await second.json()).toEqual({ a: 2 });
    expect(await other.json()).toEqual([1]);
  });

  test("alternating sets of names, odd names and missing values never carry another response's header", () => {
    const headers = (r: Response) =>
      Object.fromEntries([...r.headers].filter(([name]) => name.startsWith("x-") || name === "constructor"));
    const hit = { "x-id": "1", "x-cache": "HIT", "x-cache-age": 3 };
    const miss = { "x-id": "2", "x-cache": "MISS" };
    const responses = [hit, miss, { ...hit, "x-id": "3" }, { ...miss, "x-id": "4" }].map((h) =>
      jsonResponse({}, 200, h),
    );
    expect(responses.map(headers)).toEqual([
      { "x-id": "1", "x-cache": "HIT", "x-cache-age": "3" },
      { "x-id": "2", "x-cache": "MISS" },
      { "x-id": "3", "x-cache": "HIT", "x-cache-age": "3" },
      { "x-id": "4", "x-cache": "MISS" },
    ]);
    jsonResponse({}, 200, { "x-a": "1", "x-secret": "s" });
    const next = jsonResponse({}, 200, { "x-a": "1", "x-b": undefined as unknown as string });
    expect(next.headers.get("x-secret")).toBeNull();
    expect(headers(jsonResponse({}, 200, { constructor: "c" }))).toEqual({ constructor: "c" });
  });
});

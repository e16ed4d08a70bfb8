import { describe, expect, test } from "bun:test";
import type { FetchResult } from "../schemas/fetch.ts";
import { createRenderMemo } from "./render-memo.ts";

const result = (content: string): FetchResult => ({
  url: "https://a.example/",
  title: "",
  content,
  metadata: { description: null, author: null, published: null, image: null, canonical: null },
  links: [],
  tokens: 0,
  method: "simple",
  elapsed: 0,
  contentType: "html",
  quality: 0,
  fingerprint: "",
  statusCode: 200,
});

describe("render memo", () => {
  test("hands back what was set, and drops the least recently used past its bound", () => {
    // Each entry is about 1 KiB of overhead plus 2 bytes a character: 3 fit in 16 KiB.
    const memo = createRenderMemo(16 * 1024);
    for (const key of ["a", "b", "c"]) memo.set(key, result(key.repeat(2_000)));
    expect(memo.get("a")?.content).toBe("a".repeat(2_000));
    memo.set("d", result("d".repeat(2_000)));
    // "b" was the least recently used ("a" was just read).
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toBeDefined();
    expect(memo.get("c")).toBeDefined();
    expect(memo.get("d")).toBeDefined();
  });

  test("a result larger than half of the bound is not kept", () => {
    const memo = createRenderMemo(16 * 1024);
    memo.set("big", result("x".repeat(10_000)));
    expect(memo.get("big")).toBeUndefined();
  });
});

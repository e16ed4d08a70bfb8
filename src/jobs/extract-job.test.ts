import { describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import type { ExtractInput } from "../schemas/extract.ts";
import {
  type ExtractPage,
  extractJobView,
  extractSummary,
  extractTargets,
  mergeExtractions,
} from "./extract-job.ts";

describe("mergeExtractions", () => {
  test("arrays are concatenated in page order; other fields come from the first page with a non-null value", () => {
    const merged = mergeExtractions([
      { name: null, tags: ["a"], offer: { price: 1 }, rating: 0, note: null },
      { name: "Second", tags: ["b", "c"], offer: { price: 2 }, rating: 5, extra: false },
      { name: "Third", tags: [], offer: null, note: null },
    ]);
    expect(merged).toEqual({
      name: "Second",
      tags: ["a", "b", "c"],
      offer: { price: 1 },
      rating: 0,
      note: null,
      extra: false,
    });
  });

  test("a field null on the first page and a list later collects the lists from there on; a scalar first keeps the scalar", () => {
    expect(mergeExtractions([{ xs: null }, { xs: [1] }, { xs: [2] }])).toEqual({ xs: [1, 2] });
    expect(mergeExtractions([{ xs: "one" }, { xs: [1] }])).toEqual({ xs: "one" });
    expect(mergeExtractions([])).toEqual({});
  });

  test("the pages are not changed by the merge", () => {
    const first = { tags: ["a"] };
    mergeExtractions([first, { tags: ["b"] }]);
    expect(first).toEqual({ tags: ["a"] });
  });
});

describe("the job's view", () => {
  const pages: ExtractPage[] = [
    {
      url: "https://a.example/",
      data: { n: "A", t: ["1"] },
      method: "llm",
      tokensUsed: { input: 10, output: 2 },
    },
    { url: "bad", error: { type: "invalid_url", message: "no" } },
    {
      url: "https://c.example/",
      data: { n: "C", t: ["3"] },
      method: "llm",
      tokensUsed: { input: 5, output: 1 },
    },
  ];
  const job = {
    status: "completed" as const,
    total: 3,
    completed: 2,
    failed: 1,
    creditsUsed: 2,
    expiresAt: Date.UTC(2026, 0, 2),
    error: null,
  };

  test("merges the pages that were extracted, sums their tokens and pages the results", () => {
    expect(extractSummary(pages)).toEqual({
      data: { n: "A", t: ["1", "3"] },
      tokensUsed: { input: 15, output: 3 },
    });
    expect(extractJobView(job, pages, 1, 1)).toEqual({
      status: "completed",
      total: 3,
      completed: 3,
      failed: 1,
      creditsUsed: 2,
      expiresAt: "2026-01-02T00:00:00.000Z",
      results: [pages[1] as ExtractPage],
      data: { n: "A", t: ["1", "3"] },
      tokensUsed: { input: 15, output: 3 },
    });
  });

  test("data only once completed; the error of a failed job", () => {
    expect(
      extractJobView({ ...job, status: "processing", expiresAt: null }, pages, 0, 10).data,
    ).toBeUndefined();
    const failed = extractJobView(
      { ...job, status: "failed", error: "Every page of the job failed" },
      [],
      0,
      10,
    );
    expect(failed).toMatchObject({ error: "Every page of the job failed", results: [] });
    expect(failed.data).toBeUndefined();
    expect(failed.tokensUsed).toBeUndefined();
  });
});

describe("extractTargets", () => {
  const refused = (input: Partial<ExtractInput>) => {
    try {
      extractTargets(input as ExtractInput);
    } catch (error) {
      expect(error).toBeInstanceOf(SiphonError);
      expect((error as SiphonError).type).toBe("invalid_request");
      return (error as SiphonError).message;
    }
    throw new Error("accepted");
  };

  test("url answers at once, urls is a job; both, neither, or a webhook with url are refused naming the fields", () => {
    expect(extractTargets({ url: "https://a.example/" } as ExtractInput)).toEqual({
      url: "https://a.example/",
    });
    expect(extractTargets({ urls: ["https://a.example/"] } as ExtractInput)).toEqual({
      urls: ["https://a.example/"],
    });
    expect(refused({ url: "u", urls: ["u"] })).toBe("Give url or urls, not both");
    expect(refused({})).toBe("url or urls is required");
    expect(refused({ url: "u", webhook: { url: "https://h.example/" } })).toContain("webhook needs urls");
  });
});

import { describe, expect, test } from "bun:test";
import { chaptersFrom } from "./chapters.ts";

describe("chaptersFrom", () => {
  test("lines starting with a timestamp, separators and brackets dropped, hours read", () => {
    const description = [
      "A film about mills.",
      "",
      "0:00 Introduction",
      "00:45 - Filling the pond",
      "(2:10) The wheel",
      "• 1:04:05 | Grinding & dressing",
      "Thanks for watching 5:00 later",
    ].join("\n");
    expect(chaptersFrom(description, 4000)).toEqual([
      { title: "Introduction", start: 0 },
      { title: "Filling the pond", start: 45 },
      { title: "The wheel", start: 130 },
      { title: "Grinding & dressing", start: 3845 },
    ]);
  });

  test("YouTube's rule: first at 0:00, at least three, increasing, within the duration", () => {
    expect(chaptersFrom("1:00 a\n2:00 b\n3:00 c")).toEqual([]);
    expect(chaptersFrom("0:00 a\n2:00 b")).toEqual([]);
    expect(chaptersFrom("0:00 a\n2:00 b\n1:00 c")).toEqual([]);
    expect(chaptersFrom("0:00 a\n1:00 b\n9:00 c", 300)).toEqual([]);
    expect(chaptersFrom("0:00 a\n1:00 b\n2:00 c", 300)).toHaveLength(3);
    expect(chaptersFrom("")).toEqual([]);
  });
});

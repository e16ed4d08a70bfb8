import { describe, expect, test } from "bun:test";
import type { SiphonError } from "../errors.ts";
import { compileNoiseRules, compilePattern, filterNoise } from "./noise.ts";

const all = compileNoiseRules({ whitespace: true, dates: true, counters: true, patterns: [] });
const none = compileNoiseRules({ whitespace: false, dates: false, counters: false, patterns: [] });

describe("filterNoise", () => {
  test("dates, times, weekdays and relative times go; the words around them stay", () => {
    const lines = [
      "Updated 2026-11-18T12:04:05.123Z by the desk",
      "Posted 18/11/2026, 12:04 PM",
      "Posted 2026/11/18 and 11/18/26",
      "Tuesday, November 18, 2026 at 9:30 am",
      "18th November 2026 (Tue, 18 Nov 2026 12:04:05 GMT)",
      "Valid through Nov 2026",
      "3 minutes ago · 1 hour ago · an hour ago · 5m ago · just now · today",
    ];
    expect(filterNoise(lines.join("\n"), all).split("\n")).toEqual([
      "Updated by the desk",
      "Posted ,",
      "Posted and",
      "at",
      "( GMT)",
      "Valid through",
      "· · · · ·",
    ]);
  });

  test("prices, versions, plan sizes and plain numbers are not dates or counters", () => {
    const text = "Pro: $29.50 per month for 10 users\nVersion 1.2.3, build 2048\nUp to 5 people\n3:1 odds";
    expect(filterNoise(text, all)).toBe(text);
  });

  test("audience counters lose their number, keep their words", () => {
    const text = [
      "12,013 views · 4 people online · Visitors: 401",
      "1.2k likes, 87 comments, 12 people are watching now",
      "**3,456** downloads",
      "You are visitor #123456",
    ].join("\n");
    expect(filterNoise(text, all).split("\n")).toEqual([
      "views · people online · Visitors:",
      "likes, comments, people are watching now",
      "**** downloads",
      "You are visitor #",
    ]);
  });

  test("whitespace: runs collapse, lines are trimmed, blank lines go; off, the text is kept", () => {
    const text = "  # Title \r\n\r\n\n  a   b\t c  \n";
    expect(filterNoise(text, all)).toBe("# Title\na b c");
    expect(filterNoise(text, none)).toBe("  # Title \n\n\n  a   b\t c  \n");
  });

  test("each rule only when asked", () => {
    const text = "Visitors: 12 at 12:30";
    expect(filterNoise(text, { ...none, counters: true })).toBe("Visitors:  at 12:30");
    expect(filterNoise(text, { ...none, dates: true })).toBe("Visitors: 12 at ");
  });

  test("the caller's patterns are removed, /source/flags honoured", () => {
    const rules = compileNoiseRules({
      whitespace: true,
      dates: false,
      counters: false,
      patterns: ["Build [0-9a-f]{7}", "/session id: \\w+/i"],
    });
    expect(filterNoise("Docs (Build 3fa9c21)\nSESSION ID: abc123 kept", rules)).toBe("Docs ()\nkept");
  });
});

describe("compilePattern", () => {
  const refusal = (pattern: string) => {
    try {
      compilePattern(pattern);
    } catch (error) {
      return error as SiphonError;
    }
    return null;
  };

  test("refuses what does not compile, unknown flags and nested quantifiers", () => {
    expect(refusal("(unclosed")?.type).toBe("invalid_request");
    expect(refusal("(unclosed")?.message).toContain("not a valid regular expression");
    expect(refusal("/x/g")?.message).toContain("flags may only be");
    for (const pattern of ["(a+)+", "(\\w*x)*", "((ab)*c){2,}", "(?:a|b+)*"]) {
      expect(refusal(pattern)?.message).toContain("exponential");
    }
    for (const pattern of ["(ab)+", "[(a+)]+", "a+b*", "\\(a+\\)+", "Build \\d+"]) {
      expect(refusal(pattern)).toBeNull();
    }
  });
});

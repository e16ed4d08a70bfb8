import { describe, expect, test } from "bun:test";
import type { Source } from "../answer/sources.ts";
import type { Passage, RankedPassage } from "../passages/index.ts";
import { bySource, mergeRankings, pageKey, pickUnread, rankFor, scoreSources } from "./gather.ts";

const hit = (url: string) => ({ url, title: url, snippet: "" });
const passage = (source: number, text: string, position = 0): Passage => ({
  source,
  position,
  heading: "",
  text,
});
const ranked = (entries: [Passage, number][]): RankedPassage[] =>
  entries.map(([p, score]) => ({ passage: p, score, coverage: 1 }));

function source(title: string, texts: string[], index: number): Source {
  return {
    title,
    url: `https://example.com/${title}`,
    snippet: "",
    page: null,
    passages: texts.map((text, position) => passage(index, text, position)),
  };
}

describe("pickUnread", () => {
  test("takes each query's best unread result in turn, up to the budget", () => {
    const results = [["a1", "a2", "a3"].map(hit), ["b1", "b2"].map(hit), ["c1", "c2", "c3"].map(hit)];
    const urls = (list: { url: string }[]) => list.map((h) => h.url);
    expect(urls(pickUnread(results, new Set(), 5))).toEqual(["a1", "b1", "c1", "a2", "b2"]);
    expect(urls(pickUnread(results, new Set(), 2))).toEqual(["a1", "b1"]);
    expect(pickUnread(results, new Set(), 0)).toEqual([]);
  });

  test("never picks a page read before or twice in one round, fragments aside", () => {
    const results = [
      ["https://x.test/1", "https://x.test/2#part", "https://x.test/3"].map(hit),
      ["https://x.test/2", "https://x.test/1", "https://x.test/4"].map(hit),
    ];
    const seen = new Set([pageKey("https://x.test/1")]);
    expect(pickUnread(results, seen, 10).map((h) => h.url)).toEqual([
      "https://x.test/2",
      "https://x.test/3",
      "https://x.test/4",
    ]);
  });
});

describe("ranking and scoring", () => {
  const sources = [
    source("mills", ["Tide mills store water behind a dam.", "The wheel turns slowly."], 0),
    source("solar", ["The council approved the solar farm."], 1),
    source("recipes", ["Bake the bread for forty minutes."], 2),
  ];

  test("every query weighs the same; a source matching none scores 0", () => {
    const rankings = rankFor(["tide mill dam", "solar farm council"], sources);
    const scores = scoreSources(rankings, sources.length);
    expect(scores[0]).toBeCloseTo(1);
    expect(scores[1]).toBeCloseTo(1);
    expect(scores[2]).toBe(0);
  });

  test("bySource orders best first, drops sources that match nothing, and renumbers their passages", () => {
    const ordered = bySource(sources, [0.5, 1.5, 0]);
    expect(ordered.map((s) => s.title)).toEqual(["solar", "mills"]);
    expect(ordered.map((s) => s.passages.map((p) => p.source))).toEqual([[0], [1, 1]]);
    // None matching: all kept, in their order.
    expect(bySource(sources, [0, 0, 0]).map((s) => s.title)).toEqual(["mills", "solar", "recipes"]);
  });

  test("mergeRankings interleaves the rankings, each passage once", () => {
    const [a, b, c] = [passage(0, "a"), passage(1, "b"), passage(2, "c")];
    const merged = mergeRankings([
      ranked([
        [a!, 3],
        [b!, 2],
      ]),
      ranked([
        [c!, 5],
        [a!, 1],
      ]),
    ]);
    expect(merged.map((r) => r.passage.text)).toEqual(["a", "c", "b"]);
  });
});

import { describe, expect, test } from "bun:test";
import type { Source } from "../answer/sources.ts";
import { rankPassages, splitPassages } from "../passages/index.ts";
import type { FetchResult } from "../schemas/fetch.ts";
import { matchPassage, questionTerms } from "./relevance.ts";
import { judge, SNIPPET_CHARS, trimText, type Verdict } from "./score.ts";

const NOW = Date.UTC(2026, 10, 18, 12, 0, 0);
const DAY = 86_400_000;

interface PageSpec {
  url: string;
  markdown: string;
  title?: string;
  published?: string | null;
  /** The search snippet. */
  snippet?: string;
  /** The fetch failed: only the snippet is left. */
  failed?: boolean;
}

/** Sources as gatherSources builds them: fetched pages split into passages, or a failed fetch's snippet. */
function sourcesOf(specs: PageSpec[]): Source[] {
  return specs.map((spec, index) => {
    const title = spec.title ?? new URL(spec.url).hostname;
    const snippet = spec.snippet ?? "";
    if (spec.failed) {
      return {
        title,
        url: spec.url,
        snippet,
        page: null,
        passages: [{ source: index, position: 0, heading: "", text: snippet }],
      };
    }
    const page = {
      url: spec.url,
      title,
      metadata: { published: spec.published ?? null },
    } as unknown as FetchResult;
    return { title, url: spec.url, snippet, page, passages: splitPassages(spec.markdown, index) };
  });
}

/** Ranks and judges as ask does. */
function ask(question: string, specs: PageSpec[]): Verdict {
  const sources = sourcesOf(specs);
  const ranked = rankPassages(
    question,
    sources.flatMap((s) => s.passages),
    sources.map((s) => s.title),
  );
  return judge(question, sources, ranked, NOW);
}

const ANSWER =
  "Tide mills used undershot or breastshot wheels, because the fall of water between the millpond and the ebbing sea is small.";
const OTHER = "An overshot wheel is fed from above and needs a tall fall of water, as hill streams give.";
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();

describe("authority and freshness decide between passages that answer alike", () => {
  test("the same passage on a government site ranks above a blog's copy", () => {
    const verdict = ask("what wheel does a tide mill use", [
      { url: "https://tidemills.blog/wheels", markdown: `## Wheels\n\n${ANSWER}` },
      { url: "https://www.heritage.gov.uk/tide-mills", markdown: `## Wheels\n\n${ANSWER}` },
      { url: "https://en.wikipedia.org/wiki/Tide_mill", markdown: `## Wheels\n\n${ANSWER}` },
    ]);
    expect(verdict.sources.map((s) => [s.url, s.authority])).toEqual([
      ["https://www.heritage.gov.uk/tide-mills", "official"],
      ["https://en.wikipedia.org/wiki/Tide_mill", "major"],
      ["https://tidemills.blog/wheels", "general"],
    ]);
  });

  test("a newer page's copy ranks above an older one's, and an undated one's", () => {
    const verdict = ask("what wheel does a tide mill use", [
      { url: "https://a.example/undated", markdown: ANSWER },
      { url: "https://b.example/old", markdown: ANSWER, published: daysAgo(400) },
      { url: "https://c.example/this-year", markdown: ANSWER, published: daysAgo(90) },
      { url: "https://d.example/this-month", markdown: ANSWER, published: daysAgo(20) },
      { url: "https://e.example/recent", markdown: ANSWER, published: daysAgo(2) },
    ]);
    expect(verdict.sources.map((s) => [new URL(s.url).pathname, s.freshness])).toEqual([
      ["/recent", "recent"],
      ["/this-month", "this-month"],
      ["/this-year", "this-year"],
      ["/undated", "older"],
      ["/old", "older"],
    ]);
  });

  test("neither lifts a passage that answers clearly worse", () => {
    const verdict = ask("what wheel does a tide mill use", [
      {
        url: "https://www.nist.gov/mills",
        markdown: "A wheel of any kind must be balanced before it turns in water.",
        published: daysAgo(1),
      },
      { url: "https://tidemills.blog/wheels", markdown: ANSWER, published: daysAgo(3000) },
    ]);
    expect(verdict.answer).toBe(ANSWER);
    expect(verdict.sources[0]?.url).toBe("https://tidemills.blog/wheels");
  });
});

describe("the answer", () => {
  test("is the passage with the question's terms, as written; every source gets its best passage", () => {
    const verdict = ask("what wheel does a tide mill use", [
      { url: "https://a.example/", markdown: `# Mills\n\n${OTHER}\n\n## Tide mills\n\n${ANSWER}` },
    ]);
    expect(verdict.answer).toBe(ANSWER);
    expect(verdict.sources[0]?.snippet).toBe(ANSWER);
  });

  test("BM25 counts the page's title and h1 for every passage; coverage does not", () => {
    // The lede matches "millstone" only through the title and the h1 above it: BM25 ranks it first.
    const lede =
      "Whatever turns a mill, wind, river or tide, the work is done between two stones: a fixed bed stone and a runner stone turning above it.";
    const speed =
      "A pair of four-foot millstones usually turned at around 120 revolutions a minute; larger stones ran slower so that their edge did not overheat the flour.";
    const markdown = [
      `# Millstones\n\n${lede}`,
      "## Choosing the stone\n\nBurr millstones were built of pieces cemented together and bound with iron hoops; cheaper millstones of gritstone ground oats.",
      "## Dressing\n\nEvery few weeks a pair of millstones wore smooth and had to be dressed with a mill bill, recutting the furrows.",
      `## Speed and gap\n\n${speed}`,
    ].join("\n\n");
    const sources = sourcesOf([{ url: "https://a.example/", title: "Millstones", markdown }]);
    const question = "how fast does a millstone turn";
    const ranked = rankPassages(question, sources[0]?.passages ?? [], ["Millstones"]);
    expect(ranked[0]?.passage.text).toBe(lede);
    expect(judge(question, sources, ranked, NOW).answer).toBe(speed);
  });

  test("a passage with more of the question beats one that repeats a word", () => {
    const verdict = ask("why did tide millers work at night", [
      {
        url: "https://a.example/",
        markdown: [
          "## Tides",
          "The tide, the tide, the tide: every tide on this coast is a tide to remember, tide after tide.",
          "## Working hours",
          "Because high tide came later each day, millers had to work through the night when the tide allowed.",
        ].join("\n\n"),
      },
    ]);
    expect(verdict.answer).toStartWith("Because high tide came later");
  });

  test("a heading counts as the passage's words, unless it only repeats the page title", () => {
    const title = "Millstones: choosing and dressing them";
    const lede = "Whatever turns a mill, the work is done between two stones that grind the grain to meal.";
    const speed = "A pair of four-foot stones usually turned at around 120 revolutions a minute.";
    const verdict = ask("how fast does a millstone turn", [
      {
        url: "https://a.example/",
        title,
        markdown: `# ${title}\n\n${lede}\n\n## Millstone speed\n\n${speed}`,
      },
    ]);
    expect(verdict.answer).toBe(speed);

    const wanted = questionTerms("how fast does a millstone turn");
    const passage = (heading: string) => ({ source: 0, position: 0, heading, text: lede });
    expect(matchPassage(wanted, passage(title), title).coverage).toBeCloseTo(1 / 3);
    expect(matchPassage(wanted, passage("Millstone care"), title).coverage).toBeCloseTo(2 / 3);
  });

  test("of passages with the same words, the one that keeps the question's word pairs together wins", () => {
    const rance =
      "The first tidal power station was built on the Rance in France; it was long the largest tidal plant, and the world came to see it.";
    const sihwa =
      "Sihwa Lake Tidal Power Station in South Korea opened in 2011 and is the largest in the world, first among its peers.";
    const verdict = ask("which tidal power station is the largest in the world", [
      { url: "https://a.example/", markdown: `${rance}\n\n${sihwa}` },
    ]);
    expect(verdict.answer).toBe(sihwa);
    const wanted = questionTerms("which tidal power station is the largest in the world");
    const match = (text: string) => matchPassage(wanted, { source: 0, position: 0, heading: "", text }, "");
    expect(match(sihwa)).toEqual({ coverage: 1, proximity: 0.75 });
    expect(match(rance)).toEqual({ coverage: 1, proximity: 0.5 });
  });

  test("no passage with the question's words: answer null, confidence 0, sources in search order with their snippets", () => {
    const verdict = ask("quantum chromodynamics gluon", [
      { url: "https://a.example/", markdown: ANSWER, snippet: "Tide mills and their wheels" },
      { url: "https://b.example/", markdown: OTHER, snippet: "Overshot wheels" },
    ]);
    expect(verdict).toEqual({
      answer: null,
      confidence: 0,
      sources: [
        {
          url: "https://a.example/",
          title: "a.example",
          snippet: "Tide mills and their wheels",
          confidence: 0,
          authority: "general",
          freshness: "older",
        },
        {
          url: "https://b.example/",
          title: "b.example",
          snippet: "Overshot wheels",
          confidence: 0,
          authority: "general",
          freshness: "older",
        },
      ],
    });
  });

  test("the page title alone is no answer: BM25 matches it, ask does not count it", () => {
    const verdict = ask("tide mill", [{ url: "https://a.example/", title: "Tide mill", markdown: OTHER }]);
    expect(verdict.answer).toBeNull();
    expect(verdict.confidence).toBe(0);
  });

  test("no sources at all (an empty search): answer null, no sources", () => {
    expect(ask("what wheel does a tide mill use", [])).toEqual({ answer: null, confidence: 0, sources: [] });
  });

  test("a page that failed to fetch answers from its search snippet", () => {
    const verdict = ask("what wheel does a tide mill use", [
      { url: "https://a.example/", markdown: "", failed: true, snippet: ANSWER },
      { url: "https://b.example/", markdown: OTHER },
    ]);
    expect(verdict.answer).toBe(ANSWER);
    expect(verdict.sources[0]?.url).toBe("https://a.example/");
  });
});

describe("confidence", () => {
  const QUESTION = "what wheel does a tide mill use";

  test("every term and no rival: 1; tied with a different passage: 0.5", () => {
    expect(ask(QUESTION, [{ url: "https://a.example/", markdown: ANSWER }]).confidence).toBe(1);
    const rival = "Each tide mill had its own wheel, and the miller chose what to use it for.";
    const tied = ask(QUESTION, [
      { url: "https://a.example/", markdown: ANSWER.replace("Tide mills used", "Tide mills use") },
      { url: "https://b.example/", markdown: rival },
    ]);
    expect(tied.confidence).toBeGreaterThanOrEqual(0.5);
    expect(tied.confidence).toBeLessThan(0.65);
  });

  test("a clear winner is surer than a close one", () => {
    const weak = "A mill by the sea: tide and wind.";
    const clear = ask(QUESTION, [{ url: "https://a.example/", markdown: `${ANSWER}\n\n${weak}` }]);
    const close = ask(QUESTION, [
      {
        url: "https://a.example/",
        markdown: `${ANSWER}\n\nEvery tide mill had a wheel; what use it was put to varied.`,
      },
    ]);
    expect(clear.confidence).toBeGreaterThan(close.confidence);
    expect(clear.confidence).toBeGreaterThan(0.8);
  });

  test("a copy of the answer on another site agrees with it: it is no rival", () => {
    const alone = ask(QUESTION, [{ url: "https://a.example/", markdown: ANSWER }]);
    const copied = ask(QUESTION, [
      { url: "https://a.example/", markdown: ANSWER },
      { url: "https://b.example/", markdown: ANSWER },
    ]);
    expect(copied.confidence).toBe(alone.confidence);
  });

  test("a passage with half the question's terms is at most half sure", () => {
    const verdict = ask("what wheel does a tide mill use for grinding barley into coarse flour", [
      { url: "https://a.example/", markdown: ANSWER },
    ]);
    expect(verdict.answer).toBe(ANSWER);
    expect(verdict.confidence).toBeLessThanOrEqual(0.5);
    expect(verdict.confidence).toBeGreaterThan(0);
  });

  test("each source's confidence comes from its best passage; sources are best first", () => {
    const verdict = ask(QUESTION, [
      {
        url: "https://weak.example/",
        markdown: "A mill by the sea: tide and wind, and the water in between.",
      },
      { url: "https://best.example/", markdown: ANSWER },
    ]);
    expect(verdict.sources.map((s) => s.url)).toEqual(["https://best.example/", "https://weak.example/"]);
    const [best, weak] = verdict.sources;
    expect(best?.confidence).toBe(verdict.confidence);
    expect(weak?.confidence).toBeGreaterThan(0);
    expect(weak?.confidence).toBeLessThan(best?.confidence ?? 0);
  });
});

describe("trimText", () => {
  test("keeps short text, cuts long text at a word end with an ellipsis", () => {
    expect(trimText("  A short  passage. ")).toBe("A short passage.");
    const long = "word ".repeat(200);
    const cut = trimText(long);
    expect(cut.length).toBeLessThanOrEqual(SNIPPET_CHARS + 1);
    expect(cut).toEndWith("word…");
  });
});

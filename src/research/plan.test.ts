import { expect, test } from "bun:test";
import { cleanQueries, gapNotes } from "./plan.ts";

test("cleanQueries trims, drops empties, repeats and asked queries (case aside), and keeps at most max", () => {
  const raw = ["  Tide mill  history ", "", "tide mill history", 42, "Solar farms", "wind power", "hydro"];
  expect(cleanQueries(raw, ["SOLAR FARMS"], 3)).toEqual(["Tide mill history", "wind power", "hydro"]);
  expect(cleanQueries(raw, [], 2)).toEqual(["Tide mill history", "Solar farms"]);
  expect(cleanQueries([], [], 4)).toEqual([]);
});

test("cleanQueries cuts a query over 500 characters at a word end, as the engines need", () => {
  const [query] = cleanQueries([`${"word ".repeat(150)}end`], [], 1);
  expect(query!.length).toBeLessThanOrEqual(500);
  expect(query!.endsWith("word")).toBe(true);
});

test("gapNotes quotes each query's best passages, cut short, and says when a query found nothing", () => {
  const long = `${"x".repeat(600)} tail`;
  const notes = gapNotes(
    ["tide mills", "solar"],
    [
      [
        { passage: { source: 0, position: 0, heading: "", text: long }, score: 2, coverage: 1 },
        { passage: { source: 1, position: 0, heading: "", text: "second" }, score: 1, coverage: 1 },
        { passage: { source: 1, position: 1, heading: "", text: "third" }, score: 0.5, coverage: 1 },
      ],
      [],
    ],
    ["Mills page", "Other page"],
  );
  expect(notes).toContain(`Query: tide mills\n- (Mills page) ${"x".repeat(500)}…\n- (Other page) second`);
  expect(notes).not.toContain("third");
  expect(notes).not.toContain("tail");
  expect(notes).toContain("Query: solar\n- nothing relevant found");
});

import { describe, expect, test } from "bun:test";
import { HIGHLIGHT_PASSAGES, pageHighlights, pagePassages } from "./page.ts";

const page = {
  title: "Gezeitenmühlen",
  markdown: [
    "# Gezeitenmühlen",
    "Eine Gezeitenmühle ist eine Wassermühle, die vom Steigen und Fallen der Gezeiten in einer Bucht angetrieben wird.",
    "## Geschichte",
    "Die ältesten bekannten Gezeitenmühlen wurden im frühen Mittelalter in Irland gebaut, lange vor den Windmühlen der Küste.",
    "## Heute",
    "Einige Gezeitenmühlen in Europa mahlen noch heute Mehl, als Museen, die Besucher an Wochenenden empfangen.",
    "Das Café neben der Mühle serviert Kuchen und Kaffee an jedem Tag der Woche, außer am Montag im Winter.",
  ].join("\n\n"),
};

describe("pagePassages and pageHighlights", () => {
  test("the passage with the query's words comes first, in any language", () => {
    const [best] = pagePassages(page, "Wo wurden die ältesten Gezeitenmühlen gebaut?", 1);
    expect(best?.text).toContain("in Irland gebaut");
  });

  test("passages without the query's words are left out; a page that never mentions it gives none", () => {
    expect(pagePassages(page, "Kuchen Kaffee", 5).map((p) => p.text)).toEqual([
      expect.stringContaining("Kuchen und Kaffee"),
    ]);
    expect(pageHighlights(page, "Flugzeug Lissabon")).toBe("");
  });

  test(`highlights hold at most ${HIGHLIGHT_PASSAGES} passages, separated by blank lines`, () => {
    const highlights = pageHighlights(page, "Gezeitenmühlen Mühle Mehl Irland Wassermühle Kuchen");
    const passages = highlights.split("\n\n");
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.length).toBeLessThanOrEqual(HIGHLIGHT_PASSAGES);
  });
});
